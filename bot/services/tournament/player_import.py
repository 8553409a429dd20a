"""Signing up the players of a CSV file (name, herna.net nick, Discord name or account, paid,
member, online screlo, rated games): a bad row refuses the whole file; players already entered
are skipped, players already in the registry keep their rating (`registry_player` finds them,
for propozície too).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.services import bounds, lookup
from bot.services.app import App, Tx
from bot.services.duplicate.context import no_herna_nick
from bot.services.identity import accounts as identity
from bot.services.policy import CONTROL_RULE, require_admin
from bot.services.replies import Refusal, Reply, done
from bot.services.tournament.csv_rows import (
    PLAYER_COLUMNS,
    file_rows,
    number_cell,
    read_csv,
    text_cell,
)
from bot.services.tournament.propozicie import DUPLICATE, PlayerSpec, SetupError
from bot.store import (
    DuplicateError,
    NotFoundError,
    TournamentStatus,
    add_entry,
    create_player,
    find_player_by_discord,
    find_player_by_nick,
    get_entry,
    get_tournament_by_slug,
    list_entries,
)

_YES = {"1", "ano", "áno", "a", "yes", "y", "true", "x"}
_NO = {"0", "nie", "n", "no", "false", ""}


def _flag(n: int, value: str, column: str, default: bool) -> bool:
    v = value.strip().lower()
    if v == "":
        return default
    if v in _YES:
        return True
    if v in _NO:
        return False
    raise SetupError(n, f"stĺpec {column}: „{value}“ nie je áno/nie")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    row: int
    name: str
    nick: str
    discord: str | None
    paid: bool
    member: bool
    screlo: float | None
    games: int
    discord_id: int | None = None


def _discord_id(n: int, value: str) -> int | None:
    """A Discord account id (`identity.is_discord_id`), or nothing."""
    text = value.strip()
    if not text:
        return None
    if not (text.isdecimal() and identity.is_discord_id(int(text))):
        raise SetupError(n, f"stĺpec discord_id: „{value}“ nie je číslo Discord účtu")
    return int(text)


def parse_players_csv(text: str, *, nick_required: bool = True) -> list[PlayerRow]:
    """`nick_required=False`: a duplicate event's file, whose players need no herna.net nick."""
    players: list[PlayerRow] = []
    nicks: set[str] = set()
    for n, row in read_csv(text, PLAYER_COLUMNS):
        name, nick = (text_cell(n, row, "name", "meno"),
                      text_cell(n, row, "nick", "herna", bounds.nick))
        discord = text_cell(n, row, "discord", "discord", bounds.discord_name)
        if not name or (nick_required and not nick):
            raise SetupError(n, "chýba meno alebo prezývka z herna.net")
        if nick and nick.casefold() in nicks:
            raise SetupError(n, f"prezývka „{nick}“ je v súbore dvakrát")
        nicks.add(nick.casefold())
        games = number_cell(n, row.get("games", ""), "games", "partie")
        players.append(PlayerRow(
            n, name, nick, discord or None,
            _flag(n, row.get("paid", ""), "zaplatil", True),
            _flag(n, row.get("member", ""), "člen", False),
            number_cell(n, row.get("screlo", ""), "screlo", "screlo"),
            int(games or 0), _discord_id(n, row.get("discord_id", ""))))
    if not players:  # "0 hráčov" is no import: an empty or header-only file is a mistake
        raise SetupError(1, "súbor neobsahuje ani jedného hráča (je prázdny alebo má len "
                            "hlavičku)")
    return players


def _import_players(tx: Tx, slug: str, rows: list[PlayerRow], admin_id: str,
                    source: str) -> Reply:
    t = lookup.tournament(tx, slug)
    require_admin(t, admin_id, CONTROL_RULE)
    if t.status is TournamentStatus.FINISHED:
        raise Refusal("setup.finished", tournament=t.name)
    by = tx.by_admin(admin_id, "import hráčov")
    added, created, skipped = 0, 0, []
    for row in rows:
        # without a nick (a duplicate event) the player is his name in this event
        spec = PlayerSpec(row.name, row.name, row.nick, discord_id=row.discord_id)
        player = registry_player(tx, spec, t.slug) if not row.nick else find_player_by_nick(
            tx.db, row.nick)
        if player is None:
            identity.name_free(tx, None, row.discord, f"{source}, riadok {row.row}")
            identity.nick_free(tx, row.nick, f"{source}, riadok {row.row}")
            try:
                player = create_player(tx.db, name=row.name, by=by,
                                       herna_nick=row.nick or no_herna_nick(t.slug, spec.file_id),
                                       discord_name=row.discord, sss_member=row.member,
                                       screlo=row.screlo, rated_games=row.games,
                                       discord_id=row.discord_id)
            except (DuplicateError, ValueError) as exc:
                raise Refusal("setup.csv_invalid", file=source, row=row.row,
                              reason=str(exc)) from None
            created += 1
        else:
            identity.complete_registry(tx, player, row.discord, row.discord_id, by,
                                       f"{source}, riadok {row.row}")
        if get_entry(tx.db, t.id, player.id) is not None:
            skipped.append(player.herna_nick)
            continue
        add_entry(tx.db, t.id, player.id, by, paid=row.paid)
        added += 1
    unpaid = [e for e in list_entries(tx.db, t.id, active_only=True) if not e.paid]
    warning = [{"key": "setup.unpaid_warning", "count": len(unpaid), "slug": t.slug,
                "rule": "e-SP 2.2"}] if unpaid else []
    return done("setup.players_imported", tournament=t.name, added=added, created=created,
                skipped=", ".join(skipped) or "—", data=warning)


async def import_players_csv(app: App, slug: str, path: str | Path, admin_id: str) -> Reply:
    """Register the players of a CSV file (name, herna nick, Discord name, paid, member,
    online screlo, rated games); a bad row refuses the whole file. Players already entered
    are skipped; players already in the registry keep their rating."""
    duplicate = await app.store.read(_is_duplicate, slug)
    rows = file_rows(path, lambda text: parse_players_csv(text, nick_required=not duplicate))
    if isinstance(rows, Reply):
        return rows
    return await app.run(_import_players, slug, rows, admin_id, str(path))


def _is_duplicate(db: Database, slug: str) -> bool:
    """Whether `slug` is a duplicate event (its players need no herna.net nick)."""
    try:
        return get_tournament_by_slug(db, slug).settings.get("format") == DUPLICATE
    except NotFoundError:
        return False


def registry_player(tx: Tx, spec: PlayerSpec, slug: str) -> Any:
    """The registry's player for a [[player]]: by herna nick, or — without one (a duplicate
    event) — by his Discord account, or by the placeholder nick of an earlier import."""
    if spec.herna:
        return find_player_by_nick(tx.db, spec.herna)
    if spec.discord_id is not None:
        found = find_player_by_discord(tx.db, spec.discord_id)
        if found is not None:
            return found
    return find_player_by_nick(tx.db, no_herna_nick(slug, spec.file_id))
