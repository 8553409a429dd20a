"""The season ladder when a tournament ends (issues 37.3, 44.2): every configured season file
whose events name the finished tournament (`tournament = "SLUG"`) is recomputed — from the
events it names that have finished, the rest pending — its page rewritten
(`<html_dir>/<file stem>/index.html`) and the change in the qualifying places announced — who
moved into them, who dropped out — in the season's channel (`[season] channel_id` of the file,
else the tournament's own), citing the season profile's rule.

The moves are named against the ladder as it was last **announced** (the store's
`season_ladders`, per season file), so the first of two qualifiers finishing names its movers
and the second names the moves since — whichever finishes first. A season never announced
before is compared with itself without the finished tournament's events.

The files are read before the finish's transaction; the ladders are computed, the
announcement queued, the new ladder recorded as announced and the page recorded as owed
inside it (one commit: the tournament finished, the message in the outbox and the debt, or
none of them); the pages are written after the commit and the debt cleared. A crash between
the two leaves the debt: the next start (`stredisko run`), finish or `stredisko season --html`
writes the page (`repair_pages`). A file that cannot be used never blocks the finish: the head
admin is told in one line what is wrong with which file.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.i18n import SLOVAK
from bot.os_errors import os_reason
from bot.services.app import App, Tx
from bot.services.replies import Reply
from bot.services.season.file import SeasonSpec, parse_season, resolve_season
from bot.services.season.ladder import (
    SeasonFileError,
    SeasonView,
    compute,
    cut_line,
    load,
    read_text,
)
from bot.services.tournament.propozicie import SetupError
from bot.store import Tournament, get_tournament
from bot.store.seasons import (
    owe_page,
    owed_pages,
    page_paid,
    record_announced,
    season_ladder,
)

log = logging.getLogger(__name__)

#: a message's parameter: the Discord channel the adapter posts it to instead of the
#: tournament's own (a season's channel)
SEASON_CHANNEL = "season_channel_id"


def season_channel(params: Mapping[str, Any]) -> int | None:
    """The season's own channel a message goes to (`SEASON_CHANNEL`), or None: the event's."""
    channel = params.get(SEASON_CHANNEL)
    return channel if isinstance(channel, int) and not isinstance(channel, bool) and channel \
        else None


@dataclass(frozen=True, slots=True)
class SeasonText:
    """One configured season file as read before the transaction: its text, or why not;
    `key` the file as the store knows it (its resolved path), `page_dir` the folder its page
    goes to ("" when no page is configured)."""

    path: str
    text: str = ""
    error: SeasonFileError | None = None
    key: str = ""
    page_dir: str = ""


@dataclass(frozen=True, slots=True)
class Recomputed:
    """A season the finished tournament belongs to, computed with its result; the page owed
    since `owed_at` (None: no page configured)."""

    path: str
    view: SeasonView
    tournament: Tournament
    key: str = ""
    page_dir: str = ""
    owed_at: datetime | None = None


def season_key(path: str | Path) -> str:
    """The store's name for a season file: its resolved path, the same whether the bot or the
    CLI names it, relatively or not."""
    return str(Path(path).resolve())


def page_dir(html_dir: str, path: str | Path) -> str:
    return str(Path(html_dir) / Path(path).stem) if html_dir else ""


def read_seasons(paths: Iterable[str], html_dir: str = "") -> list[SeasonText]:
    texts = []
    for path in paths:
        where = {"key": season_key(path), "page_dir": page_dir(html_dir, path)}
        try:
            texts.append(SeasonText(path, read_text(path), **where))
        except SeasonFileError as exc:
            texts.append(SeasonText(path, error=exc, **where))
    return texts


def _view(db: Database, path: str, spec: SeasonSpec) -> SeasonView:
    try:
        return compute(path, resolve_season(db, spec), spec.line)
    except SetupError as exc:
        raise SeasonFileError(path, exc.line, exc.reason) from None


def _qualified(view: SeasonView) -> list[str]:
    return [row.player for row in view.ladder.rows if row.qualified]


def _one(tx: Tx, t: Tournament, season: SeasonText) -> Recomputed | None:
    """The season recomputed, its change announced against the last announcement and its
    page owed; None when it does not name `t`."""
    if season.error is not None:
        raise season.error
    try:
        spec = parse_season(season.text)
    except SetupError as exc:
        raise SeasonFileError(season.path, exc.line, exc.reason) from None
    own = [e for e in spec.events if e.tournament is not None and e.tournament.id == t.slug]
    if not own:
        return None
    after = _view(tx.db, season.path, spec)
    key = season.key or season_key(season.path)
    last = season_ladder(tx.db, key)
    if last is not None and last.qualified is not None:
        before = list(last.qualified)
    else:  # never announced: as the ladder stood without this tournament's result
        others = tuple(e for e in spec.events if e not in own)
        before = (_qualified(_view(tx.db, season.path, dataclasses.replace(spec, events=others)))
                  if others else [])
    now = _qualified(after)
    moved_in = [p for p in now if p not in before]
    moved_out = [p for p in before if p not in now]
    if moved_in or moved_out:
        where = {SEASON_CHANNEL: spec.channel_id} if spec.channel_id else {}
        which = "" if moved_in and moved_out else ("_in" if moved_in else "_out")
        tx.announce(t.id, f"season.ladder_moved{which}", season=after.ladder.season,
                    tournament=t.name, rule=after.ladder.rule,
                    moved_in=_names(after, moved_in), moved_out=_names(after, moved_out),
                    entered=len(moved_in), left=len(moved_out),
                    cut=_sentence(cut_line(after) or ""), **where)
    record_announced(tx.db, key, after.ladder.season, now, t.id, tx.now)
    if season.page_dir:
        owe_page(tx.db, key, after.ladder.season, season.page_dir, t.id, tx.now)
    return Recomputed(season.path, after, t, key, season.page_dir,
                      tx.now if season.page_dir else None)


def _sentence(text: str) -> str:
    """A line that follows a full stop starts a sentence."""
    return text[:1].upper() + text[1:]


def _names(view: SeasonView, players: Sequence[str]) -> str:
    return ", ".join(view.shown(p) for p in players) or "—"


def recompute(tx: Tx, t: Tournament, seasons: Sequence[SeasonText]) -> list[Recomputed]:
    """Inside the finish's transaction, after the tournament is marked finished (or found
    finished already: a repeat names only moves not announced yet, and owes the page)."""
    done = []
    for season in seasons:
        try:
            one = _one(tx, t, season)
        except SeasonFileError as exc:
            log.warning("season file not recomputed after %s: %s", t.slug, exc)
            tx.to_admin(t.id, "season.not_recomputed", tournament=t.name, file=exc.file,
                        line=exc.line, reason=exc.reason)
            continue
        if one is not None:
            done.append(one)
    return done


def _page_not_written(tx: Tx, t: Tournament, file: str, reason: str) -> None:
    tx.to_admin(t.id, "season.page_not_written", tournament=t.name, file=file, reason=reason)


def _paid(tx: Tx, key: str, folder: str, owed_at: datetime | None) -> None:
    page_paid(tx.db, key, folder, owed_at)


@dataclass(frozen=True, slots=True)
class Written:
    """A season page written: which season, where, and whether it was owed from before (a
    finish or start that did not get to write it)."""

    season: str
    file: str
    repaired: bool = False


async def _write(app: App, view: SeasonView, folder: str, key: str, owed_at: datetime | None,
                 tournament: Tournament | None, *, repaired: bool = False) -> Written | None:
    """Write one page (beside it, then renamed over it) and clear its debt; a folder that
    cannot be written is told to the head admin and the debt stays."""
    from bot.publish.season_page import write_season_page  # the page imports the ladder's words

    try:
        path = write_season_page(view, folder)
    except OSError as exc:
        log.warning("season page %s not written: %s", folder, exc)
        if tournament is not None:
            await app.run(_page_not_written, tournament, str(Path(folder) / "index.html"),
                          os_reason(exc, SLOVAK))
        return None
    await app.run(_paid, key, folder, owed_at)
    return Written(view.ladder.season, str(path), repaired)


async def write_pages(app: App, recomputed: Sequence[Recomputed]) -> list[Written]:
    """After the commit: rewrite each season's page and clear its debt."""
    written = []
    for one in recomputed:
        if not one.page_dir:
            continue
        page = await _write(app, one.view, one.page_dir, one.key, one.owed_at, one.tournament)
        if page is not None:
            written.append(page)
    return written


async def repair_pages(app: App, skip: Collection[str] = ()) -> list[Written]:
    """Every page still owed (a crash between a finish's commit and its page, a folder that
    could not be written): computed from the season file and the store as they are now and
    written where it was owed. A file that cannot be read leaves the debt, told to the head
    admin of the tournament that owed it. `skip`: files just tried (told once, not twice)."""
    written = []
    for owed, owed_at in await app.store.read(owed_pages):
        if owed.file in skip:
            continue
        assert owed.page_dir is not None
        tournament = (await app.store.read(get_tournament, owed.page_owed_by)
                      if owed.page_owed_by is not None else None)
        try:
            view = await load(owed.file, app.store)
        except SeasonFileError as exc:
            log.warning("season page %s still owed: %s", owed.page_dir, exc)
            if tournament is not None:
                await app.run(_page_not_written, tournament,
                              str(Path(owed.page_dir) / "index.html"), str(exc))
            continue
        page = await _write(app, view, owed.page_dir, owed.file, owed_at, tournament,
                            repaired=True)
        if page is not None:
            written.append(page)
            log.info("season page %s was owed: written now", page.file)
    return written


def with_pages(reply: Reply, written: Sequence[Written]) -> Reply:
    """The finish's answer with a line for each season page it wrote (issue 44 wording)."""
    if not reply.ok or not written:
        return reply
    rows: list[Any] = list(reply.data) if isinstance(reply.data, list) else []
    rows += [{"key": "season.page_repaired" if w.repaired else "season.page_rewritten",
              "season": w.season, "file": w.file} for w in written]
    return dataclasses.replace(reply, data=rows)
