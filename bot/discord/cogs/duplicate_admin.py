"""What the head referee's duplicate commands run (issue 24's gap, closed on 2026-11-26): the
hall's console commands in chat, as `/admin` is for a classic event.

- `/duplikat koniec` — `final_results`: `stredisko duplicate final` (003 r. 25–29);
- `/duplikat poradie` — `standings_now`: `stredisko duplicate standings` (003 r. 46–48);
- `/duplikat start` — `start_next_game`: `stredisko duplicate start` (003 r. 11–13);
- `/duplikat rozhodnutie` and the buttons under a protest — `decide`: `… decide` (003 r. 29);
- `/duplikat rozstrel` — `shoot_out`: `… shootout` (003 r. 49);
- `/admin poradovnik` — `waiting_protests` and `protest_messages`: each undecided protest as
  it was filed, with its two buttons (`protests.pending_protests`).

Each runs the same use case the CLI calls, after the admin policy in the same transaction
(`require_admin`: the role got the head referee this far, the tournament's admin list decides),
and returns the private answer as a `Reply`; a refusal is the service's one Slovak line. In a
classic event the services refuse ("… nie je duplikátny"). Nothing here decides anything.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from typing import Any

from sqlite_utils import Database

from bot.discord.cogs.duplicate_protests import protest_buttons
from bot.discord.duplicate_text import discord_time
from bot.discord.i18n import CatalogueError, t
from bot.discord.markdown import Markup
from bot.discord.render import Outgoing, list_messages, render_message, render_reply, reply_text
from bot.services import lookup
from bot.services.app import Tx
from bot.services.duplicate.context import event_of
from bot.services.duplicate.game import GameEnded, RoundOpened, start_game
from bot.services.duplicate.protests import (
    PendingProtest,
    decide_protest,
    decided_reply,
    pending_protests,
)
from bot.services.duplicate.results import event_standings, finalize_game, standing_lines
from bot.services.duplicate.shootout import enter_shoot_out, told
from bot.services.notifier import Message
from bot.services.policy import CONTROL_RULE, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.store import NotFoundError
from bot.store.duplicate import get_event, list_games
from bot.store.tournaments import get_tournament_by_slug

FINAL_RULE = "003 r. 25–29"
STANDINGS_RULE = "003 r. 46–48"
START_RULE = "003 r. 11–13"
PROTEST_RULE = "003 r. 27–29"
SHOOT_OUT_RULE = "003 r. 49"
#: whom a refusal by the admin policy cites: the head referee's own acts (003 r. 29: he decides
#: the protests and announces the final results), the control centre's acts otherwise
HEAD_REFEREE_RULE = "003 r. 29"
#: the message that filed a protest; the review queue shows a waiting one the same way, so
#: its buttons (`render.MESSAGE_VIEWS`) come with it
FILED = "duplicate.online.protest_filed"


def _head_admin(tx: Tx, slug: str, admin: int, rule: str) -> None:
    require_admin(lookup.tournament(tx, slug), admin, rule)


def final_results(tx: Tx, slug: str, admin: int, locale: Any) -> Reply:
    """The latest game's final results and its seed, once its protests are decided. A game
    already final answers its reveal again (the service: nothing changed, nothing posted), so
    a repeated command answers as the first did."""
    _head_admin(tx, slug, admin, HEAD_REFEREE_RULE)
    revealed = finalize_game(tx, slug, admin=admin)  # audited as his
    return done("chat.duplicate.final_done", game=revealed.game, seed=revealed.seed,
                commitment=revealed.commitment, rule=FINAL_RULE)


def standings_now(tx: Tx, slug: str, admin: int, locale: Any) -> Reply:
    """The event's order over every game so far (closed rounds, corrections included), each
    place with what decided it and its rule (`data`: the rows as shown)."""
    _head_admin(tx, slug, admin, CONTROL_RULE)
    event = event_of(tx.db, slug)
    games = list_games(tx.db, event.id)
    rows = standing_lines(tx.db, event, event_standings(tx.db, event))
    if not rows:
        return done("chat.duplicate.standings_none", rule=STANDINGS_RULE)
    lines = [_standing_row(row, first=n == 0, locale=locale) for n, row in enumerate(rows)]
    return done("chat.duplicate.standings_now", data=lines, games=len(games),
                final=sum(g.state == "final" for g in games), rule=STANDINGS_RULE)


def _standing_row(row: dict[str, Any], *, first: bool, locale: Any) -> str:
    if first:
        return t("chat.duplicate.standings_first", locale, **row)
    try:
        decided = t(f"duplicate.results.{row['decided_by']}", locale)
    except CatalogueError:  # a criterion named later still shows
        decided = str(row["decided_by"])
    return t("chat.duplicate.standings_row", locale, **{**row, "decided": decided})


def start_next_game(tx: Tx, slug: str, admin: int, locale: Any) -> Reply:
    """The event's next game now (its start time passed without it, or the next of several):
    the service refuses while a game runs or when every game has started."""
    _head_admin(tx, slug, admin, CONTROL_RULE)
    started = start_game(tx, slug, admin=str(admin))
    opened = started.opened
    if isinstance(opened, RoundOpened):
        then = t("chat.duplicate.started_round", locale, round=opened.round,
                 deadline_ts=discord_time(opened.deadline))
    elif isinstance(opened, GameEnded):  # the very first draw ended it (004 §5B)
        then = t("duplicate.online.ended", locale, game=opened.game, round=opened.after_round,
                 why=t(f"duplicate.online.why_{opened.reason}", locale), rule=opened.rule)
    else:  # a hall event: the arbiter opens each round
        then = t("chat.duplicate.started_hall", locale)
    return done("chat.duplicate.started", game=started.game, commitment=started.commitment,
                then=Markup(then), rule=START_RULE)


def shoot_out(tx: Tx, slug: str, admin: int, locale: Any, *, player: str, score: int,
              seconds: float, move: str | None, reason: str | None) -> Reply:
    """A player's shoot-out result (003 r. 49), named as the hall names him or by @mention;
    the answer says what was stored and whom his group still waits for (the order itself is
    the channel's announcement once it is decided)."""
    _head_admin(tx, slug, admin, SHOOT_OUT_RULE)
    mentioned = re.fullmatch(r"<@!?(\d+)>", player.strip())
    try:
        entered = enter_shoot_out(tx, slug, None if mentioned else player, score, seconds,
                                  word=move, admin=admin, reason=reason,
                                  discord_id=int(mentioned[1]) if mentioned else None)
    except Refusal as refusal:  # the console's "--reason" is the chat's `dovod` option
        if refusal.reply.key != "duplicate.shoot_out.needs_reason":
            raise
        raise Refusal("chat.duplicate.shoot_out_needs_reason", refusal.reply.rule,
                      **refusal.reply.params) from None
    (key, params), *rest = told(entered)
    return done(key, data=[t(k, locale, **p) for k, p in rest], **params)


def decide(tx: Tx, slug: str, admin: int, _locale: Any, *, protest: int, upheld: bool,
           reason: str) -> Reply:
    """The head referee's decision on a protest, final (003 r. 29); upheld, a correction of
    the scores, never of the board (004 §5D)."""
    _head_admin(tx, slug, admin, PROTEST_RULE)
    decided = decide_protest(tx, slug, protest, upheld, reason, admin)
    return decided_reply(protest, upheld, decided.changed)


def answer(reply: Reply, locale: Any) -> list[Outgoing]:
    """The private answer: the reply's text, and the lines it carries (the standings) as a
    list under it."""
    if reply.ok and isinstance(reply.data, list):
        return list_messages(None, reply.data, content=reply_text(reply, locale))
    return render_reply(reply, locale)


# -- /admin poradovnik ----------------------------------------------------------------------


def waiting_protests(db: Database, slug: str) -> list[PendingProtest] | None:
    """The duplicate event's undecided protests, oldest first; None for a classic event (its
    queue stays as it was)."""
    try:
        tournament = get_tournament_by_slug(db, slug)
    except NotFoundError:  # the queue's own refusal has said so
        return None
    return None if get_event(db, tournament.id) is None else pending_protests(db, slug)


def protest_messages(protest: PendingProtest, locale: Any) -> list[Outgoing]:
    """A waiting protest as the head referee's channel got it when it was filed, with the
    same uphold / reject buttons under it."""
    params = {"id": protest.id, "game": protest.game, "round": protest.round,
              "word": protest.word, "claim": t(f"duplicate.online.claim_{protest.claim}", locale),
              "player": protest.player, "reason": protest.reason, "rule": PROTEST_RULE}
    *first, last = render_message(Message(FILED, params), locale)
    return [*first, replace(last, view=partial(protest_buttons, params, locale))]


def queue_header(count: int, locale: Any) -> list[Outgoing]:
    return render_reply(done("chat.duplicate.queue", n=count, rule=PROTEST_RULE), locale)
