"""The season file (issue 14, part 4) read as strictly as the propozície: each bad file is
refused with the line of its problem and a Slovak reason, checked on its own and then against
a real store (the registry's players, a tournament finished in it)."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.services.app import App, Tx
from bot.services.season.file import parse_season, resolve_season
from bot.services.tournament.propozicie import SetupError
from bot.store import Change, TournamentStatus, exclude, withdraw

from .conftest import ADMIN_ID, make_world

HEAD = '[season]\nname = "M-SR 2026/27"\ncompetition = "sss-msr"\n'
EVENT = '[[event]]\nname = "KT Nitra"\nkind = "live-qt"\ndate = 2026-10-10\n'
PLAYERS = ('[[player]]\nid = "jano"\nname = "Ján Novák"\n'
           '[[player]]\nid = "fero"\nname = "Fero Kráľ"\n')


def refused(text: str) -> SetupError:
    with pytest.raises(SetupError) as caught:
        parse_season(text)
    return caught.value


@pytest.mark.parametrize(("text", "line", "reason"), [
    pytest.param(HEAD + PLAYERS + EVENT.replace("live-qt", "blitz") + 'places = ["jano"]\n',
                 12, "„blitz“ nie je druh podujatia tejto súťaže (známe: live-qt, online-qt, ",
                 id="unknown kind"),
    pytest.param(HEAD + PLAYERS + EVENT.replace("2026-10-10", '"10. 10. 2026"')
                 + 'places = ["jano"]\n', 13, "date: '10. 10. 2026' nie je dátum v tvare "
                 "RRRR-MM-DD", id="bad date"),
    pytest.param(HEAD + PLAYERS + EVENT.replace("2026-10-10", '"2026-02-30"')
                 + 'places = ["jano"]\n', 13, "nie je dátum", id="no such day"),
    # issue 36.6: year 1 or 9999 is a typo that sorted the event first or last
    pytest.param(HEAD + PLAYERS + EVENT.replace("2026-10-10", "0001-10-10")
                 + 'places = ["jano"]\n', 13, "date: 0001-10-10: rok 1 je mimo rokov 1970–2100",
                 id="year 1"),
    pytest.param(HEAD + PLAYERS + EVENT.replace("2026-10-10", '"9999-10-10"')
                 + 'places = ["jano"]\n', 13, "rok 9999 je mimo rokov 1970–2100", id="year 9999"),
    pytest.param(HEAD + PLAYERS + EVENT.replace("2026-10-10", "2026-13-01")
                 + 'places = ["jano"]\n', 13, "nie je platný TOML", id="bad TOML date"),
    pytest.param(HEAD + PLAYERS + EVENT + 'places = ["jano"]\ntournament = "kt"\n', 10,
                 "uveď buď tournament", id="both places and tournament"),
    pytest.param(HEAD + PLAYERS + EVENT, 10, "uveď buď tournament", id="neither"),
    pytest.param(HEAD + PLAYERS + EVENT + 'places = ["jano", "fero", "jano"]\n', 14,
                 "places: hráč „jano“ je tam dvakrát", id="placed twice"),
    pytest.param(HEAD + PLAYERS + EVENT + 'places = [\n  "jano",\n  "fero",\n]\n'
                 'out = ["mara"]\n', 18, "out: hráč „mara“ nie je v places",
                 id="out not placed"),
    pytest.param(HEAD + PLAYERS + EVENT + 'field = 1\nplaces = ["jano", "fero"]\n', 14,
                 "zúčastnilo 1 hráčov, ale places ich uvádza 2", id="field too small"),
    pytest.param(HEAD + PLAYERS + EVENT + 'places = ["jano"]\n' + EVENT + 'places = ["fero"]\n',
                 16, "podujatie „KT Nitra“ je v súbore dvakrát", id="event twice"),
    pytest.param(HEAD.replace("sss-msr", "sss-xyz") + EVENT + 'places = ["jano"]\n', 3,
                 "„sss-xyz“ nie je známa súťaž (známe: cas-duplicate-cup, sss-cup, sss-msr)",
                 id="unknown competition"),
    pytest.param(HEAD + "color = 1\n" + EVENT + 'places = ["jano"]\n', 4,
                 "[season]: neznámy kľúč „color“", id="unknown key"),
    pytest.param(HEAD + PLAYERS.replace("fero", "jano") + EVENT + 'places = ["jano"]\n', 8,
                 "hráč „jano“ je v súbore dvakrát", id="player twice"),
    pytest.param(HEAD + EVENT.replace('kind = "live-qt"\n', "") + 'places = ["jano"]\n', 4,
                 "chýba povinný kľúč „kind“", id="missing kind"),
    pytest.param(HEAD + PLAYERS + EVENT + 'places = ["jano", "fero", "a", "b"]\n'
                 'ranks = [1, 1, 2, 2]\n', 15, "zdieľané miesto opakuje predošlé (1, 1, 3)",
                 id="1, 1, 2, 2 only at a pairs event"),
    pytest.param(HEAD + PLAYERS + EVENT.replace("live-qt", "pairs")
                 + 'places = ["jano", "fero", "a", "b"]\nranks = [1, 1, 3, 4, 5]\n', 15,
                 "dvojica je jeden súťažiaci, miesta počítajú dvojice (1, 1, 2, 2; SP 1.3)",
                 id="pairs: one place per player"),
    pytest.param(HEAD, 1, "žiadne podujatie", id="no events"),
    # issue 37.3: the season's channel is a Discord id, a number
    pytest.param(HEAD + 'channel_id = "#liga"\n' + EVENT + 'places = ["a"]\n', 4,
                 "[season]: channel_id: očakáva sa id kanála Discordu", id="channel as text"),
    pytest.param(HEAD + "channel_id = 0\n" + EVENT + 'places = ["a"]\n', 4,
                 "je tam 0", id="channel zero"),
    pytest.param(HEAD + "channel_id = true\n" + EVENT + 'places = ["a"]\n', 4,
                 "je tam True", id="channel true"),
    pytest.param('name = "x"\n' + HEAD + EVENT + 'places = ["a"]\n', 1,
                 "neznáma tabuľka alebo kľúč „name“", id="key outside a table"),
    pytest.param(HEAD + EVENT + "places = [" + ", ".join(f'"p{n}"' for n in range(10_001))
                 + "]\n", 8, "places: najviac 10000 hráčov, je ich 10001", id="hostile list"),
])
def test_a_bad_file_is_refused_with_its_line(text: str, line: int, reason: str) -> None:
    error = refused(text)
    assert (error.line, reason in error.reason) == (line, True), error.reason


def test_a_pairs_event_numbers_its_places_by_pairs() -> None:
    """SP 1.3: a pair is one competitor — 1, 1, 2, 2 at a pairs event, 1, 1, 3 elsewhere."""
    pairs = EVENT.replace("live-qt", "pairs") + 'places = ["jano", "fero", "a", "b"]\n'
    tie = EVENT.replace("KT Nitra", "KT Levice") + 'places = ["a", "b", "c"]\n'
    spec = parse_season(HEAD + PLAYERS + pairs + "ranks = [1, 1, 2, 2]\n" + tie
                        + "ranks = [1, 1, 3]\n")
    assert [e.ranks for e in spec.events] == [(1, 1, 2, 2), (1, 1, 3)]


def test_a_list_on_one_line_and_a_repeated_id_keep_their_own_lines() -> None:
    spec = parse_season(HEAD + PLAYERS + EVENT + 'places = ["jano", "fero"]\n'
                        + 'out = [\n  "fero",\n  "jano"]\n' + EVENT.replace("Nitra", "Žilina")
                        + 'places = [\n  "fero",\n  "jano"]\n')
    nitra, zilina = spec.events
    assert [(r.id, r.line) for r in nitra.places] == [("jano", 14), ("fero", 14)]
    assert [(r.id, r.line) for r in nitra.out] == [("fero", 16), ("jano", 17)]
    assert [(r.id, r.line) for r in zilina.places] == [("fero", 23), ("jano", 24)]


def test_a_good_file_keeps_every_id_with_its_line() -> None:
    spec = parse_season(HEAD + 'champion = "fero"\n' + PLAYERS + EVENT
                        + 'field = 20\norganizers = ["mara"]\nplaces = [\n  "jano",\n'
                          '  "fero",\n]\nout = ["fero"]\n')
    event = spec.events[0]
    assert (event.date, event.field, event.kind) == (dt.date(2026, 10, 10), 20, "live-qt")
    assert [(r.id, r.line) for r in event.places] == [("jano", 18), ("fero", 19)]
    assert [(r.id, r.line) for r in event.out] == [("fero", 21)]
    assert spec.champion is not None and spec.champion.line == 4
    assert spec.channel_id is None  # announced in the tournament's own channel


def test_a_season_names_its_channel() -> None:
    spec = parse_season(HEAD + "channel_id = 123456789012345678\n" + EVENT + 'places = ["a"]\n')
    assert spec.channel_id == 123456789012345678


# -- against the store ---------------------------------------------------------------------


def resolve(app: App, text: str) -> object:
    return app.store.read(resolve_season, parse_season(text))


async def resolve_refused(app: App, text: str) -> SetupError:
    with pytest.raises(SetupError) as caught:
        await resolve(app, text)
    return caught.value


async def test_an_unknown_id_is_refused_with_its_line(app: App) -> None:
    await make_world(app)
    error = await resolve_refused(app, HEAD + PLAYERS + EVENT
                                  + 'places = [\n  "jano",\n  "KT-TEST-HRAC1",\n  "mara",\n]\n')
    assert (error.line, error.reason) == (
        17, "neznámy hráč „mara“: nie je v registri ani v [[player]]")


async def test_registry_ids_are_herna_nicks_as_the_registry_spells_them(app: App) -> None:
    await make_world(app)
    resolved = await resolve(app, HEAD + PLAYERS + EVENT
                             + 'places = ["KT-TEST-HRAC1", "JANO"]\nout = ["jano"]\n')
    event = resolved.season.events[0]
    assert event.places == ("kt-test-hrac1", "jano")
    assert event.out == frozenset({"jano"})
    assert resolved.names == {"kt-test-hrac1": "Ďuro Ďurkovič", "jano": "Ján Novák"}


async def test_a_declared_player_the_registry_holds_is_refused(app: App) -> None:
    await make_world(app)
    error = await resolve_refused(app, HEAD + '[[player]]\nid = "kt-test-hrac2"\nname = "X"\n'
                                  + EVENT + 'places = ["kt-test-hrac2"]\n')
    assert error.line == 5 and "je už v registri ako Žofia Šťastná" in error.reason


async def test_an_unfinished_tournament_is_pending_and_an_unknown_one_refused(app: App) -> None:
    """Issue 44.2: a season naming an event not finished yet is computed from the finished
    ones, the rest named as pending; a slug the database does not hold is still an error."""
    await make_world(app)  # running
    resolved = await resolve(app, HEAD + EVENT + 'tournament = "kt-test"\n')
    assert resolved.season.events == () and resolved.pending == ("KT Nitra",)
    assert resolved.tournaments == frozenset({"kt-test"})
    error = await resolve_refused(app, HEAD + EVENT + 'tournament = "kt-nie"\n')
    assert (error.line, error.reason) == (8, "turnaj „kt-nie“ v databáze nie je")


async def test_a_finished_tournament_gives_its_final_order_and_who_was_out(app: App) -> None:
    world = await make_world(app, status=TournamentStatus.FINISHED)

    def leave(tx: Tx) -> None:
        by = Change.admin(ADMIN_ID, tx.now, "test")
        exclude(tx.db, world.tournament.id, world.players[1].id, "e-SP 3.6 a)", by)
        withdraw(tx.db, world.tournament.id, world.players[3].id, "odstúpil", by)

    await app.run(leave)
    resolved = await resolve(app, HEAD + EVENT + 'tournament = "kt-test"\n')
    event = resolved.season.events[0]
    assert sorted(event.places) == [f"kt-test-hrac{n}" for n in range(1, 5)]
    assert event.out == frozenset({"kt-test-hrac2", "kt-test-hrac4"})
    assert resolved.tournaments == frozenset({"kt-test"})


async def test_without_a_database_only_declared_players_are_known() -> None:
    spec = parse_season(HEAD + PLAYERS + EVENT + 'places = ["jano", "cyro"]\n')
    with pytest.raises(SetupError) as caught:
        resolve_season(None, spec)
    assert caught.value.line == 14 and "neznámy hráč „cyro“" in caught.value.reason
