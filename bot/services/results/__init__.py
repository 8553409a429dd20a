"""A result's life: evidence from the players, the head administrator and herna.net (the sync and
who runs it), reconciled by `rules` into the stored verdicts."""
