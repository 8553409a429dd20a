"""The season ladder when a tournament ends (issue 37.3): every configured season file whose
events name the finished tournament (`tournament = "SLUG"`) is recomputed, its page rewritten
(`<html_dir>/<file stem>/index.html`) and the change in the qualifying places announced — who
moved into them, who dropped out — in the season's channel (`[season] channel_id` of the file,
else the tournament's own), citing the season profile's rule.

The files are read before the finish's transaction; the ladders are computed and the
announcement queued inside it (one commit: the tournament finished and the message in the
outbox, or neither); the pages are written after the commit. A file that cannot be used never
blocks the finish: the head admin is told in one line what is wrong with which file.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from bot.i18n import SLOVAK
from bot.os_errors import os_reason
from bot.services.app import App, Tx
from bot.services.season.file import SeasonSpec, parse_season, resolve_season
from bot.services.season.ladder import SeasonFileError, SeasonView, compute, cut_line, read_text
from bot.services.tournament.setup import SetupError
from bot.store import Tournament

log = logging.getLogger(__name__)

#: a message's parameter: the Discord channel the adapter posts it to instead of the
#: tournament's own (a season's channel)
SEASON_CHANNEL = "season_channel_id"


@dataclass(frozen=True, slots=True)
class SeasonText:
    """One configured season file as read before the transaction: its text, or why not."""

    path: str
    text: str = ""
    error: SeasonFileError | None = None


@dataclass(frozen=True, slots=True)
class Recomputed:
    """A season the finished tournament belongs to, computed with its result."""

    path: str
    view: SeasonView
    tournament: Tournament


def read_seasons(paths: Iterable[str]) -> list[SeasonText]:
    texts = []
    for path in paths:
        try:
            texts.append(SeasonText(path, read_text(path)))
        except SeasonFileError as exc:
            texts.append(SeasonText(path, error=exc))
    return texts


def _view(db: Database, path: str, spec: SeasonSpec) -> SeasonView:
    try:
        return compute(path, resolve_season(db, spec), spec.line)
    except SetupError as exc:
        raise SeasonFileError(path, exc.line, exc.reason) from None


def _qualified(view: SeasonView) -> list[str]:
    return [row.player for row in view.ladder.rows if row.qualified]


def _one(tx: Tx, t: Tournament, season: SeasonText) -> Recomputed | None:
    """The season recomputed and its change announced; None when it does not name `t`."""
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
    others = tuple(e for e in spec.events if e not in own)
    # as the ladder stood without this tournament's result; no other event: nobody qualified
    before = (_qualified(_view(tx.db, season.path, dataclasses.replace(spec, events=others)))
              if others else [])
    now = _qualified(after)
    moved_in = [p for p in now if p not in before]
    moved_out = [p for p in before if p not in now]
    if moved_in or moved_out:
        where = {SEASON_CHANNEL: spec.channel_id} if spec.channel_id else {}
        tx.announce(t.id, "season.ladder_moved", season=after.ladder.season,
                    tournament=t.name, rule=after.ladder.rule,
                    moved_in=_names(after, moved_in), moved_out=_names(after, moved_out),
                    cut=cut_line(after) or "", **where)
    return Recomputed(season.path, after, t)


def _names(view: SeasonView, players: Sequence[str]) -> str:
    return ", ".join(f"{view.name(p)} ({p})" for p in players) or "—"


def recompute(tx: Tx, t: Tournament, seasons: Sequence[SeasonText]) -> list[Recomputed]:
    """Inside the finish's transaction, after the tournament is marked finished."""
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


async def write_pages(app: App, recomputed: Sequence[Recomputed]) -> None:
    """After the commit: rewrite each season's page (written beside it, then renamed over
    it); a folder that cannot be written is told to the head admin."""
    if not app.season_html_dir:
        return
    from bot.publish.season_page import write_season_page  # the page imports the ladder's words

    for one in recomputed:
        folder = Path(app.season_html_dir) / Path(one.path).stem
        try:
            write_season_page(one.view, folder)
        except OSError as exc:
            await app.run(_page_not_written, one.tournament, str(folder / "index.html"),
                          os_reason(exc, SLOVAK))
