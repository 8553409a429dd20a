"""Duplicate Scrabble (issue 23): pure."""
