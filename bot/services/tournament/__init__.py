"""A tournament from its propozície to its end: setup and imports, rounds, payments, timers, the
players' and the head administrator's use cases, and what the tournament looks like now."""
