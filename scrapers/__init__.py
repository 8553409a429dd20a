"""Scrapers of the game portals the tournaments are played on (herna.net)."""
