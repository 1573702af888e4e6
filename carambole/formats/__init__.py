"""Date formats of the pages, where Django's own are ambiguous or mixed."""
