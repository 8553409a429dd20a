"""Verified identities: which Discord account speaks for which registry player.

A player's `discord_id` is his link. `/registracia NICK` links the asking account only when
the registry proves it is his: the Discord id recorded for him (propozície / CSV `discord_id`:
then he is linked from the start) or the Discord name recorded for him (`discord`), compared
case-insensitively as Discord names are — the unique username ("anna.novak") or the legacy
tag ("Anna#1234"); the display name proves nothing (anyone may choose any). Otherwise the
registration becomes a link request that the head admin approves or rejects in the review
queue (e-SP 5: nothing in the rules says whose account is whose, so he decides). A player
already linked is never taken over by another account without the head admin, and an account
the head admin unlinked from a player cannot link itself to him again by name.

The head admin's acts (approve, reject, link / relink, unlink) go through the one admin
policy (`policy.require_admin`), need a reason, are audited, and tell the player by DM. A DM
about an account that is not (or no longer) the player's link names it in the message
parameter `DISCORD_ACCOUNT`: the adapter delivers it there.

A player's account is one for every event he plays (issue 44.4): relinking or unlinking a
player entered in other unfinished events needs a head admin of each of them, and every event
concerned gets the audit line and its admin channel a note. A link request is its event's
(seen and decided by that event's head admin); approving it links the account for all.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.i18n import Term
from bot.services import bounds, lookup
from bot.services.app import App, Tx
from bot.services.duplicate.context import event_of, player_by_label
from bot.services.identity import lookalike
from bot.services.policy import UNFORESEEN_RULE, Actor, AdminRef, is_admin, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.store import (
    ActorKind,
    Change,
    Player,
    Tournament,
    TournamentStatus,
    create_player,
    find_player_by_discord,
    find_player_by_nick,
    get_entry,
    get_player,
    list_audit,
    list_players,
    list_tournaments,
    players_with_discord_names,
    record,
    update_player,
)
from bot.store.duplicate import get_event
from bot.store.links import (
    APPROVED,
    PENDING,
    REJECTED,
    LinkRequest,
    add_link_request,
    asked_before,
    decide_link_request,
    find_link_request,
    get_link_request,
    list_link_requests,
    pending_for,
    reopen_link_request,
)
from bot.store.players import nick_key

#: A direct message's parameter naming the Discord account it goes to (instead of the
#: player's linked one): the account just unlinked, or a request's account.
DISCORD_ACCOUNT = "discord_account"
REGISTER_RULE = "e-SP 2.2"  # only registered players play
LINK_ACTION = "identity.link"
UNLINK_ACTION = "identity.unlink"
#: a Discord name is at most 32 characters, a legacy tag 37; anything longer is not one
MAX_NAME = 40


# -- matching the registry ------------------------------------------------------------------


def handle(name: str | None) -> str | None:
    """A Discord name as Discord compares it: "@Anna.Novak " → "anna.novak"; a migrated
    account's "name#0" is its username "name"; a legacy tag keeps its discriminator."""
    text = (name or "").strip().removeprefix("@").strip()
    if not text or len(text) > MAX_NAME:
        return None
    base, hash_, discriminator = text.rpartition("#")
    if hash_ and discriminator.isascii() and discriminator.isdecimal() and base:
        text = base if int(discriminator) == 0 else f"{base}#{discriminator}"
    # NFC: the same name with its accents typed apart (NFD, as macOS writes) is the same name;
    # NFKC is not used (issue 36.3): it would fold a look-alike — full-width "ｂｏｒｉｓ", a
    # mathematical "𝐛oris" — into the registry's "boris" and link its account silently. Such
    # a name stays another name, and the registry refuses it beside the one it imitates
    # (`name_free`, `lookalike`). lower(), not casefold(): Discord's usernames are lowercase,
    # so "Anna.Novak" in a file is "anna.novak"; but casefold() would also make "straße"
    # "strasse" — another account (issue 20.6).
    return unicodedata.normalize("NFC", text).lower()


def namesakes(tx: Tx, name: str | None, but: int | None = None) -> list[Player]:
    """Registry players (other than player `but`) whose recorded Discord name is `name`'s."""
    wanted = handle(name)
    if wanted is None:
        return []
    return [p for p in players_with_discord_names(tx.db)
            if p.id != but and handle(p.discord_name) == wanted]


def name_free(tx: Tx, player_id: int | None, name: str | None, where: str) -> None:
    """Refuse a Discord name another registry player already has: the account behind it could
    otherwise link to whichever of them it names first; and one that looks the same as another
    player's though made of other characters (Unicode TR39: `lookalike`), which people could
    not tell apart."""
    taken = namesakes(tx, name, player_id)
    if taken:
        raise Refusal("identity.registry_name_taken", where=where, name=name or "",
                      nick=shown(taken[0]), rule=UNFORESEEN_RULE)
    wanted = handle(name)
    if wanted is None:
        return
    for other in players_with_discord_names(tx.db):
        recorded = handle(other.discord_name)
        if other.id != player_id and recorded and lookalike.collides(wanted, recorded):
            raise Refusal("identity.registry_name_lookalike", where=where, name=name or "",
                          other=other.discord_name or "", nick=shown(other),
                          rule=UNFORESEEN_RULE)


def nick_free(tx: Tx, nick: str, where: str) -> None:
    """Refuse a new herna.net nick that looks the same as a registry player's though made of
    other characters (Unicode TR39: `lookalike`); the same nick is the same player (the
    store's `nick_key`). A duplicate entrant's placeholder
    (`duplicate.context.no_herna_nick`) is none."""
    if ":" in nick:
        return
    wanted = nick_key(nick)
    for other in list_players(tx.db):
        if lookalike.collides(wanted, nick_key(other.herna_nick)):
            raise Refusal("identity.registry_nick_lookalike", where=where, name=nick,
                          other=other.herna_nick, rule=UNFORESEEN_RULE)


def registry_proves(player: Player, discord_id: int, discord_name: str) -> bool:
    """The registry names this account as the player's: his Discord id, or his Discord name
    (the account's unique username, or its legacy tag "name#1234")."""
    if player.discord_id is not None:
        return player.discord_id == discord_id
    recorded = handle(player.discord_name)
    return recorded is not None and recorded == handle(discord_name)


def _unlinked_by_admin(tx: Tx, player: Player, discord_id: int) -> bool:
    subject = f"player:{player.id}"
    return any(a.subject == subject and a.data.get("discord_id") == discord_id
               for a in list_audit(tx.db, action=UNLINK_ACTION, limit=100_000))


def is_discord_id(value: int) -> bool:
    """A Discord account id: a snowflake, 17–20 digits within SQLite's integers."""
    return 10**16 <= value < 2**63


# -- what the organiser's files record (propozície, CSV) -------------------------------------


def _free_for(tx: Tx, player_id: int | None, discord_id: int, where: str) -> None:
    holder = find_player_by_discord(tx.db, discord_id)
    if holder is not None and holder.id != player_id:
        raise Refusal("identity.registry_taken", where=where, discord_id=discord_id,
                      nick=shown(holder))


def new_player(tx: Tx, by: Change, where: str, *, discord_id: int | None,
               **fields: Any) -> Player:
    """A new registry player from a file row (`where`: its line or row), with the Discord
    account the organiser recorded, if any: that account is his link from the start."""
    if discord_id is not None:
        _free_for(tx, None, discord_id, where)
    name_free(tx, None, fields.get("discord_name"), where)
    nick_free(tx, fields.get("herna_nick") or "", where)
    return create_player(tx.db, by=by, discord_id=discord_id, **fields)


def complete_registry(tx: Tx, player: Player, discord_name: str | None,
                      discord_id: int | None, by: Change, where: str) -> None:
    """A file names a Discord name / account for a player already in the registry: what the
    registry lacks is filled in; an account other than his linked one is refused (only the
    head admin relinks: `stredisko link`)."""
    changes: dict[str, Any] = {}
    if discord_name and not player.discord_name:
        name_free(tx, player.id, discord_name, where)
        changes["discord_name"] = discord_name
    if discord_id is not None and player.discord_id != discord_id:
        if player.discord_id is not None:
            raise Refusal("identity.registry_other", where=where, nick=shown(player),
                          discord_id=discord_id, rule=UNFORESEEN_RULE)
        _free_for(tx, player.id, discord_id, where)
        changes["discord_id"] = discord_id
    if changes:
        update_player(tx.db, player.id, by, **changes)


# -- /registracia ------------------------------------------------------------------------------


def _nickless(player: Player) -> bool:
    """A duplicate entrant without a herna.net nick: his registry nick is a placeholder
    (`duplicate.context.no_herna_nick`)."""
    return ":" in player.herna_nick


def shown(player: Player) -> str:
    """How messages name a player: his herna.net nick — or, without one, his name."""
    return player.name if _nickless(player) else player.herna_nick


def linked_to(player: Player, role: str = "to") -> Term:
    """What an account is (to be) linked to, as messages say it: "s prezývkou „anna77“" — or,
    for an entrant without a herna.net nick, "s hráčom „Ján Novák“" (not a nick). `role`: its
    place in the sentence (`identity.to_*`, `match_*`, `asked_*`, `taken_*`: each language's
    grammar)."""
    kind = "name" if _nickless(player) else "nick"
    return Term(f"identity.{role}_{kind}", nick=player.herna_nick, name=player.name)


def herna_of(player: Player) -> Term | str:
    """" (herna.net: anna77)" after a player's name; nothing for one without a nick."""
    return "" if _nickless(player) else Term("identity.herna_note", nick=player.herna_nick)


def entered_as(tx: Tx, t: Tournament, label: str) -> Player | None:
    """The registry player `label` names: by herna.net nick; in a duplicate event also as its
    arbiter names entrants (number, id in the propozície, name: `player_by_label`), since an
    entrant there may have no herna.net account — nor a nick to give (003 r. 38)."""
    player = find_player_by_nick(tx.db, label) if label else None
    entered = player is not None and get_entry(tx.db, t.id, player.id) is not None
    if entered or not label or get_event(tx.db, t.id) is None:
        return player  # the caller refuses one who is not entered
    try:
        return player_by_label(tx.db, event_of(tx.db, t.slug), label, playing=False)
    except Refusal as refusal:
        if refusal.reply.key == "duplicate.online.not_in_event":
            return None  # the caller's own refusal says it
        raise  # several entrants match: it names them


def _registered_player(tx: Tx, t: Tournament, nick: str) -> Player:
    text = bounds.nick(nick, bounds.field_name("herna_nick")) if nick.strip() else ""
    player = entered_as(tx, t, text)
    if player is None or get_entry(tx.db, t.id, player.id) is None:
        raise Refusal("play.register_unknown_nick", nick=text, tournament=t.name,
                      rule=REGISTER_RULE)
    return player


def register(tx: Tx, slug: str, discord_id: int, discord_name: str, herna_nick: str) -> Reply:
    """Link the asking account to the player entered under `herna_nick` when the registry
    proves it; otherwise queue (once) a request for the head admin. Run inside `App.run`."""
    t = lookup.tournament(tx, slug)
    player = _registered_player(tx, t, herna_nick)
    mine = find_player_by_discord(tx.db, discord_id)
    if mine is not None and mine.id != player.id:
        raise Refusal("play.register_other_nick", to=linked_to(mine))
    if player.discord_id == discord_id:
        return done("play.register_already", to=linked_to(player), tournament=t.name)
    if player.discord_id is not None:  # the real owner is never displaced without the admin
        raise Refusal("play.register_taken", to=linked_to(player, "taken"))
    earlier = find_link_request(tx.db, t.id, player.id, discord_id)
    if earlier is not None and earlier.status == REJECTED:
        raise Refusal("identity.request_rejected", to=linked_to(player),
                      reason=earlier.reason or "—", rule=UNFORESEEN_RULE)
    pending = done("identity.request_pending", rule=UNFORESEEN_RULE,
                   to=linked_to(player, "match"),
                   tournament=t.name)
    if earlier is not None and earlier.status == PENDING:
        return pending  # asked again: the same request, the same answer, no new ping
    name = discord_name.strip()[:MAX_NAME] or str(discord_id)
    if (not asked_before(tx.db, player.id, discord_id)
            and registry_proves(player, discord_id, name)
            and not namesakes(tx, player.discord_name, player.id)  # ambiguous: the admin says
            and not _unlinked_by_admin(tx, player, discord_id)):
        by = tx.by_player(player.id, "Discord účet podľa registra")
        _link(tx, t, player, discord_id, by, how="registry")
        _close_others(tx, player, None, by)
        return done("play.registered", name=player.name, to=linked_to(player),
                    tournament=t.name)
    # audited as the asking account: he is not (yet) the player
    by = Change.player(f"discord:{discord_id}", tx.now, "žiadosť o prepojenie Discord účtu")
    if earlier is None:
        request = add_link_request(tx.db, t.id, player.id, discord_id, name, by)
    else:  # approved once, unlinked by the admin since: he decides again
        request = reopen_link_request(tx.db, earlier.id, name, by)
    tx.to_admin(t.id, "identity.request_admin", request_id=request.id, player=player.name,
                herna=herna_of(player), account=name, discord_id=discord_id,
                recorded=player.discord_name or "—", rule=UNFORESEEN_RULE)
    return pending


# -- the head admin's acts -----------------------------------------------------------------


def _reason(reason: str | None) -> str:
    if not (reason or "").strip():
        raise Refusal("admin.reason_required", rule="e-SP 2.6")
    return bounds.reason(reason)


def concerned(tx: Tx, t: Tournament, player: Player) -> list[Tournament]:
    """The events a change of the player's Discord account concerns: `t` and every other
    unfinished event he is entered in (his account is one, shared by all of them)."""
    return [t, *(o for o in list_tournaments(tx.db)
                 if o.id != t.id and o.status is not TournamentStatus.FINISHED
                 and get_entry(tx.db, o.id, player.id) is not None)]


def require_every_admin(tx: Tx, t: Tournament, player: Player, actor: Actor) -> None:
    """Taking a player's account away (a relink, an unlink) takes his seat in every event he
    plays: only a head admin of each of them may (issue 44.4) — one event's head admin
    could otherwise hand another event's seat to an account of his choosing."""
    others = [o for o in concerned(tx, t, player)[1:] if not is_admin(o, actor)]
    if others:
        raise Refusal("identity.other_events", player=player.name, herna=herna_of(player),
                      events=", ".join(o.slug for o in others), rule=UNFORESEEN_RULE)


def _told_everywhere(tx: Tx, t: Tournament, player: Player, by: Change, action: str,
                     data: dict[str, Any], old: int | None, new: int | None) -> None:
    """The link's change in every event it concerns: the audit line in each (`show audit`
    of any of them shows it) and, for a head admin's act concerning several, a note in each
    one's admin channel (one event's: his own act, answered to him; the registry's proof
    linking a player's own account needs nobody's attention)."""
    events = concerned(tx, t, player)
    for event in events:
        record(tx.db, by, action, tournament_id=event.id, subject=f"player:{player.id}",
               data=data if event.id == t.id else {**data, "via": t.slug})
        if len(events) > 1 and by.actor is not ActorKind.PLAYER:  # a head admin's act
            tx.to_admin(event.id, "identity.changed_note", source=t.slug, player=player.name,
                        herna=herna_of(player), old="—" if old is None else str(old),
                        new="—" if new is None else str(new), reason=by.reason or "—",
                        rule=UNFORESEEN_RULE)


def _link(tx: Tx, t: Tournament, player: Player, discord_id: int, by: Change, how: str,
          was: int | None = None) -> None:
    update_player(tx.db, player.id, by, discord_id=discord_id)
    data: dict[str, Any] = {"discord_id": discord_id, "how": how}
    if was is not None:
        data["was"] = was
    _told_everywhere(tx, t, player, by, LINK_ACTION, data, was, discord_id)


def _unlink(tx: Tx, t: Tournament, player: Player, by: Change, *, told: bool = True) -> None:
    """`told`: the change is told to the events (a relink tells it once, as a link)."""
    old = player.discord_id
    update_player(tx.db, player.id, by, discord_id=None)
    if told:
        _told_everywhere(tx, t, player, by, UNLINK_ACTION, {"discord_id": old}, old, None)
    else:
        record(tx.db, by, UNLINK_ACTION, tournament_id=t.id, subject=f"player:{player.id}",
               data={"discord_id": old})
    tx.direct(player.id, "identity.unlinked_dm", event=t.id, tournament=t.name,
              to=linked_to(player), reason=by.reason, rule=UNFORESEEN_RULE,
              **{DISCORD_ACCOUNT: old})


def _close_others(tx: Tx, player: Player, keep: int | None, by: Change) -> None:
    """Once the player is linked, his pending requests in every event are decided: the linked
    account's approved (his link is one for all events), the other accounts' moot."""
    linked = get_player(tx.db, player.id).discord_id
    for other in pending_for(tx.db, player.id):
        if other.id != keep:
            decide_link_request(tx.db, other.id,
                                APPROVED if other.discord_id == linked else REJECTED, by)


def _request(tx: Tx, t: Tournament, request_id: int) -> LinkRequest:
    try:
        request = get_link_request(tx.db, request_id)
    except LookupError:
        request = None
    if request is None or request.tournament_id != t.id:
        raise Refusal("identity.unknown_request", request_id=request_id, tournament=t.name)
    if request.status != PENDING:
        raise Refusal("identity.request_decided", request_id=request_id,
                      status=request.status, rule=UNFORESEEN_RULE)
    return request


def _free_account(tx: Tx, player: Player, discord_id: int) -> None:
    holder = find_player_by_discord(tx.db, discord_id)
    if holder is not None and holder.id != player.id:
        raise Refusal("identity.account_taken", discord_id=discord_id, nick=shown(holder),
                      rule=UNFORESEEN_RULE)


def _approve(tx: Tx, slug: str, admin: AdminRef, request_id: int, reason: str | None) -> Reply:
    t = lookup.tournament(tx, slug)
    actor = require_admin(t, admin, UNFORESEEN_RULE)
    request = _request(tx, t, request_id)
    player = get_player(tx.db, request.player_id)
    if player.discord_id is not None:
        raise Refusal("identity.player_linked", nick=shown(player), rule=UNFORESEEN_RULE)
    _free_account(tx, player, request.discord_id)
    why = (bounds.reason(reason) if (reason or "").strip()
           else f"žiadosť schválená hlavným administrátorom ({UNFORESEEN_RULE})")
    by = tx.by_admin(actor, why)
    decide_link_request(tx.db, request.id, APPROVED, by)
    _link(tx, t, player, request.discord_id, by, how=f"request:{request.id}")
    _close_others(tx, player, request.id, by)
    tx.direct(player.id, "identity.linked_dm", event=t.id, tournament=t.name,
              to=linked_to(player),
              reason=why, rule=UNFORESEEN_RULE)
    return done("identity.approved", rule=UNFORESEEN_RULE, player=player.name,
                herna=herna_of(player), account=request.discord_name)


async def approve_request(app: App, slug: str, admin: AdminRef, request_id: int,
                          reason: str | None = None) -> Reply:
    """Approve a link request: the account becomes the player's (told by DM)."""
    return await app.run(_approve, slug, admin, request_id, reason)


def _reject(tx: Tx, slug: str, admin: AdminRef, request_id: int, reason: str) -> Reply:
    t = lookup.tournament(tx, slug)
    actor = require_admin(t, admin, UNFORESEEN_RULE)
    request = _request(tx, t, request_id)
    why = _reason(reason)
    decide_link_request(tx.db, request.id, REJECTED, tx.by_admin(actor, why))
    player = get_player(tx.db, request.player_id)
    tx.direct(player.id, "identity.rejected_dm", event=t.id, tournament=t.name,
              to=linked_to(player),
              reason=why, rule=UNFORESEEN_RULE, **{DISCORD_ACCOUNT: request.discord_id})
    return done("identity.rejected", rule=UNFORESEEN_RULE, to=linked_to(player, "asked"),
                account=request.discord_name)


async def reject_request(app: App, slug: str, admin: AdminRef, request_id: int,
                         reason: str) -> Reply:
    """Reject a link request with a reason (the account is told by DM); asking again is
    answered with the rejection, never a new request."""
    return await app.run(_reject, slug, admin, request_id, reason)


def _entered(tx: Tx, t: Tournament, nick: str) -> Player:
    player = entered_as(tx, t, nick.strip())
    if player is None or get_entry(tx.db, t.id, player.id) is None:
        raise Refusal("identity.unknown_player", nick=nick.strip(), tournament=t.name)
    return player


def _link_by_admin(tx: Tx, slug: str, admin: AdminRef, nick: str, discord_id: int,
                   reason: str) -> Reply:
    t = lookup.tournament(tx, slug)
    actor = require_admin(t, admin, UNFORESEEN_RULE)
    why = _reason(reason)
    player = _entered(tx, t, nick)
    if player.discord_id == discord_id:
        return done("identity.already_linked", nick=shown(player), discord_id=discord_id)
    _free_account(tx, player, discord_id)
    was = player.discord_id
    by = tx.by_admin(actor, why)
    if was is not None:  # a relink takes his seat from the account holding it, in every event
        require_every_admin(tx, t, player, actor)
        _unlink(tx, t, player, by, told=False)  # the old account is told it is no longer his
    _link(tx, t, player, discord_id, by, how="admin", was=was)
    _close_others(tx, player, None, by)
    tx.direct(player.id, "identity.linked_dm", event=t.id, tournament=t.name,
              to=linked_to(player), reason=why, rule=UNFORESEEN_RULE)
    return done("identity.linked", rule=UNFORESEEN_RULE, player=player.name,
                herna=herna_of(player), discord_id=discord_id)


async def link(app: App, slug: str, admin: AdminRef, nick: str, discord_id: int,
               reason: str) -> Reply:
    """Link (or relink) the player entered under `nick` to the Discord account `discord_id`;
    a previous account is unlinked first. Both accounts are told by DM."""
    return await app.run(_link_by_admin, slug, admin, nick, discord_id, reason)


def _unlink_by_admin(tx: Tx, slug: str, admin: AdminRef, nick: str, reason: str) -> Reply:
    t = lookup.tournament(tx, slug)
    actor = require_admin(t, admin, UNFORESEEN_RULE)
    why = _reason(reason)
    player = _entered(tx, t, nick)
    if player.discord_id is None:
        raise Refusal("identity.not_linked", nick=shown(player))
    require_every_admin(tx, t, player, actor)
    old = player.discord_id
    _unlink(tx, t, player, tx.by_admin(actor, why))
    return done("identity.unlinked", rule=UNFORESEEN_RULE, player=player.name,
                herna=herna_of(player), discord_id=old)


async def unlink(app: App, slug: str, admin: AdminRef, nick: str, reason: str) -> Reply:
    """Unlink the player's Discord account (told by DM); that account cannot link itself to
    him again by name, only the head admin can."""
    return await app.run(_unlink_by_admin, slug, admin, nick, reason)


# -- the review queue ------------------------------------------------------------------------


def link_requests_view(tx: Tx, t: Tournament) -> list[dict[str, Any]]:
    """The pending link requests of the tournament, for the review queue."""
    out = []
    for r in list_link_requests(tx.db, t.id):
        player = get_player(tx.db, r.player_id)
        out.append({"request_id": r.id, "player": player.name, "nick": shown(player),
                    "herna": herna_of(player),
                    "recorded": player.discord_name, "discord_id": r.discord_id,
                    "account": r.discord_name, "requested_at": r.requested_at})
    return out


def _requests(tx: Tx, slug: str, admin: AdminRef) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin, UNFORESEEN_RULE)
    rows = link_requests_view(tx, t)
    for row in rows:
        row["key"] = "identity.request_row"
    return done("identity.requests", data=rows, tournament=t.name, n=len(rows))


async def link_requests(app: App, slug: str, admin: AdminRef) -> Reply:
    """The pending link requests (for the CLI: `stredisko link-requests SLUG`)."""
    return await app.run(_requests, slug, admin)
