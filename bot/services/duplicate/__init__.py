"""Duplicate Scrabble run by stredisko (issue 24): online in Discord and in a live hall, the
same use cases over the same rows (`bot.store.duplicate`). Every decision is `rules.duplicate`'s.

- `setup`: the propozície's `[duplicate]` table → `dup_events`;
- `game`: `start_game` (seed + commitment), `open_round` (drawn or typed rack, deadline,
  timers, the announcement with the board image's data);
- `slips`: `submit_slip` (Discord, arbiter), `submit_csv` (a round's CSV);
- `close`: `close_round` (read → compute off the store's thread → guarded write);
- `results`: standings, preliminary and final results, the seed's reveal;
- `protests`: `file_protest`, `decide_protest` (003 r. 27–29; corrections 004 §5D);
- `view`: `event_view(db, slug)` → plain dataclasses for the results page.
"""
