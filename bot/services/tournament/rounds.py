"""A round's way through the tournament: pair (or import pairings), publish, close; then finish.

Careful-human order: before something irreversible — pairing the next round closes the previous
round's dispute window (e-SP 4.7), closing a round, finishing the tournament — the service
brings the results up to date (`lifecycle.refresh_round`) and, if anything is still open
(no result yet, a forfeit proposal waiting for the head admin, a dispute), answers with the
list first and goes on only with `force=True`. Such a warning is returned, not raised, so the
refreshed results are kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import screlo_change_shown, screlo_shown
from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.delivery.outbox import Timely
from bot.services.policy import CONTROL_RULE, AdminRef, require_admin
from bot.services.replies import Refusal, Reply, done, refused
from bot.services.results import lifecycle
from bot.services.season import on_finish
from bot.services.tournament import timers
from bot.services.tournament.event_format import event_format
from bot.services.tournament.event_format import round_robin as event_round_robin
from bot.services.tournament.payments import unpaid_names
from bot.services.tournament.views import (
    Table,
    keyed,
    ranking,
    rules_results,
    seed_rating,
    standing_rows,
    table_rows,
    tables_of,
)
from bot.store import (
    ResultStatus,
    Round,
    StoreError,
    Tournament,
    TournamentStatus,
    advance_last_season,
    apply_rating,
    find_player_by_nick,
    get_entry,
    get_player,
    get_round,
    list_entries,
    list_rounds,
    pairings_of_round,
    rating_change_of,
    replace_pairings,
    set_status,
    update_round,
)
from bot.store.players import nick_key
from rules import Entrant, PairingError, Profile, Rating, compose, rate
from rules import pair_round as rules_pair_round

OPEN = lifecycle.OPEN  # pending, proposed, disputed: not settled yet


def _tournament(tx: Tx, slug: str, admin_id: AdminRef) -> Tournament:
    """The tournament, if `admin_id` may run it (`policy`, e-SP 2.6) and it is not over."""
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is TournamentStatus.FINISHED:
        raise Refusal("finish.already", tournament=t.name)
    return t


def _round(tx: Tx, t: Tournament, round_no: int) -> Round:
    try:
        return get_round(tx.db, t.id, round_no)
    except StoreError:
        raise Refusal("round.unknown", round=round_no, tournament=t.name) from None


def open_tables(tables: list[Table]) -> list[Table]:
    """Tables whose result is not settled: nothing recorded, pending, proposed or disputed."""
    return [tb for tb in tables if tb.result is None or tb.result.status in OPEN]


def open_rows(tx: Tx, tables: list[Table]) -> list[dict[str, Any]]:
    """The open tables as rows; each names its own catalogue key by status."""
    rows = table_rows(tx.db, tables)
    for row in rows:
        row["key"] = f"round.open_{row['status']}_row"
    return rows


def _settle_previous(tx: Tx, t: Tournament, round_no: int, admin_id: AdminRef,
                     force: bool) -> Reply | None:
    """Before round `round_no` is paired: refresh the previous round, warn about its open
    results, then close its dispute window (e-SP 4.7: confirmed when the next round is paired).
    Returns the warning to answer with, or None to go on."""
    if round_no == 1:
        return None
    prev = _round(tx, t, round_no - 1)
    if prev.published_at is None:
        raise Refusal("round.previous_unpublished", round=round_no, previous=prev.number)
    by = tx.by_admin(admin_id, f"párovanie {round_no}. kola")
    lifecycle.refresh_round(tx, t.id, prev.number, by)
    still = open_tables(tables_of(tx.db, t, prev.number))
    if still and not force:
        return refused("round.open_results", rule="e-SP 4.7, 4.9", round=prev.number,
                       count=len(still), rows=open_rows(tx, still))
    lifecycle.confirm_round(tx, t.id, prev.number, by)
    return None


def _check_pairable(rnd: Round) -> None:
    if rnd.published_at is not None:
        raise Refusal("round.already_published", round=rnd.number)


# -- pairing -------------------------------------------


def _ready_to_pair(tx: Tx, slug: str, round_no: int, admin_id: AdminRef,
                   force: bool) -> tuple[Tournament, Reply | None]:
    """The tournament, once round `round_no` may be paired (not yet published; the previous
    round settled), or with the warning to answer instead."""
    t = _tournament(tx, slug, admin_id)
    _check_pairable(_round(tx, t, round_no))
    return t, _settle_previous(tx, t, round_no, admin_id, force)


def _repeat_of_published(tx: Tx, slug: str, round_no: int, admin_id: AdminRef
                         ) -> tuple[Tournament, bool]:
    """The tournament, and whether round `round_no` is published already: then pairing it again
    can only be a repeat (a retry, a double click), answered with the pairing it has."""
    t = _tournament(tx, slug, admin_id)
    return t, _round(tx, t, round_no).published_at is not None


def _unpaid(tx: Tx, t: Tournament) -> str:
    return unpaid_names(tx, t.id)


def _pair(tx: Tx, slug: str, round_no: int, admin_id: AdminRef, force: bool) -> Reply:
    t, published = _repeat_of_published(tx, slug, round_no, admin_id)
    if published:
        return _paired(tx, t, round_no, tx.profile(t.profile), unpaid=_unpaid(tx, t))
    t, warning = _ready_to_pair(tx, slug, round_no, admin_id, force)
    if warning is not None:
        return warning
    profile = tx.profile(t.profile)
    active = list_entries(tx.db, t.id, active_only=True)
    entries = [e for e in active if e.paid]  # e-SP 2.2: only those who paid may play
    if len(entries) < 2:
        raise Refusal("round.too_few", round=round_no, count=len(entries))
    entrants = [Entrant(lookup.rules_id(e.player_id), seed_rating(e, profile)) for e in entries]
    earlier = [tb for tb in tables_of(tx.db, t) if tb.pairing.round_no < round_no]
    avoid = avoided(tx, t, {e.player_id for e in entries})
    # an earlier game with no result yet (paired with force) still must not be repeated
    avoid += [(lookup.rules_id(tb.pairing.first_id), lookup.rules_id(tb.pairing.second_id))
              for tb in earlier if not tb.scored and tb.pairing.second_id is not None]
    try:
        pairs = rules_pair_round(entrants, rules_results(earlier), round_no, t.rounds_planned,
                                 profile, avoid=avoid, event_format=event_format(t))
    except (PairingError, ValueError) as exc:
        raise Refusal("round.pairing_failed", rule=profile.pairing.rule, round=round_no,
                      reason=str(exc)) from None
    tables = [(p.table, int(p.first), None if p.second is None else int(p.second))
              for p in pairs]
    return _store_pairings(tx, t, round_no, tables, admin_id, "ours", profile,
                           unpaid=_unpaid(tx, t))


def avoided(tx: Tx, t: Tournament, playing: set[int]) -> list[tuple[str, str]]:
    """The propozície's `avoid` pairs (SP 1.3) among the players paired now: a store id, or a
    herna nick (a player imported from a CSV) looked up now; a pair with someone not playing
    has nothing to keep apart."""
    def store_id(ref: int | str) -> int | None:
        if isinstance(ref, int):
            return ref
        player = find_player_by_nick(tx.db, ref)
        return None if player is None else player.id

    pairs = []
    for a, b in t.settings.get("avoid", []):
        ids = (store_id(a), store_id(b))
        if ids[0] in playing and ids[1] in playing:
            pairs.append((lookup.rules_id(ids[0]), lookup.rules_id(ids[1])))  # type: ignore[arg-type]
    return pairs


def _store_pairings(tx: Tx, t: Tournament, round_no: int,
                    tables: list[tuple[int, int, int | None]], admin_id: AdminRef, source: str,
                    profile: Profile, **params: Any) -> Reply:
    by = tx.by_admin(admin_id, f"párovanie {round_no}. kola")
    try:
        replace_pairings(tx.db, t.id, round_no, tables, by, source=source)
    except StoreError as exc:
        raise Refusal("round.cannot_pair", round=round_no, reason=str(exc)) from None
    return _paired(tx, t, round_no, profile, **params)


def _paired(tx: Tx, t: Tournament, round_no: int, profile: Profile, **params: Any) -> Reply:
    """The answer to pairing a round: its tables as stored, and the rule that paired them."""
    pairings = pairings_of_round(tx.db, t.id, round_no)
    players = sum(1 if p.second_id is None else 2 for p in pairings)
    round_robin = event_round_robin(t, players, profile)
    rule = profile.pairing.round_robin_rule if round_robin else profile.pairing.rule
    rows = table_rows(tx.db, tables_of(tx.db, t, round_no))
    rnd = get_round(tx.db, t.id, round_no)
    # paired after the official start: still paired (the head admin decides), but said, as the
    # players learn their opponents late and keep less time before the limit (e-SP 4.5)
    key = "round.paired_late" if tx.now > rnd.starts_at else "round.paired"
    tables = sum(p.second_id is not None for p in pairings)  # a bye is no table to play at
    return done(key, rule=rule, data=keyed(rows, "round.paired"), round=round_no,
                tables=tables, start=rnd.starts_at, limit=rnd.limit_at, **params)


async def pair_round(app: App, slug: str, round_no: int, admin_id: AdminRef, *,
                             force: bool = False) -> Reply:
    """Pair round `round_no` with `rules.pair_round` (Swiss, or round robin for small fields;
    e-SP 2.4, SP 1.3). Refuses (with the list) while the previous round has unsettled
    results, unless `force`."""
    return await app.run(_pair, slug, round_no, admin_id, force)


def _import(tx: Tx, slug: str, round_no: int, tables: list[tuple[str, str | None]],
            admin_id: AdminRef, force: bool) -> Reply:
    t, published = _repeat_of_published(tx, slug, round_no, admin_id)
    if published and _as_stored(tx, t, round_no) == [
            (nick_key(a), None if b is None else nick_key(b)) for a, b in tables]:
        return _paired(tx, t, round_no, tx.profile(t.profile), unpaid="—")
    t, warning = _ready_to_pair(tx, slug, round_no, admin_id, force)
    if warning is not None:
        return warning
    ids: list[tuple[int, int | None]] = []
    unknown, seen, twice, out = [], set(), [], []
    for first, second in tables:
        pair: list[int | None] = []
        for nick in (first, second):
            if nick is None:
                pair.append(None)
                continue
            player = find_player_by_nick(tx.db, nick)
            entry = None if player is None else get_entry(tx.db, t.id, player.id)
            if player is None or entry is None:
                unknown.append(nick)
                pair.append(None)
                continue
            if player.id in seen:
                twice.append(nick)
            seen.add(player.id)
            if entry.out:
                out.append(f"{nick} ({entry.out})")
            pair.append(player.id)
        if pair[0] is None and first is not None and first not in unknown:
            unknown.append(first)
        ids.append((pair[0] or 0, pair[1]))
    if unknown:
        raise Refusal("round.import_unknown", round=round_no, nicks=", ".join(unknown))
    if twice:
        raise Refusal("round.import_twice", round=round_no, nicks=", ".join(twice))
    if out:
        raise Refusal("round.import_out", round=round_no, names=", ".join(out),
                      rule="e-SP 3.6")
    met = {frozenset((tb.pairing.first_id, tb.pairing.second_id))
           for tb in tables_of(tx.db, t) if tb.pairing.round_no < round_no}
    rematches = [f"{first} – {second}" for (first, second), (a, b) in zip(tables, ids,
                                                                          strict=True)
                 if b is not None and frozenset((a, b)) in met]
    missing = [get_player(tx.db, e.player_id).herna_nick
               for e in list_entries(tx.db, t.id, active_only=True)
               if e.paid and e.player_id not in seen]
    if (rematches or missing) and not force:
        return refused("round.import_warnings", rule="e-SP 2.4", round=round_no,
                       rematches=", ".join(rematches) or "—", missing=", ".join(missing) or "—")
    profile = tx.profile(t.profile)
    numbered = [(n, a, b) for n, (a, b) in enumerate(ids, start=1)]
    return _store_pairings(tx, t, round_no, numbered, admin_id, "imported", profile,
                           unpaid="—")


def _as_stored(tx: Tx, t: Tournament, round_no: int) -> list[tuple[str, str | None]]:
    """A round's tables as herna nicks (folded), in table order."""
    def nick(player_id: int | None) -> str | None:
        return None if player_id is None else nick_key(get_player(tx.db, player_id).herna_nick)

    return [(nick(p.first_id) or "", nick(p.second_id))
            for p in sorted(pairings_of_round(tx.db, t.id, round_no), key=lambda p: p.table_no)]


async def import_pairings(app: App, slug: str, round_no: int,
                          tables: list[tuple[str, str | None]], admin_id: AdminRef, *,
                          force: bool = False) -> Reply:
    """Pairings made by another program (SWIPS, Swiss Perfect), by herna nick, the player
    who starts first, table numbers in list order; None second = a bye. Unknown, doubled or
    withdrawn/excluded players are refused; a rematch or a player left out is a warning that
    `force` overrides."""
    return await app.run(_import, slug, round_no, tables, admin_id, force)


# -- publishing -------------------------------------------


def _publish(tx: Tx, slug: str, round_no: int, admin_id: AdminRef) -> Reply:
    t = _tournament(tx, slug, admin_id)
    rnd = _round(tx, t, round_no)
    if rnd.published_at is not None:  # a repeat: the same answer, announced once
        rows, params = _published(tx, t, rnd)
        return done("round.published", data=rows, **params)
    if not pairings_of_round(tx.db, t.id, round_no):
        raise Refusal("round.not_paired", round=round_no)
    if round_no > 1 and _round(tx, t, round_no - 1).published_at is None:
        raise Refusal("round.previous_unpublished", round=round_no, previous=round_no - 1)
    by = tx.by_admin(admin_id, f"zverejnenie {round_no}. kola")
    rnd = update_round(tx.db, t.id, round_no, by, published_at=tx.now)
    if t.status in (TournamentStatus.DRAFT, TournamentStatus.CHECKIN):
        t = set_status(tx.db, t.id, TournamentStatus.RUNNING, by)
    rows, params = _published(tx, t, rnd)
    # The pairings mean nothing once their round is closed (the bot was down all round).
    tx.announce(t.id, "round.published", timely=Timely.of_round(rnd), rows=rows, **params)
    timers.schedule_round_timers(tx, t, rnd)
    return done("round.published", data=rows, **params)


def _published(tx: Tx, t: Tournament, rnd: Round
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows = keyed(table_rows(tx.db, tables_of(tx.db, t, rnd.number)), "round.published")
    params = {"tournament": t.name, "round": rnd.number, "start": rnd.starts_at,
              "limit": rnd.limit_at, "n": t.waiting_minutes,
              "tables": sum(not row["bye"] for row in rows),  # a bye is no table to play at
              "rule": "e-SP 4.3, 4.5"}
    return rows, params


async def publish_round(app: App, slug: str, round_no: int, admin_id: AdminRef) -> Reply:
    """Publish a paired round: announce the tables (who starts, herna nicks, the official
    start and the game time limit) and schedule its timers; the tournament is running."""
    return await app.run(_publish, slug, round_no, admin_id)


# -- closing a round -------------------------------------------


def _close(tx: Tx, slug: str, round_no: int, admin_id: AdminRef, force: bool) -> Reply:
    t = _tournament(tx, slug, admin_id)
    rnd = _round(tx, t, round_no)
    if rnd.published_at is None:
        raise Refusal("round.not_published", round=round_no)
    by = tx.by_admin(admin_id, f"uzavretie {round_no}. kola")
    repeat = rnd.closed_at is not None  # a repeat: the same answer, announced once
    if not repeat:
        lifecycle.refresh_round(tx, t.id, round_no, by)
    tables = tables_of(tx.db, t, round_no)
    still = open_tables(tables)
    if still and not force and not repeat:
        return refused("round.close_warnings", rule="e-SP 4.9", round=round_no,
                       count=len(still), rows=open_rows(tx, still))
    profile = tx.profile(t.profile)
    so_far = [tb for tb in tables_of(tx.db, t) if tb.pairing.round_no <= round_no]
    rows = standing_rows(tx.db, ranking(tx.db, t, profile, so_far).standings)
    params = {"tournament": t.name, "round": round_no, "open": len(still),
              "rule": profile.standings.rule}
    if not repeat:
        update_round(tx.db, t.id, round_no, by, closed_at=tx.now)
        tx.announce(t.id, "round.closed", rows=rows, **params)
    return done("round.closed", data=rows, **params)


async def close_round(app: App, slug: str, round_no: int, admin_id: AdminRef, *,
                      force: bool = False) -> Reply:
    """Close a round: refresh its results; with anything unsettled, answer with the list
    (unless `force`); else mark it closed and announce the standings after it."""
    return await app.run(_close, slug, round_no, admin_id, force)


# -- finishing the tournament -------------------------------------------


def _finish(tx: Tx, slug: str, admin_id: AdminRef, force: bool,
            seasons: Sequence[on_finish.SeasonText] = (),
            recomputed: list[on_finish.Recomputed] | None = None) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)  # a finished tournament too: a repeat answers
    profile = tx.profile(t.profile)
    by = tx.by_admin(admin_id, "koniec turnaja")
    if t.status is TournamentStatus.FINISHED:  # a repeat: the same answer, announced once
        rank = ranking(tx.db, t, profile, tables_of(tx.db, t))
        reply = _finished(tx, t, profile, rank, _screlo_changes(tx, t, profile, rank.results))
        # issue 44.2: the seasons again — moves not announced yet, the page owed and rewritten
        ladders = on_finish.recompute(tx, t, seasons)
        if recomputed is not None:
            recomputed.extend(ladders)
        return _again(reply)
    rounds = list_rounds(tx.db, t.id)
    for rnd in rounds:
        # e-SP 4.7: every round whose window is over — an earlier round's proposal applied
        # after the next round was paired left its result provisional until now
        deadline = lifecycle.dispute_deadline(tx.db, t, rnd, profile)
        if rnd.published_at is not None and deadline is not None and deadline <= tx.now:
            lifecycle.confirm_round(tx, t.id, rnd.number, by)
    tables = tables_of(tx.db, t)
    unclosed = [str(r.number) for r in rounds if r.closed_at is None]
    unconfirmed = [tb for tb in tables
                   if tb.result is None or tb.result.status is not ResultStatus.CONFIRMED]
    if (unclosed or unconfirmed) and not force:
        return refused("finish.warnings", rule="e-SP 4.7", unclosed=", ".join(unclosed) or "—",
                       count=len(unconfirmed), rows=open_rows(tx, unconfirmed))
    rank = ranking(tx.db, t, profile, tables)
    changes = _screlo_changes(tx, t, profile, rank.results)
    _rate(tx, t, changes, rank.results, by)
    set_status(tx.db, t.id, TournamentStatus.FINISHED, by)
    reply = _finished(tx, t, profile, rank, changes)
    tx.announce(t.id, "finish.done", rows=reply.data, rule=reply.rule, **reply.params)
    ladders = on_finish.recompute(tx, t, seasons)  # issue 37.3: the seasons that name it
    if recomputed is not None:
        recomputed.extend(ladders)
    return reply


def _again(reply: Reply) -> Reply:
    """A finish typed again: it says so (nothing changed, nothing announced again), with the
    final standings as the first finish gave them."""
    rows = [row if "key" in row else {**row, "key": "finish.done_row"} for row in reply.data]
    return done("finish.again", data=rows, rule=reply.rule, **reply.params)


def _finished(tx: Tx, t: Tournament, profile: Profile, rank: Any,
              changes: dict[int, EventChange]) -> Reply:
    """The final standings with each player's screlo before and after this event (its own
    change, from its seeds) and, where other changes came in since its start (another event
    finished meanwhile: issue 44.1), the registry's value after this finish."""
    rows = standing_rows(tx.db, rank.standings)
    for row, line in zip(rows, rank.standings, strict=True):
        change = changes.get(int(line.player))
        before = None if change is None else change.start.value
        after = None if change is None else change.after.value
        row["screlo_before"] = "" if before is None else screlo_shown(before)
        row["screlo_after"] = "" if after is None else screlo_shown(after)
        row["screlo_delta"] = ("" if before is None or after is None
                               else screlo_change_shown(before, after))
        now = None if change is None else rating_change_of(tx.db, int(line.player), t.id)
        row["screlo_now"] = ("" if now is None or after is None
                             or screlo_shown(now.after_value) == screlo_shown(after)
                             else screlo_shown(now.after_value))
        if row["out"]:
            row["key"] = "finish.done_out_row"
        elif not rank.results:  # finished without a single result: no qualification points
            row["key"] = "finish.done_unplayed_row"
        elif before is None:
            row["key"] = "finish.done_unrated_row"
        elif row["screlo_now"] != "":
            row["key"] = "finish.done_shared_row"
    params = {"tournament": t.name, "season": t.season, "rule": profile.qualification.rule,
              "screlo_rule": screlo_citation(profile)}
    return done("finish.done", data=rows, **params)


def screlo_citation(profile: Profile) -> str:
    """What a screlo change cites: the rules saying which games feed it (e-SP 2.4, 5), then
    the association's published method that computes it ("výpočet screla", not e-SP)."""
    s = profile.screlo
    return f"{s.scope_rule}; {s.rule}" if s.scope_rule else s.rule


@dataclass(frozen=True, slots=True)
class EventChange:
    """One player's online screlo change in one event: from the rating it rated him from
    (`start`: his entry's seeds; `seeded` False: he had none and counted from 1600) to
    `after`."""

    start: Rating
    after: Rating
    seeded: bool


def _screlo_changes(tx: Tx, t: Tournament, profile: Profile, results: list[Any]
                    ) -> dict[int, EventChange]:
    """Online screlo after the tournament (which games: e-SP 2.4, 5; how: the association's
    published "výpočet screla" method):
    every rated game against the ratings before it — the entries' seeds, taken at this
    event's start, even when another event of the player finished meanwhile (RULES.md 8:
    "before the tournament"; issue 44.1) — player -> his change, for each rating that
    changes. Pure: computing it again gives the same."""
    entries = {e.player_id: e for e in list_entries(tx.db, t.id)}
    before = {lookup.rules_id(pid): Rating(e.seed_rating, e.seed_games)
              for pid, e in entries.items() if e.seed_rating is not None}
    rated = [r for r in results if r.rated]
    changes: dict[int, EventChange] = {}
    for player, after in rate(before, rated, profile).items():
        start = before.get(player, Rating(profile.screlo.newcomer_rating, 0))
        if after != start:
            changes[int(player)] = EventChange(start, after, player in before)
    return changes


def _rate(tx: Tx, t: Tournament, changes: dict[int, EventChange],
          results: list[Any], by: Any) -> None:
    """Add each event change to the registry as it stands now (DESIGN.md 6b: the changes of
    events finished meanwhile stay), with its history row; every player who sat at a table
    has played a qualifier this season (for the decay rule), never moving his last season
    back."""
    for pid, change in changes.items():
        p = get_player(tx.db, pid)
        current = None if p.screlo is None else Rating(p.screlo, p.rated_games)
        registry = compose(current, change.start, change.after)
        apply_rating(tx.db, pid, registry.value, registry.games, by, tournament_id=t.id,
                     season=t.season,
                     event_before=(change.start.value if change.seeded else None,
                                   change.start.games),
                     event_after=(change.after.value, change.after.games))
    played = {int(p) for r in results for p in r.case.players}
    for pid in played - set(changes):
        advance_last_season(tx.db, pid, t.season, by)


async def finish_tournament(app: App, slug: str, admin_id: AdminRef, *,
                            force: bool = False) -> Reply:
    """Finish: final standings with qualification points (SP A3; withdrawn and excluded
    players get none and nobody gets their place's, e-SP 3.6), the online screlo update, and
    the announcement. Warns first (unless `force`) about unclosed rounds and results that
    are not confirmed. Then every configured season that names the tournament is recomputed,
    its change announced in the same transaction and its page rewritten (issue 37.3); typed
    again, it says so and rewrites the pages (issue 44.2). The answer names each page written."""
    seasons = await asyncio.to_thread(on_finish.read_seasons, app.season_files,
                                      app.season_html_dir)
    recomputed: list[on_finish.Recomputed] = []
    reply = await app.run(_finish, slug, admin_id, force, seasons, recomputed)
    written = await on_finish.write_pages(app, recomputed)
    # any page an earlier crash left owed
    written += await on_finish.repair_pages(app, {one.key for one in recomputed})
    return on_finish.with_pages(reply, written)
