"""Searches over the shared game protocol, and one solver module per game."""
