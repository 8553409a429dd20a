"""Verified identities: Discord accounts linked to registry players, and names that only look
alike."""
