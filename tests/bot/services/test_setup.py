"""Tournament set-up on a real store: the propozície file (and every rejection with its line),
CSV imports of players and of the online screlo list, check-in, and the inactivity decay."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.services.app import App, Tx
from bot.services.notifier import RecordingNotifier
from bot.services.tournament.checkin import close_checkin, open_checkin
from bot.services.tournament.decay import decay_season
from bot.services.tournament.player_import import import_players_csv
from bot.services.tournament.propozicie import (
    SetupError,
    parse_propozicie,
    previous_season,
    season_of,
    slug_of,
)
from bot.services.tournament.screlo_import import import_screlo_list
from bot.services.tournament.setup import create_from_file
from bot.store import (
    Change,
    TournamentStatus,
    check_in,
    create_player,
    find_player_by_nick,
    get_player,
    get_tournament_by_slug,
    list_entries,
    list_players,
    list_tournaments,
    rating_history,
)

from .test_rounds import ADMIN, SLUG, create, player, propozicie, read

EXAMPLE = Path(__file__).parents[3] / "examples" / "propozicie.toml"


def test_the_example_file_parses() -> None:
    prop = parse_propozicie(EXAMPLE.read_text(encoding="utf-8"))
    assert prop.slug == "kt-2026-11" and prop.season == "2026/27"
    # 9:00 in Bratislava in November (CET) is 8:00 UTC
    assert prop.round_starts[0] == datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
    assert prop.game_limit_minutes == 50 and prop.waiting_minutes == 10
    assert prop.auto_apply_forfeits_after_minutes is None  # 0 = off
    emil = next(p for p in prop.players if p.file_id == "emil")
    assert emil.screlo is None and emil.paid and emil.games == 0


def test_defaults_season_and_slug_come_from_the_file() -> None:
    text = propozicie().replace(f'slug = "{SLUG}"', "").replace("waiting_minutes = 10", "")
    prop = parse_propozicie(text)
    assert prop.slug == "online-kt-skuska"
    assert prop.season == "2024/25"  # March 2025 belongs to the season from September 2024
    assert prop.waiting_minutes == 10  # the profile's default (e-SP 4.3)
    assert season_of(datetime(2025, 9, 1, 8, tzinfo=UTC)) == "2025/26"
    assert previous_season("2000/01") == "1999/00"
    assert slug_of("Turnaj Ďateľ 2025!") == "turnaj-datel-2025"


BAD = [
    ("bad_toml", ("rounds = 3", "rounds = = 3"), 4, "TOML"),
    ("unknown_key", ("waiting_minutes = 10", "waiting_minutes = 10\ncakanie = 5"), 7,
     "neznámy kľúč „cakanie“"),
    ("missing_field", ('name = "Online KT — skúška"', ""), 1, "chýba povinný kľúč „name“"),
    ("bad_time", ('"2025-03-01 11:00"', '"2025-03-01 25:00"'), 5, "25:00"),
    ("rounds_mismatch", ("rounds = 3", "rounds = 4"), 4, "nesúhlasí"),
    ("negative_screlo", ("screlo = 1950", "screlo = -5"), 19, "-5 je mimo rozsahu 0 – 3000"),
    ("wrong_type", ("games = 20", 'games = "veľa"'), 20, "celé číslo"),
    ("duplicate_id", ('id = "p2"', 'id = "p1"'), 16, "dvakrát"),
    ("duplicate_nick", ('herna = "nick2"', 'herna = "NICK1"'), 18, "dvakrát"),
    ("unknown_table", ("[tournament]", "[turnaj]\nx = 1\n[tournament]"), 1, "turnaj"),
    ("decreasing_starts", ('"2025-03-01 12:00"', '"2025-03-01 10:30"'), 5, "3. kolo"),
]


@pytest.mark.parametrize(("change", "line", "reason"), [b[1:] for b in BAD],
                         ids=[b[0] for b in BAD])
def test_every_rejection_names_its_line(change: tuple[str, str], line: int, reason: str) -> None:
    text = propozicie()
    assert change[0] in text
    with pytest.raises(SetupError) as caught:
        parse_propozicie(text.replace(change[0], change[1], 1))
    assert caught.value.line == line, caught.value
    assert reason in caught.value.reason


async def test_create_keeps_file_ids_and_a_bad_file_writes_nothing(
        app: App, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(propozicie().replace("rounds = 3", "rounds = 2"), encoding="utf-8")
    refused = await create_from_file(app, bad, ADMIN)
    assert not refused.ok and refused.key == "setup.invalid" and refused.params["line"] == 4
    assert await read(app, list_tournaments) == [] and await read(app, list_players) == []
    missing = await create_from_file(app, tmp_path / "nie.toml", ADMIN)
    assert missing.key == "setup.unreadable"

    reply = await create(app, tmp_path)
    assert reply.params["players"] == 6 and reply.params["rounds"] == 3
    t = await read(app, get_tournament_by_slug, SLUG)
    p1 = await player(app, "nick1")
    assert t.settings["file_ids"]["p1"] == p1.id and t.settings["platform_sync"] is False
    entries = await read(app, list_entries, t.id)
    assert [(e.seed_rating, e.seed_games) for e in entries][:2] == [(2000.0, 10), (1950.0, 20)]
    again = await create_from_file(app, tmp_path / "propozicie.toml", ADMIN)
    assert not again.ok and again.key == "setup.slug_taken"


async def test_csv_import_good_rows_and_a_bad_row(app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=2))
    bad = tmp_path / "bad.csv"
    bad.write_text("meno;herna;discord;zaplatil;člen;screlo;partie\n"
                   "Gabriela Horváthová;gabi;;áno;áno;1780;75\n"
                   "Hugo Ľupták;hugo;;možno;nie;;0\n", encoding="utf-8")
    refused = await import_players_csv(app, SLUG, bad, ADMIN)
    assert not refused.ok and refused.params["row"] == 3 and "možno" in refused.params["reason"]
    assert await read(app, find_player_by_nick, "gabi") is None  # nothing written

    good = tmp_path / "good.csv"
    good.write_text("Gabriela Horváthová,gabi,gabi#1,áno,áno,\"1780,5\",75\n"
                    "Hugo Ľupták,hugo,,nie,,,\n"
                    "Hráč Číslo1,nick1,,1,0,,\n", encoding="utf-8")
    reply = await import_players_csv(app, SLUG, good, ADMIN)
    assert reply.ok and reply.params["added"] == 2 and reply.params["skipped"] == "nick1"
    gabi = await player(app, "gabi")
    assert (gabi.screlo, gabi.rated_games, gabi.sss_member) == (1780.5, 75, True)
    t = await read(app, get_tournament_by_slug, SLUG)
    hugo = await player(app, "hugo")
    paid = {e.player_id: e.paid for e in await read(app, list_entries, t.id)}
    assert paid[hugo.id] is False and paid[gabi.id] is True


async def test_screlo_list_updates_the_registry_and_lists_unknown_players(
        app: App, tmp_path: Path) -> None:
    await create(app, tmp_path, propozicie(players=2))
    path = tmp_path / "screlo.csv"
    path.write_text("herna,meno,screlo,partie,sezona\nnick1,,2100.5,80,2024/25\n"
                    ",Hráč Číslo2,1700,,\nneznamy,,1500,3,\n", encoding="utf-8")
    reply = await import_screlo_list(app, path, ADMIN)
    assert reply.ok and reply.params["updated"] == 2 and reply.params["unknown"] == "neznamy"
    p1, p2 = await player(app, "nick1"), await player(app, "nick2")
    assert (p1.screlo, p1.rated_games, p1.last_season) == (2100.5, 80, "2024/25")
    assert (p2.screlo, p2.rated_games) == (1700.0, 20)  # games kept when the list has none
    older = tmp_path / "starsi.csv"  # an older list's season never moves it back (issue 44.8)
    older.write_text("herna,screlo,partie,sezona\nnick1,2090,79,2022/23\n", encoding="utf-8")
    assert (await import_screlo_list(app, older, ADMIN)).ok
    p1 = await player(app, "nick1")
    assert (p1.screlo, p1.rated_games, p1.last_season) == (2090.0, 79, "2024/25")
    bad = tmp_path / "bad.csv"
    bad.write_text("herna,screlo\nnick1,veľa\n", encoding="utf-8")
    refused = await import_screlo_list(app, bad, ADMIN)
    assert not refused.ok and refused.params["row"] == 2


async def test_checkin_opens_and_closes(
        app: App, tmp_path: Path, notifier: RecordingNotifier) -> None:
    await create(app, tmp_path, propozicie(players=3))
    assert (await close_checkin(app, SLUG, ADMIN)).key == "setup.checkin_not_open"
    assert (await open_checkin(app, SLUG, ADMIN)).ok
    t = await read(app, get_tournament_by_slug, SLUG)
    assert t.status is TournamentStatus.CHECKIN
    p1 = await player(app, "nick1")
    await app.run(lambda tx: check_in(tx.db, t.id, p1.id, tx.by_player(p1.id)))
    reply = await close_checkin(app, SLUG, ADMIN)
    assert reply.ok and reply.params["present"] == 1
    admin_notes = [m for w, _, m in notifier.sent if w == "admin"]
    assert admin_notes[-1].key == "setup.not_checked_in" and admin_notes[-1].params["count"] == 2
    assert (await open_checkin(app, SLUG, ADMIN)).key == "setup.checkin_not_draft"


async def test_decay_lowers_inactive_players_once_per_season(
        app: App, clock: ManualClock) -> None:
    def registry(tx: Tx) -> dict[str, int]:
        by = Change.admin(ADMIN, tx.now)
        made = {}
        for nick, screlo, season in (("stary", 1900.0, "2022/23"), ("blizko", 1620.0, "2021/22"),
                                     ("aktivny", 1900.0, "2024/25"), ("nizky", 1550.0, "2020/21"),
                                     ("neznamy", 1800.0, None)):
            made[nick] = create_player(tx.db, name=nick.title(), herna_nick=nick, by=by,
                                       screlo=screlo, rated_games=60, last_season=season).id
        return made

    ids = await app.run(registry)
    bad = await decay_season(app, "2025-26", ADMIN)
    assert not bad.ok and bad.key == "setup.bad_season"
    reply = await decay_season(app, "2025/26", ADMIN)  # judges season 2024/25
    assert reply.ok and reply.params["count"] == 2 and reply.params["unknown"] == "Neznamy"
    values = {nick: (await read(app, get_player, pid)).screlo for nick, pid in ids.items()}
    assert values == {"stary": 1850.0, "blizko": 1600.0, "aktivny": 1900.0, "nizky": 1550.0,
                      "neznamy": 1800.0}
    history = await read(app, rating_history, ids["stary"])
    assert [(h.kind, h.before_value, h.after_value) for h in history] == [
        ("decay", 1900.0, 1850.0)]
    twice = await decay_season(app, "2025/26", ADMIN)
    assert not twice.ok and twice.key == "setup.decay_done"
    assert (await decay_season(app, "2026/27", ADMIN)).params["count"] == 2  # stary again


async def test_the_propozicie_name_the_head_admins_on_discord(app: App, tmp_path: Path) -> None:
    """`admins` in the propozície: the Discord accounts that may run the tournament in chat
    (the policy); anything but an account id is refused with its line."""
    admin_id = 123456789012345678
    await create(app, tmp_path, propozicie(extra=f"admins = [{admin_id}, {admin_id}]"))
    t = await read(app, get_tournament_by_slug, SLUG)
    assert t.admin_ids == [admin_id]
    for bad in ("[12]", '["hlavny"]', "[true]"):
        with pytest.raises(SetupError) as error:
            parse_propozicie(propozicie(extra=f"admins = {bad}"))
        assert error.value.line == 8 and "Discord" in str(error.value)
