"""A tournament from its propozície to its end: the propozície, its creation, the players' and the
screlo imports, check-in, rounds, payments, timers, the season's decay, the players' and the head
administrator's use cases, and what the tournament looks like now."""
