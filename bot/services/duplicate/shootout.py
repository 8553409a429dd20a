"""003 r. 49's shoot-out, entered by the arbiter: the players still level on the tournament's
points and the sum of round percentages (r. 47–48) each get a drawn 7-letter rack and the usual
3 minutes; the higher-scoring word places higher, then the shorter time.

The shoot-out decides the tournament's order (r. 46–49 are "Výsledky turnaje"), so it is
entered once every game of the event has ended (preliminary or final results: the shoot-out
is played in the hall right after the last game, protests may still be pending) and only for a
player level with somebody (`rules.duplicate.shoot_out_groups`). The result is stored per
event and player, a correction as the next version with its reason (the first entry stays).
Once every player of his group has a result, the standings they make are announced.

The program does not judge the shoot-out's word (its rack and board are the hall's): the
arbiter's score and time are taken as entered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.services import bounds
from bot.services.app import Tx
from bot.services.duplicate.context import (
    Event,
    announce,
    event_of,
    player_by_discord,
    player_by_label,
    players_of,
)
from bot.services.duplicate.results import (
    event_standings,
    game_result,
    lines_text,
    seconds_text,
    shoot_outs_of,
    standing_lines,
)
from bot.services.replies import Refusal
from bot.store.duplicate import add_shoot_out, current_shoot_outs, list_games
from rules.duplicate import Standing, shoot_out_groups
from rules.duplicate.errors import DuplicateError
from rules.duplicate.slip import parse_slip

SCORE_LIMIT = 999  # points of one word: far above any 7-letter play, below a typing slip
WORD_LIMIT = 60
REASON_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class ShootOutEntered:
    player: str  # his name
    version: int  # 1: the first entry; more: a correction; unchanged on a repeated entry
    stored: bool  # False: the same result was already the current one (nothing written)
    score: int
    seconds: float
    word: str | None
    level: tuple[str, ...]  # the names of his group (level on r. 47–48), him included
    waiting: tuple[str, ...]  # those of them without a result yet (nothing decided before)
    standings: tuple[Standing, ...]  # the event's order after the entry
    rule: str


def enter_shoot_out(tx: Tx, slug: str, player: str | None, score: int, seconds: float, *,
                    word: str | None = None, admin: int | str = "arbiter",
                    reason: str | None = None, discord_id: int | None = None
                    ) -> ShootOutEntered:
    """Store `player`'s shoot-out result (003 r. 49) in event `slug`: the score of his word,
    the seconds he took (at most the event's time per move, "obvyklý limit"), the move as
    written ("8H SLOVO") if given. `player` as the hall commands take it (number, name, nick or
    id in the propozície), or the entrant of `discord_id` (a Discord command's member option).
    `admin`: who enters it (audited). A different result for a player already entered is a
    correction and needs `reason`; the same result again writes nothing. Refused with one
    Slovak line: not a duplicate event, a game not yet ended, a profile without a shoot-out, a
    player level with nobody, a score, time, move or reason out of bounds."""
    event = event_of(tx.db, slug)
    rule = event.profile.results.shoot_out_rule
    _check_ended(tx, event, rule)
    text = _move(event, word)
    if not 0 <= score <= SCORE_LIMIT:
        raise Refusal("duplicate.shoot_out.bad_score", value=score, limit=SCORE_LIMIT)
    limit = event.settings.move_seconds
    if not 0 < seconds <= limit:
        raise Refusal("duplicate.shoot_out.bad_seconds", value=seconds_text(seconds), limit=limit,
                      rule=rule)
    if reason is not None:
        reason = bounds.clean(reason, bounds.field_name("reason"), lines=True)
    if reason is not None and len(reason) > REASON_LIMIT:
        raise Refusal("duplicate.shoot_out.reason_long", n=len(reason), limit=REASON_LIMIT)
    who = (player_by_discord(tx.db, event, discord_id, playing=False) if discord_id is not None
           else player_by_label(tx.db, event, player or "", playing=False))
    results = [game_result(tx.db, event, g) for g in list_games(tx.db, event.id)]
    group = next((g for g in shoot_out_groups(results, event.profile) if str(who.id) in g),
                 None)
    if group is None:
        raise Refusal("duplicate.shoot_out.not_level", who=who.name, rule=rule,
                      tie_rule=f"{event.profile.results.totals_rule}, "
                               f"{event.profile.results.percent_sum_rule}")
    earlier = {s.player_id: s for s in current_shoot_outs(tx.db, event.id)}.get(who.id)
    same = earlier is not None and (earlier.score, earlier.seconds, earlier.word) == (
        score, float(seconds), text)
    if earlier is not None and not same and not (reason or "").strip():
        raise Refusal("duplicate.shoot_out.needs_reason", who=who.name, score=earlier.score,
                      seconds=seconds_text(earlier.seconds), rule=rule)
    if earlier is not None and same:
        entry = earlier
    else:
        entry = add_shoot_out(tx.db, event.id, who.id,
                              tx.by_admin(admin, (reason or "").strip() or None),
                              score=score, seconds=seconds, word=text, rule=rule)
    shots = shoot_outs_of(tx.db, event)
    names = {str(p.id): p.name for _, p in players_of(tx.db, event)}
    waiting = tuple(names[p] for p in group if p not in shots)
    order = tuple(event_standings(tx.db, event))
    if not same and not waiting:  # the group's order is decided (again): say so
        lines = standing_lines(tx.db, event, list(order))
        announce(tx, event, "duplicate.online.shoot_out_decided", lines=lines,
                 text=lines_text("standing_line", lines), rule=rule)
    return ShootOutEntered(who.name, entry.version, not same, entry.score, entry.seconds,
                           entry.word, tuple(names[p] for p in group), waiting, order, rule)


def told(entered: ShootOutEntered) -> list[tuple[str, dict[str, Any]]]:
    """What the arbiter is told (catalogue keys and parameters, for the console and the chat
    alike): the entry — new, a correction, or unchanged — then whom his group still waits for,
    or that its order is decided (the order itself is the channel's announcement)."""
    word = f", {entered.word}" if entered.word else ""
    key = "unchanged" if not entered.stored else "corrected" if entered.version > 1 \
        else "entered"
    lines = [(f"duplicate.shoot_out.{key}", {
        "version": entered.version, "name": entered.player, "score": entered.score,
        "word": word, "seconds": seconds_text(entered.seconds), "rule": entered.rule})]
    level = ", ".join(entered.level)
    if entered.waiting:
        return [*lines, ("duplicate.shoot_out.waiting",
                         {"level": level, "waiting": ", ".join(entered.waiting)})]
    return [*lines, ("duplicate.shoot_out.decided", {"level": level})]


def _check_ended(tx: Tx, event: Event, rule: str) -> None:
    """The shoot-out decides the tournament's order: every game must have ended."""
    if "shoot-out" not in event.profile.results.tiebreaks:
        raise Refusal("duplicate.shoot_out.no_shoot_out", profile=event.settings.profile)
    games = list_games(tx.db, event.id)
    running = [g.number for g in games if g.state == "running"]
    if running or len(games) < event.settings.games:
        raise Refusal("duplicate.shoot_out.not_ended", played=len(games) - len(running),
                      games=event.settings.games, rule=rule)


def _move(event: Event, word: str | None) -> str | None:
    """The move as written, normalised ("8H SLOVO"); None when not given."""
    if word is None or not word.strip():
        return None
    text = " ".join(word.split())
    if len(text) > WORD_LIMIT:
        raise Refusal("duplicate.shoot_out.word_long", n=len(text), limit=WORD_LIMIT)
    try:
        parse_slip(text, event.tiles.blank_letters, event.tiles.blank_letter_rule,
                   event.tiles.blanks)
    except DuplicateError as exc:
        raise Refusal("duplicate.shoot_out.word_unreadable", move=text,
                      reason=t(f"duplicate.input.{exc.code}", **exc.params)) from None
    return text
