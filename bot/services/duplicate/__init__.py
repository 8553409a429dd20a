"""Duplicate Scrabble run by stredisko (issue 24): online in Discord and in a live hall, the
same use cases over the same rows (`bot.store.duplicate`). Every decision is `rules.duplicate`'s.

- `setup`: the propozície's `[duplicate]` table → `dup_events`;
- `game`: `start_game` (seed + commitment), `open_round` (drawn or typed rack, deadline,
  timers, the announcement with the board image's data);
- `slips`: `submit_slip` (Discord, arbiter), `submit_csv` (a round's CSV);
- `close`: `close_round` (read → compute off the store's thread → guarded write);
- `tops`: the move generator started as a round opens (003 r. 17), a per-process cache;
- `results`: standings, preliminary and final results, the seed's reveal, `replay_game`;
- `protests`: `file_protest`, `pending_protests`, `decide_protest` (003 r. 27–29; 004 §5D);
- `shootout`: `enter_shoot_out` (003 r. 49: a level player's shoot-out, after the last game);
- `view`: `event_view(db, slug)` → plain dataclasses for the results page;
- `timers`: what the duplicate timer kinds do (`bot.services.tournament.timers` dispatches them).

The messages queued (catalogue `bot/locales/*/duplicate_online.toml`, key → where, params;
every one also carries `rule`; `image` = {"board": 15-line text, "highlight": [[row, col]…],
"tiles": tile set, "rack": rack} — the PNG is made from it when sent):
  duplicate.online.game_start       channel  game, commitment
  duplicate.online.round_open       channel  game, round, part, rack, values, deadline, seconds,
                                             image  (timely: dropped after the deadline)
  duplicate.online.rack_fixed       channel  game, round, was, rack, values, deadline, seconds
                                             (the arbiter's correction of a typed rack)
  duplicate.online.warning          channel  game, round, seconds  (timely: until the deadline)
  duplicate.online.top / top_delayed  channel  game, round, coord, word, score, tops, image
                                             (top_delayed: the last top of a part, 003 r. 22)
  duplicate.online.top_others(_more)  channel  round, others, more  (tops of equal score: three
                                             listed, `more` counted; top_others_more when > 0)
  duplicate.online.sub_tops         channel  round, moves  (the next best moves below the top)
  duplicate.online.no_top           channel  game, round, image
  duplicate.online.top_withheld     channel  game, round, part
  duplicate.online.summary          channel  game, round, found, n, top
  duplicate.online.evaluation       DM       game, round, move, points, outcome, reason, why
  duplicate.online.standings        channel  game, part, lines, text
  duplicate.online.game_over        channel  game, reason, why
  duplicate.online.preliminary      channel  game, lines, text
  duplicate.online.words            channel  game, words, text
  duplicate.online.my_moves         DM       game, moves, text
  duplicate.online.protest_window(_hall)  channel  game  (_hall: the event sends Discord no
                                             protest command: protests go to the arbiter)
  duplicate.online.protest_filed    admin    id, game, round, word, claim, player, reason
  duplicate.online.protest_decided_dm  DM    id, word, round, upheld, verdict, decision, changed
  duplicate.online.corrected        DM       game, round, before, after
  duplicate.online.final            channel  game, lines, text
  duplicate.online.seed(_hall)      channel  game, seed, commitment (_hall: typed, drawn —
                                             the racks typed in the hall the seed did not draw)
  duplicate.online.shoot_out_decided  channel  lines, text  (a level group's order decided)
A hall event (`mode = "hall"`) sends Discord only what its `[duplicate] discord` chooses
(`context.to_discord`: "none" by default, "results" = `context.RESULT_KEYS`, "all"); the rest
is queued nowhere and shown at the console only (`Tx` local messages, issue 35).
`lines` are {rank, name, points, top, percent, decided_by, rule, shoot_out ({score, seconds,
word} or None), note (" — rozhodol rozstrel …" or "")}; `text` is the list rendered in Slovak,
one line each.
"""
