"""Read side: projections, read models, live push, standings and the archive."""
