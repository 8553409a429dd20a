"""Lexicons as files (an association's list, the hunspell stand-in) and the word checks."""
