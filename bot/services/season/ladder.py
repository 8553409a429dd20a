"""A season's ladder (issue 14) for every adapter: the file read and checked
(`bot.services.season.file`), the ladder computed by the pure `rules.season`, and what people
read of it — the text of the CLI and the chat, the JSON document — in the catalogue's words
(`season.*`): every reason, tie criterion, group and note is a code the catalogue says.

The chat's two uses: a player's own row with the cut line (`/rebricek`), and after a
tournament is finished the ladder's rows of its players (`/admin ukonci`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.i18n import SLOVAK, CatalogueError, t
from bot.os_errors import os_reason
from bot.services.app import App
from bot.services.replies import Refusal, Reply, refused
from bot.services.season.file import ResolvedSeason, parse_season, resolve_season
from bot.services.tournament.csv_text import decode_utf8
from bot.services.tournament.propozicie import SetupError
from bot.store import (
    Store,
    find_player_by_discord,
    get_player,
    get_tournament_by_slug,
    list_entries,
)
from rules.season import (
    Counted,
    Ladder,
    LadderRow,
    NotCounted,
    Season,
    SeasonError,
    Tie,
    season_ladder,
    season_profile,
)


class SeasonFileError(ValueError):
    """The season file cannot be used: `FILE:LINE: reason` (in Slovak)."""

    def __init__(self, file: str, line: int, reason: str) -> None:
        super().__init__(f"{file}:{line}: {reason}")
        self.file, self.line, self.reason = file, line, reason


@dataclass(frozen=True, slots=True)
class SeasonView:
    """A computed ladder with what its renderers need: names and the events."""

    season: Season
    ladder: Ladder
    names: dict[str, str]
    tournaments: frozenset[str] = frozenset()  # slugs of the events read from the database
    pending: tuple[str, ...] = ()  # events named that have not finished: not counted yet
    declared: frozenset[str] = frozenset()  # [[player]] ids: the file's own, no herna nick

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    def shown(self, player: str) -> str:
        """A player as a reader knows him: the name with the herna nick; a live-only player
        ([[player]]) by his name alone — his id is the file's, not a nick anyone knows."""
        name = self.name(player)
        return name if player in self.declared or name == player else f"{name} ({player})"

    @property
    def last_qualified(self) -> LadderRow | None:
        """The row above the cut line: the last one who qualifies by his points (the
        reigning champion qualifies directly, wherever his points put him)."""
        return next((r for r in reversed(self.ladder.rows)
                     if r.qualified and r.group != "champion"), None)


#: a season file is a few kB (a few hundred events); 1 MB is refused before it is read whole
MAX_FILE_BYTES = 1_000_000


def read_text(path: str | Path) -> str:
    """The file as text, or `SeasonFileError` (unreadable, too large, not UTF-8). At most
    `MAX_FILE_BYTES` + 1 bytes are read, whatever the file (/dev/zero, 50 MB of events)."""
    try:
        with Path(path).open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise SeasonFileError(str(path), 1, f"súbor je väčší ako {MAX_FILE_BYTES:,} bajtov "
                                  "(súbor sezóny má bežne pár kB); nečítam ho".replace(",", " "))
        return decode_utf8(data, str(path))
    except OSError as exc:
        raise SeasonFileError(str(path), 1, os_reason(exc)) from None
    except Refusal as refusal:
        raise SeasonFileError(str(path), 1, t(refusal.reply.key, SLOVAK,
                                              **refusal.reply.params)) from None


def compute(path: str | Path, resolved: ResolvedSeason, line: int = 1) -> SeasonView:
    """The ladder; what only the rules can refuse (e.g. two ČAS correspondence events) is a
    file error on `line` (the [season] header), in the catalogue's words."""
    try:
        ladder = season_ladder(resolved.season)
    except SeasonError as exc:
        raise SeasonFileError(str(path), line, error_text(exc)) from None
    return SeasonView(resolved.season, ladder, resolved.names, resolved.tournaments,
                      resolved.pending, resolved.declared)


def error_text(exc: SeasonError, locale: Any = SLOVAK) -> str:
    try:
        return t(f"season.error.{exc.code}", locale, **exc.params)
    except (CatalogueError, KeyError, IndexError):  # a code or a parameter we do not know
        return str(exc)


async def load(path: str | Path, store: Store | None) -> SeasonView:
    """Read, check (against the store's registry and finished tournaments; None: no
    database) and compute; `SeasonFileError` names the file's line."""
    try:
        spec = parse_season(read_text(path))
        resolved = (await store.read(resolve_season, spec) if store is not None
                    else resolve_season(None, spec))
    except SetupError as exc:
        raise SeasonFileError(str(path), exc.line, exc.reason) from None
    return compute(path, resolved, spec.line)


# -- words --------------------------------------------------------------------------------


def code_text(kind: str, code: str, fallback: str | None = None, locale: Any = SLOVAK) -> str:
    """The catalogue's words for a rules code (`season.reason.not-best`, …); a code the
    catalogue lacks shows as itself rather than failing in front of a reader (a test checks
    that every code rules.season lists has its words)."""
    try:
        return t(f"season.{kind}.{code}", locale)
    except CatalogueError:
        return fallback or code


def slot_text(slot: str, locale: Any = SLOVAK) -> str:
    """Which slot a counted result fills: a kind of event (live-qt …) or a ČAS ladder."""
    return code_text("kind", slot, code_text("group", slot, locale=locale), locale)


def by_place(row: LadderRow) -> int | None:
    """The place a row of a ladder that is one event's order ranks by (it has no points)."""
    places = [c.place for c in row.counted if c.place is not None]
    return places[0] if places else None


def counted_text(c: Counted, locale: Any = SLOVAK) -> str:
    if c.place is not None:
        return t("season.counted_place", locale, event=c.event, place=c.place,
                 slot=slot_text(c.slot, locale))
    key = "season.counted_organizer" if c.organizer else "season.counted_item"
    return t(key, locale, event=c.event, points=c.points, coefficient=c.coefficient,
             value=c.value, slot=slot_text(c.slot, locale))


def not_counted_text(n: NotCounted, locale: Any = SLOVAK) -> str:
    return t("season.not_counted_item", locale, event=n.event, points=n.points,
             reason=code_text("reason", n.reason, locale=locale), rule=n.rule)


def row_lines(view: SeasonView, row: LadderRow, locale: Any = SLOVAK) -> list[str]:
    """One row: rank, name, total and whether he qualifies; then what counted and what did
    not, and why."""
    group = f" ({code_text('group', row.group, locale=locale)})" if row.group else ""
    key = "season.row_qualified" if row.qualified else "season.row"
    place = by_place(row)
    if place is not None:
        key += "_by_place"
    lines = [t(key, locale, rank=row.rank, name=view.name(row.player), player=row.player,
               total=row.total, group=group, place=place)]
    if row.counted:
        lines.append(t("season.counted", locale,
                       items="; ".join(counted_text(c, locale) for c in row.counted)))
    if row.not_counted:
        lines.append(t("season.not_counted", locale,
                       items="; ".join(not_counted_text(n, locale) for n in row.not_counted)))
    return lines


def cut_line(view: SeasonView, locale: Any = SLOVAK) -> str | None:
    """The qualification line; None for a ladder nobody qualifies from (the Slovak Cup)."""
    last = view.last_qualified
    if last is None and view.ladder.cut == 0:
        return None
    if last is None:
        return t("season.cut_nobody", locale)
    key = "season.cut" if by_place(last) is None else "season.cut_by_place"  # no points there
    return t(key, locale, rank=last.rank, total=last.total,
             qualified=sum(r.qualified for r in view.ladder.rows))


def tie_line(view: SeasonView, tie: Tie, locale: Any = SLOVAK) -> str:
    names = ", ".join(view.name(p) for p in tie.players)
    criterion = (t("season.lot_drawn", locale) if tie.criterion == "lot" and tie.decided
                 else code_text("criterion", tie.criterion, locale=locale))
    if not tie.at_cut:
        return t("season.tie", locale, players=names, rule=tie.rule, criterion=criterion)
    line = code_text("group", tie.line, locale=locale) if tie.line else "—"
    return t("season.tie_at_cut", locale, players=names, rule=tie.rule, criterion=criterion,
             line=line)


def title(view: SeasonView, locale: Any = SLOVAK) -> str:
    competition = code_text("competition", view.ladder.competition, locale=locale)
    return t("season.title", locale, season=view.ladder.season, rule=view.ladder.rule,
             competition=competition, events=len(view.season.events),
             players=len(view.ladder.rows), cut=view.ladder.cut)


def pending_lines(view: SeasonView, locale: Any = SLOVAK) -> list[str]:
    """The events named that have not finished: the ladder does not count them yet."""
    if not view.pending:
        return []
    return [t("season.pending", locale, events=", ".join(view.pending))]


def ladder_lines(view: SeasonView, locale: Any = SLOVAK) -> list[str]:
    """The whole ladder as the CLI prints it: the title, the events still pending, every row
    (with the cut line after the last who qualifies), the ties with the criterion that
    decided each, the notes; then the ladders it is made of (ČAS: internet, correspondence,
    online, live), each alike."""
    lines = [title(view, locale), *pending_lines(view, locale), ""]
    lines += _ladder_body(view, view.ladder, locale)
    for name, part in parts_of(view.ladder):
        lines += ["", t("season.part", locale, part=code_text("group", name, locale=locale),
                        rule=part.rule, qualified=part.cut)]
        lines += _ladder_body(dataclasses.replace(view, ladder=part), part, locale)
    return lines


def parts_of(ladder: Ladder) -> list[tuple[str, Ladder]]:
    """The ladders a ladder is made of (ČAS), each with its name from the profile."""
    profile = season_profile(ladder.competition)
    names = [spec.name for spec in profile.cas.ladders] if profile.cas else []
    return list(zip(names, ladder.parts, strict=False))


def _ladder_body(view: SeasonView, ladder: Ladder, locale: Any) -> list[str]:
    lines: list[str] = []
    last, cut = view.last_qualified, cut_line(view, locale)
    for row in ladder.rows:
        lines += row_lines(view, row, locale)
        if row is last:
            lines.append(f"── {cut} ──")
    if last is None and cut is not None:
        lines.append(f"── {cut} ──")
    if ladder.ties:
        lines += ["", t("season.ties", locale)]
        lines += [f"- {tie_line(view, tie, locale)}" for tie in ladder.ties]
    lines += [code_text("note", note, locale=locale) for note in ladder.notes]
    return lines


# -- the JSON document --------------------------------------------------------------------


def document(view: SeasonView) -> dict[str, Any]:
    """One JSON-ready document: `ladder` is the list of rows, each with `player` (the
    registry's id, the herna nick), `rank`, `total`, `qualified` and `counted`; `parts` the
    ladders it is made of (ČAS), each a document alike without the events."""
    return {
        "season": view.ladder.season, "competition": view.ladder.competition,
        "events": [{"name": e.name, "kind": e.kind, "date": e.date.isoformat(),
                    "field": e.size, "places": list(e.places), "out": sorted(e.out),
                    "organizers": sorted(e.organizers)} for e in view.season.events],
        "pending": list(view.pending),
        **_ladder_document(view, view.ladder.competition),
    }


def _ladder_document(view: SeasonView, name: str) -> dict[str, Any]:
    ladder = view.ladder
    return {
        "rule": ladder.rule, "name": name,
        "cut": {"qualified": ladder.cut, "last_qualified_rank":
                view.last_qualified.rank if view.last_qualified else None},
        "ladder": [_row_document(view, r) for r in ladder.rows],
        "ties": [{"players": list(tie.players), "criterion": tie.criterion,
                  "criterion_text": code_text("criterion", tie.criterion),
                  "rule": tie.rule, "at_cut": tie.at_cut, "decided": tie.decided,
                  "line": tie.line} for tie in ladder.ties],
        "notes": [{"code": n, "text": code_text("note", n)} for n in ladder.notes],
        "parts": [_ladder_document(dataclasses.replace(view, ladder=part), part_name)
                  for part_name, part in parts_of(ladder)],
    }


def _row_document(view: SeasonView, row: LadderRow) -> dict[str, Any]:
    return {
        "player": row.player, "name": view.name(row.player), "rank": row.rank,
        "total": row.total, "qualified": row.qualified, "group": row.group,
        "counted": [{"event": c.event, "points": c.points, "coefficient": c.coefficient,
                     "value": c.value, "slot": c.slot, "rule": c.rule,
                     "organizer": c.organizer, "place": c.place} for c in row.counted],
        "not_counted": [{"event": n.event, "points": n.points, "reason": n.reason,
                         "reason_text": code_text("reason", n.reason), "rule": n.rule}
                        for n in row.not_counted],
    }


# -- the chat ------------------------------------------------------------------------------


async def _load_for_chat(app: App, path: str | Path | None) -> SeasonView | Reply:
    if not path:
        return refused("season.no_file")
    try:
        return await load(path, app.store)
    except SeasonFileError as exc:
        return refused("season.file_invalid", file=exc.file, line=exc.line, reason=exc.reason)


def _nick_of_discord(db: Database, discord_id: int) -> str | None:
    player = find_player_by_discord(db, discord_id)
    return player.herna_nick if player is not None else None


def _nicks_of_tournament(db: Database, slug: str) -> set[str]:
    t_ = get_tournament_by_slug(db, slug)
    return {get_player(db, e.player_id).herna_nick for e in list_entries(db, t_.id)}


def _paths(paths: str | Path | Sequence[str | Path] | None) -> list[str | Path]:
    """The configured season files: one path, several, or none ("" / None)."""
    if not paths:
        return []
    if isinstance(paths, str | Path):
        return [paths]
    return [p for p in paths if p]


async def my_row(app: App, paths: str | Path | Sequence[str | Path] | None, discord_id: int,
                 locale: Any = SLOVAK) -> list[str] | Reply:
    """`/rebricek`: the player's own row of each configured season's ladder and its cut line
    (text lines; issue 44.8: every season file counts), or a refusal saying why not. With
    several files, a season he is not in or a file that cannot be used is one line of its
    own among the others."""
    files = _paths(paths)
    if not files:
        return refused("season.no_file")
    nick = await app.store.read(_nick_of_discord, discord_id)
    blocks: list[list[str] | Reply] = []
    for path in files:
        view = await _load_for_chat(app, path)
        if isinstance(view, Reply):
            blocks.append(view)
            continue
        row = view.ladder.row_of(nick) if nick is not None else None
        if row is None:
            blocks.append(refused("season.not_in_ladder", season=view.ladder.season))
            continue
        cut = cut_line(view, locale)
        blocks.append([title(view, locale), *pending_lines(view, locale),
                       *row_lines(view, row, locale), *([cut] if cut else [])])
    return _joined(blocks, locale)


def _joined(blocks: list[list[str] | Reply], locale: Any) -> list[str] | Reply:
    """One season: its answer as it is; several: each block, a refusal as its line."""
    if len(blocks) == 1:
        return blocks[0]
    lines: list[str] = []
    for block in blocks:
        if lines:
            lines.append("")
        lines += ([t(block.key, locale, **block.params)] if isinstance(block, Reply)
                  else block)
    return lines


async def after_finish(app: App, paths: str | Path | Sequence[str | Path] | None, slug: str,
                       locale: Any = SLOVAK) -> list[str] | Reply:
    """After `/admin ukonci`: the ladder of every configured season naming the tournament as
    it stands now — the finished tournament's players' rows (rank, total, qualified), the
    cut line and the events still pending; when no season file lists the tournament, the
    first file's ladder with a note saying so."""
    files = _paths(paths)
    if not files:
        return refused("season.no_file")
    nicks = await app.store.read(_nicks_of_tournament, slug)
    views: list[SeasonView | Reply] = [await _load_for_chat(app, path) for path in files]
    naming = [v for v in views if isinstance(v, Reply) or slug in v.tournaments]
    blocks: list[list[str] | Reply] = []
    for view in naming or views[:1]:
        if isinstance(view, Reply):
            blocks.append(view)
            continue
        lines = [title(view, locale), *pending_lines(view, locale)]
        if slug not in view.tournaments:
            lines.append(t("season.tournament_not_in_file", locale, slug=slug))
        lines += [row_lines(view, r, locale)[0] for r in view.ladder.rows if r.player in nicks]
        cut = cut_line(view, locale)
        blocks.append(lines + ([cut] if cut else []))
    return _joined(blocks, locale)
