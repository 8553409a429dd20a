"""Creating a tournament: from a propozície file (`create_from_file`) or checked propozície
(`create`) — the tournament, its players (found in the registry, else new) and their entries in
one transaction, refused whole if its short name is taken; a duplicate event's lexicon is read
first.

Files are read and fully checked BEFORE anything is written: a bad file is refused with the
line and the reason, and the database is left as it was.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.os_errors import os_reason
from bot.services.app import App, Tx
from bot.services.duplicate.context import no_herna_nick
from bot.services.duplicate.lexicons import LoadedLexicon
from bot.services.duplicate.setup import create_event, load_lexicon
from bot.services.identity import accounts as identity
from bot.services.replies import Refusal, Reply, done
from bot.services.tournament.csv_text import decode_utf8, read_bytes
from bot.services.tournament.events import check_channel_free
from bot.services.tournament.player_import import registry_player
from bot.services.tournament.propozicie import Propozicie, SetupError, cap_line, parse_propozicie
from bot.store import NotFoundError, add_entry, create_tournament, get_tournament_by_slug


def _read_text(path: str | Path) -> str:
    """A TOML file: UTF-8 (with or without BOM) as TOML requires, else "ulož ako UTF-8"."""
    return decode_utf8(read_bytes(path), str(path))


def _create(tx: Tx, prop: Propozicie, admin_id: str,
            lexicon: tuple[str, LoadedLexicon] | None = None) -> Reply:
    by = tx.by_admin(admin_id, "propozície")
    try:
        get_tournament_by_slug(tx.db, prop.slug)
        raise Refusal("setup.slug_taken", slug=prop.slug)
    except NotFoundError:
        pass
    file_ids: dict[str, int] = {}
    known: list[str] = []
    for spec in prop.players:
        player = registry_player(tx, spec, prop.slug)
        if player is None:
            player = identity.new_player(
                tx, by, f"riadok {spec.line}", name=spec.name,
                herna_nick=spec.herna or no_herna_nick(prop.slug, spec.file_id),
                discord_name=spec.discord, discord_id=spec.discord_id,
                sss_member=spec.member, screlo=spec.screlo, rated_games=spec.games)
        else:  # the registry keeps the current online screlo (e-SP 2.4)
            known.append(identity.shown(player))  # a duplicate entrant's placeholder: his name
            identity.complete_registry(tx, player, spec.discord, spec.discord_id, by,
                                       f"riadok {spec.line}")
        file_ids[spec.file_id] = player.id
    options: dict[str, Any] = {
        "checkin_opens_at": prop.checkin_opens, "checkin_closes_at": prop.checkin_closes,
        "tempo": prop.tempo, "language_version": prop.language_version,
        "auto_apply_forfeits_after_minutes": prop.auto_apply_forfeits_after_minutes,
        "admin_ids": prop.admins or None,
        "channel_id": prop.channel_id,
    }
    if prop.channel_id is not None:  # two unfinished events never share a channel (e-SP 2.6)
        check_channel_free(tx.db, prop.channel_id)
    settings = {
        "file_ids": file_ids,
        # a store id for a player of this file, else the herna nick as written
        "avoid": [[file_ids.get(a, a), file_ids.get(b, b)] for a, b in prop.avoid],
        "platform_sync": prop.platform_sync,
    }
    if prop.format is not None:  # pairing and standings read it (tournament.event_format)
        settings["format"] = prop.format
    if prop.head_admin is not None:  # the exports name him (TRF 102)
        settings["head_admin"] = prop.head_admin
    t = create_tournament(
        tx.db, slug=prop.slug, name=prop.name, season=prop.season,
        round_starts=prop.round_starts, waiting_minutes=prop.waiting_minutes,
        game_limit_minutes=prop.game_limit_minutes, by=by, profile=prop.profile,
        settings=settings, **{k: v for k, v in options.items() if v is not None},
    )
    for spec in prop.players:
        add_entry(tx.db, t.id, file_ids[spec.file_id], by, paid=spec.paid)
    if prop.duplicate is not None and lexicon is not None:
        create_event(tx, t.id, prop.duplicate, lexicon)
    # e-SP 4.3 leaves the waiting period to the propozície: a default is said to be one
    key = "setup.created_waiting_default" if prop.waiting_default else "setup.created"
    if prop.duplicate is not None:  # its [tournament] rounds are its games (issue 35)
        key = "setup.created_duplicate"
    rule = tx.profile(t.profile).timing.waiting_rule
    return done(key, data=t, slug=t.slug, name=t.name, rounds=t.rounds_planned,
                players=len(prop.players), known=", ".join(known) or "—", season=t.season,
                waiting=t.waiting_minutes, waiting_rule=rule)


async def create_from_file(app: App, path: str | Path, admin_id: str, *,
                           strict: bool = True, lexicon_dir: Path = Path("lexicons"),
                           channel_id: int | None = None) -> Reply:
    """Create a tournament, its players and entries from a propozície file, or refuse the
    whole file with the line and the reason. A duplicate event's lexicon is read now (by id in
    `lexicon_dir`, or by path). `channel_id` (`--channel`) overrides the file's."""
    try:
        prop = parse_propozicie(_read_text(path), strict=strict)
    except Refusal as refusal:
        return refusal.reply
    except SetupError as exc:
        return Refusal("setup.invalid", file=str(path), line=exc.line, reason=exc.reason).reply
    if channel_id is not None:
        prop = replace(prop, channel_id=channel_id)
    return await create(app, prop, admin_id, lexicon_dir=lexicon_dir, source=str(path))


async def create(app: App, prop: Propozicie, admin_id: str, *,
                 lexicon_dir: Path = Path("lexicons"), source: str = "propozície") -> Reply:
    """Create the tournament, its players and entries of checked propozície
    (`parse_propozicie`), in one transaction; refused if its short name is taken. A duplicate
    event's lexicon is read first, off the store's thread (refused on its line)."""
    lexicon = None
    if prop.duplicate is not None:
        try:
            lexicon = await asyncio.to_thread(load_lexicon, prop.duplicate.lexicon,
                                              lexicon_dir)
        except (OSError, ValueError) as exc:  # LexiconError, DuplicateError are ValueErrors
            why = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            reason = cap_line(f"[duplicate]: lexicon: {why}")
            return Refusal("setup.invalid", file=source, line=prop.duplicate_line,
                           reason=reason).reply
    return await app.run(_create, prop, admin_id, lexicon)
