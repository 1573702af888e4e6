"""Template tags of the read side's pages."""
