"""Formats of Ukrainian pages."""
