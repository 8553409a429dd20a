"""The use cases, free of Discord: every adapter (the bot, the CLI, the hall, the rehearsal)
runs them on the store through `app.App`.

The frame every use case shares is here: `app` (one use case, one transaction, its outbox
messages), `replies` (what it answers), `notifier` (the port to people), `lookup` (who and what a
request is about), `policy` (who may act as head administrator), `bounds` (what a person may
type). Each capability is a package of its own; none of their `__init__` imports anything, so a
module imports a sibling directly (`from bot.services.delivery.outbox import Sender`):

- `tournament` — propozície and imports, rounds, payments, timers, the players' and the head
  administrator's use cases, what the tournament looks like now;
- `results` — a result's life: evidence, the herna.net sync, the reconciled verdicts;
- `duplicate` — duplicate Scrabble events (issue 24);
- `identity` — which Discord account speaks for which registry player;
- `delivery` — the outbox, the database's lease, the bot's background loops;
- `exports` — files for the association and for other programs (CSV, TSH, TRF);
- `lexicon` — word lists as files and the word checks;
- `season` — the season file and its ladder.
"""
