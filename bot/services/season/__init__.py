"""The season: its file (which events feed a ladder) and the ladder computed from it."""
