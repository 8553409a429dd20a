"""What a tournament looks like now, as plain data: pairings, results, standings, the report.

The reading side of the rounds: it turns stored pairings and results into `rules` types
(`rules_results`), computes standings with `rules.standings`, and hands the adapters rows of
plain dicts. A reply or message that carries a list puts it in `data` / `params["rows"]`;
each row is rendered with the catalogue key `<key>_row` (see `bot/console.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from bot.publish import Player as ReportPlayer
from bot.publish import ResultStatus as ReportStatus
from bot.publish import ScreloChange, TableResult, TournamentReport, criteria_for
from bot.services import lookup
from bot.services.app import App, Tx
from bot.services.replies import Refusal, Reply, done
from bot.services.results.evidence_map import case_from_dict
from bot.services.tournament.event_format import round_robin as event_round_robin
from bot.store import (
    Entry,
    NotFoundError,
    Player,
    RatingChange,
    StoredResult,
    TablePairing,
    Tournament,
    TournamentStatus,
    get_player,
    get_round,
    list_entries,
    list_results,
    list_rounds,
    pairings_of_round,
    rating_change_of,
)
from rules import Case, End, Profile, Rating, Result, Standing, standings
from rules.evidence import EvidenceError
from rules.scoring import END_NAMES_SK

#: Ends at which no player made a move; used only for results stored without their Case.
_NOBODY_MOVED = frozenset({End.NO_SHOW, End.BOTH_NO_SHOW, End.BYE})


@dataclass(frozen=True, slots=True)
class Table:
    """One stored table of a round with its current result (None = nothing recorded yet)."""

    pairing: TablePairing
    result: StoredResult | None

    @property
    def scored(self) -> bool:
        return self.result is not None and self.result.end_kind is not None


def tables_of(db: Database, t: Tournament, round_no: int | None = None) -> list[Table]:
    """Every table of the tournament (or of one round) in round and table order."""
    numbers = [round_no] if round_no is not None else [r.number for r in list_rounds(db, t.id)]
    by_pairing = {r.pairing_id: r for r in list_results(db, t.id, round_no=round_no)}
    return [
        Table(p, by_pairing.get(p.id))
        for n in numbers
        for p in pairings_of_round(db, t.id, n)
    ]


def to_result(pairing: TablePairing, stored: StoredResult) -> Result | None:
    """A stored result as `rules` scores it; None while it has no outcome (pending)."""
    if stored.end_kind is None or stored.first_points is None or stored.second_points is None:
        return None
    data = stored.verdict.get("case")
    case: Case | None = None
    if isinstance(data, dict):
        try:
            case = case_from_dict({**data, "round": data.get("round") or pairing.round_no})
        except EvidenceError:
            case = None
    if case is None:
        # Written without its Case (an older or hand-made row): rebuild it from the columns.
        first = lookup.rules_id(pairing.first_id)
        second = None if pairing.second_id is None else lookup.rules_id(pairing.second_id)
        end = End(stored.end_kind)
        players = (first,) if second is None else (first, second)
        case = Case(end, first, second, stored.first_score or 0, stored.second_score or 0,
                    moved=frozenset() if end in _NOBODY_MOVED else frozenset(players),
                    round=pairing.round_no)
    points = (stored.first_points, stored.second_points)
    scores = (stored.first_score or 0, stored.second_score or 0)
    if case.first != lookup.rules_id(pairing.first_id):
        # stored columns follow the pairing's seats; the case may name herna.net's starter
        points, scores = points[::-1], scores[::-1]
    return Result(
        case=case,
        first_points=points[0],
        second_points=points[1],
        first_score=scores[0],
        second_score=scores[1],
        forfeited=frozenset(str(p) for p in stored.forfeited),
        rated=stored.rated,
        rule=stored.rule or "",
    )


def rules_results(tables: list[Table]) -> list[Result]:
    """The scored results among `tables` (pending ones are left out)."""
    found = []
    for table in tables:
        if table.result is not None and (result := to_result(table.pairing, table.result)):
            found.append(result)
    return found


def seed_rating(entry: Entry, profile: Profile) -> float:
    """e-SP 2.4: seeded by online screlo; a newcomer by the profile's newcomer rating."""
    return profile.pairing.newcomer_rating if entry.seed_rating is None else entry.seed_rating


def seed_order(entries: list[Entry], profile: Profile) -> list[Entry]:
    """Highest seed first; equal ratings in registration order."""
    return sorted(entries, key=lambda e: (-seed_rating(e, profile), e.registration_no))


@dataclass(frozen=True, slots=True)
class Ranking:
    """Standings of a tournament with what they were computed from."""

    standings: list[Standing]
    out: dict[str, str]
    round_robin: bool
    results: list[Result]


def ranking(db: Database, t: Tournament, profile: Profile,
            tables: list[Table] | None = None) -> Ranking:
    """Standings after every scored result so far (e-SP 2.4), withdrawn and excluded players
    ranked by their games with no qualification points (e-SP 3.6). Only players who sat at a
    table are ranked; before any pairing, every active entry is listed."""
    tables = tables_of(db, t) if tables is None else tables
    entries = list_entries(db, t.id)
    seated = {pid for tb in tables for pid in (tb.pairing.first_id, tb.pairing.second_id)
              if pid is not None}
    ranked = [e for e in entries if e.player_id in seated] if seated else [
        e for e in entries if e.out is None]
    players = [lookup.rules_id(e.player_id) for e in seed_order(ranked, profile)]
    out = {lookup.rules_id(e.player_id): e.out for e in ranked if e.out}
    results = rules_results(tables)
    round_robin = event_round_robin(t, len(players), profile)
    lines = standings(players, results, profile, out=out, round_robin=round_robin)
    return Ranking(lines, out, round_robin, results)


# -- rows for the adapters -------------------------------------------


def _people(db: Database, ids: set[int]) -> dict[int, Player]:
    return {pid: get_player(db, pid) for pid in ids}


def standing_rows(db: Database, lines: list[Standing]) -> list[dict[str, Any]]:
    people = _people(db, {int(s.player) for s in lines})
    return [
        {
            "rank": s.rank, "name": people[int(s.player)].name,
            "nick": people[int(s.player)].herna_nick, "points": s.points, "wins": s.wins,
            "median_buchholz": s.median_buchholz, "buchholz": s.buchholz, "score": s.score,
            "spread": s.spread, "games": s.games, "qp": s.qualification_points,
            "out": s.out or "",
        }
        for s in lines
    ]


def table_rows(db: Database, tables: list[Table]) -> list[dict[str, Any]]:
    """One row per table: who starts first, herna nicks, and the result if there is one."""
    ids = {pid for tb in tables for pid in (tb.pairing.first_id, tb.pairing.second_id)
           if pid is not None}
    people = _people(db, ids)
    rows = []
    for tb in tables:
        p, r = tb.pairing, tb.result
        first = people[p.first_id]
        second = None if p.second_id is None else people[p.second_id]
        rows.append({
            "round": p.round_no, "table": p.table_no,
            "first": first.name, "first_nick": first.herna_nick,
            "second": second.name if second else "—",
            "second_nick": second.herna_nick if second else "—",
            "bye": second is None,
            "status": str(r.status) if r else "pending",
            "end": (r.end_kind if r and r.end_kind else ""),
            "how": END_NAMES_SK[End(r.end_kind)] if r and r.end_kind else "",
            "first_points": r.first_points if r and r.first_points is not None else "",
            "second_points": r.second_points if r and r.second_points is not None else "",
            "first_score": r.first_score if r and r.first_score is not None else "",
            "second_score": r.second_score if r and r.second_score is not None else "",
            "rule": (r.rule or "") if r else "",
            # the verdict's explanation (ends with its rule), e.g. why a result awaits a ruling
            "text": str(r.verdict.get("text", "")) if r else "",
        })
    return rows


def keyed(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """Rows rendered with `<key>_row`, a bye with `<key>_bye_row` (it has no opponent to name),
    whatever the reply's own key (a late pairing's answer is another text over the same rows)."""
    for row in rows:
        row["key"] = f"{key}_bye_row" if row["bye"] else f"{key}_row"
    return rows


def result_row_key(row: dict[str, Any]) -> str:
    """The results list's template for a row: by status, a bye by whether it is scored (a bye
    has no opponent and no score to show against one)."""
    if row["bye"]:
        return "view.result_bye_row" if row["end"] else "view.result_bye_pending_row"
    return f"view.result_{row['status']}_row"


# -- use cases -------------------------------------------


def _round_or_refuse(tx: Tx, t: Tournament, round_no: int) -> None:
    try:
        get_round(tx.db, t.id, round_no)
    except NotFoundError:
        raise Refusal("round.unknown", round=round_no, tournament=t.name) from None


def _shown_round(tx: Tx, t: Tournament, round_no: int | None) -> int:
    """The round asked for, or without one the current round: the last published one, else
    the last paired one (the head admin checks a pairing before publishing it)."""
    if round_no is not None:
        return round_no
    current = lookup.current_round(tx, t)
    if current is not None:
        return current.number
    paired = [r.number for r in list_rounds(tx.db, t.id)
              if pairings_of_round(tx.db, t.id, r.number)]
    if not paired:
        raise Refusal("view.no_round_yet", tournament=t.name)
    return paired[-1]


def _standings(tx: Tx, slug: str) -> Reply:
    t = lookup.tournament(tx, slug)
    profile = tx.profile(t.profile)
    rank = ranking(tx.db, t, profile)
    rule = criteria_for(profile, round_robin=rank.round_robin)[1]
    rows = standing_rows(tx.db, rank.standings)
    # named per row: the final standings share the running ones' rows; before the first
    # result nobody has earned qualification points yet (SP A3), so none are shown
    row_key = "view.standings_row" if rank.results else "view.standings_unplayed_row"
    for row in rows:
        row["key"] = "view.standings_out_row" if row["out"] else row_key
    key = "view.final_standings" if t.status is TournamentStatus.FINISHED else "view.standings"
    return done(key, rule=rule, data=rows, tournament=t.name)


def _pairings(tx: Tx, slug: str, round_no: int | None, published_only: bool) -> Reply:
    t = lookup.tournament(tx, slug)
    round_no = _shown_round(tx, t, round_no)
    _round_or_refuse(tx, t, round_no)
    rnd = get_round(tx.db, t.id, round_no)
    if published_only and rnd.published_at is None:
        # players learn a pairing when the control centre publishes it (e-SP 2.6), not
        # while the head admin is still checking it
        raise Refusal("round.not_published", round=round_no)
    tables = tables_of(tx.db, t, round_no)
    if not tables:
        raise Refusal("view.not_paired", round=round_no)
    return done("view.pairings", rule="e-SP 4.5", data=keyed(table_rows(tx.db, tables),
                                                             "view.pairings"),
                tournament=t.name, round=round_no, start=rnd.starts_at, limit=rnd.limit_at)


def _results(tx: Tx, slug: str, round_no: int | None) -> Reply:
    t = lookup.tournament(tx, slug)
    round_no = _shown_round(tx, t, round_no)
    _round_or_refuse(tx, t, round_no)
    tables = tables_of(tx.db, t, round_no)
    if not tables:
        raise Refusal("view.not_paired", round=round_no)
    rows = table_rows(tx.db, tables)
    for row in rows:
        row["key"] = result_row_key(row)
    open_ = sum(1 for row in rows if row["status"] != "confirmed")
    return done("view.results", data=rows, tournament=t.name, round=round_no, open=open_)


async def standings_view(app: App, slug: str) -> Reply:
    return await app.run(_standings, slug)


async def pairings_view(app: App, slug: str, round_no: int | None = None, *,
                        published_only: bool = False) -> Reply:
    """Round `round_no`, or the current one (see `_shown_round`); for a player
    (`published_only`) only a round the control centre has published."""
    return await app.run(_pairings, slug, round_no, published_only)


async def results_view(app: App, slug: str, round_no: int | None = None) -> Reply:
    """Round `round_no`, or the current one (see `_shown_round`)."""
    return await app.run(_results, slug, round_no)


def build_report(tx: Tx, t: Tournament) -> TournamentReport:
    """The results page's data: every scored table, standings, screlo changes, exclusions."""
    profile = tx.profile(t.profile)
    tables = tables_of(tx.db, t)
    rank = ranking(tx.db, t, profile, tables)
    ids = {int(s.player) for s in rank.standings}
    ids |= {pid for tb in tables for pid in (tb.pairing.first_id, tb.pairing.second_id)
            if pid is not None}
    people = _people(tx.db, ids)
    players = {lookup.rules_id(pid): ReportPlayer(lookup.rules_id(pid), p.name, p.herna_nick)
               for pid, p in people.items()}
    rounds: dict[int, list[TableResult]] = {}
    for tb in tables:
        if tb.result is not None and (result := to_result(tb.pairing, tb.result)):
            rounds.setdefault(tb.pairing.round_no, []).append(
                TableResult(tb.pairing.table_no, result, ReportStatus(str(tb.result.status))))
    screlo = {}
    for pid in ids:
        if (change := rating_change_of(tx.db, pid, t.id)) is not None:
            screlo[lookup.rules_id(pid)] = event_change(change, profile)
    criteria, rule = criteria_for(profile, round_robin=rank.round_robin)
    seeds = {lookup.rules_id(e.player_id): seed_rating(e, profile)
             for e in list_entries(tx.db, t.id) if e.player_id in ids}
    return TournamentReport(
        name=t.name, profile_title=profile.title, generated_at=tx.now, players=players,
        rounds=rounds, standings=rank.standings, criteria=criteria, standings_rule=rule,
        screlo=screlo, excluded=rank.out,
        round_starts={r.number: r.starts_at for r in list_rounds(tx.db, t.id)}, seeds=seeds,
    )


def event_change(change: RatingChange, profile: Profile) -> ScreloChange:
    """A tournament's history row as the results page shows it: the event's own change (from
    its seeds; issue 44.1), and the registry after its finish where that differs."""
    seeded = change.event_before_value
    before = Rating(profile.screlo.newcomer_rating if seeded is None else seeded,
                    change.event_before_games or 0)
    after = Rating(change.after_value if change.event_after_value is None
                   else change.event_after_value,
                   change.after_games if change.event_after_games is None
                   else change.event_after_games)
    registry = Rating(change.after_value, change.after_games)
    return ScreloChange(before, after, None if registry == after else registry)


def _report(tx: Tx, slug: str) -> TournamentReport:
    return build_report(tx, lookup.tournament(tx, slug))


async def report(app: App, slug: str) -> TournamentReport | Reply:
    """The `bot.publish.TournamentReport` of a tournament (a refusal Reply if unknown)."""
    return await app.run(_report, slug)
