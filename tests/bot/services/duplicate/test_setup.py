"""A duplicate event's propozície (issue 24 item 1): `format = "duplicate"` and a strict
[duplicate] table, refused on the line of the key it is about; no herna nick needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import render_reply
from bot.services.app import App
from bot.services.tournament.player_import import import_players_csv
from bot.services.tournament.setup import create_from_file
from bot.store import find_player_by_nick
from bot.store.duplicate import get_event

ADMIN = "hlavny"
BASE = """[tournament]
name = "Duplikát online"
slug = "dup-online"
format = "duplicate"
rounds = 2
round_starts = ["2026-12-05 10:00", "2026-12-05 14:00"]

[duplicate]
profile = "greek-duplicate"
lexicon = "{words}"
{extra}
[[player]]
id = "1"
name = "Ján Novák"
discord_id = 123456789012345678
"""


def propozicie(tmp_path: Path, words: Path, extra: str = "") -> Path:
    path = tmp_path / "propozicie.toml"
    path.write_text(BASE.format(words=words, extra=extra), encoding="utf-8")
    return path


async def test_a_duplicate_event_is_created_with_its_settings(
        app: App, tmp_path: Path, words: Path) -> None:
    extra = "move_seconds = 150\nrounds_per_part = [8, 12]\nparts = 3\n"
    reply = await create_from_file(app, propozicie(tmp_path, words, extra), ADMIN)
    assert reply.ok, reply
    t = reply.data
    event = app.store.read_sync(get_event, t.id)
    assert event is not None
    assert (event.profile, event.tiles, event.move_seconds, event.warning_seconds) == (
        "greek-duplicate", "sss-100", 150, 30)
    assert (event.part_rounds, event.games, event.mode) == ([8, 12], 2, "online")
    assert event.lexicon == str(words.resolve()) and event.lexicon_id.startswith("sha256:")
    # no herna.net account: a placeholder that can match no herna nick
    assert app.store.read_sync(find_player_by_nick, "dup-online:1") is not None


@pytest.mark.parametrize(("extra", "line", "says"), [
    ("mode = \"sála\"\n", 11, "mode"),
    ("move_seconds = 5\n", 11, "od 10 do 3600"),
    ("warning_seconds = 200\nmove_seconds = 100\n", 11, "pred koncom"),
    ("games = 3\n", 11, "nesúhlasí s počtom časov"),
    ("rounds_per_part = [5]\nparts = 3\n", 11, "2 čísel"),
    ("sise = 7\n", 11, "neznámy kľúč"),
    ("tiles = \"sss-999\"\n", 11, "tiles"),
    ("double_entry = \"áno\"\n", 11, "true alebo false"),
])
async def test_a_bad_duplicate_table_is_refused_on_its_line(
        app: App, tmp_path: Path, words: Path, extra: str, line: int, says: str) -> None:
    reply = await create_from_file(app, propozicie(tmp_path, words, extra), ADMIN)
    assert not reply.ok and reply.key == "setup.invalid"
    assert reply.params["line"] == line and says in reply.params["reason"], reply.params


async def test_an_unreadable_lexicon_is_refused_on_its_line(app: App, tmp_path: Path) -> None:
    reply = await create_from_file(app, propozicie(tmp_path, tmp_path / "nie.txt"), ADMIN)
    assert not reply.ok and reply.params["line"] == 10
    assert "lexicon" in reply.params["reason"]
    assert app.store.read_sync(lambda db: db.execute(
        "SELECT COUNT(*) FROM tournaments").fetchone()[0]) == 0


async def test_a_duplicate_table_needs_the_duplicate_format(
        app: App, tmp_path: Path, words: Path) -> None:
    path = propozicie(tmp_path, words)
    path.write_text(path.read_text(encoding="utf-8").replace('format = "duplicate"\n', ""),
                    encoding="utf-8")
    reply = await create_from_file(app, path, ADMIN)
    assert not reply.ok and reply.params["line"] == 7  # [duplicate], the format line gone


async def test_players_of_a_duplicate_event_need_no_herna_nick_in_a_csv(
        app: App, tmp_path: Path, words: Path) -> None:
    created = await create_from_file(app, propozicie(tmp_path, words), ADMIN)
    assert created.ok
    csv = tmp_path / "hraci.csv"
    csv.write_text("meno;herna\nMária Malá;\nPeter Pan;ppan\n", encoding="utf-8")
    imported = await import_players_csv(app, "dup-online", csv, ADMIN)
    assert imported.ok, imported
    again = await import_players_csv(app, "dup-online", csv, ADMIN)
    assert again.ok and again.params["added"] == 0  # the same people, found again
    assert app.store.read_sync(find_player_by_nick, "dup-online:Mária Malá") is not None


# -- the placeholder nick of an entrant without a herna.net account (issue 44.8) --------------

TWO = """[tournament]
name = "{name}"
slug = "{slug}"
format = "duplicate"
rounds = 1
round_starts = ["2026-12-05 10:00"]

[duplicate]
profile = "greek-duplicate"
lexicon = "{words}"

{players}"""


def _entrants(app: App, slug: str) -> dict[str, int]:
    """An event's entrants: name → registry player id."""
    return dict(app.store.read_sync(lambda db: db.execute(
        "SELECT p.name, p.id FROM entries e JOIN players p ON p.id = e.player_id "
        "JOIN tournaments t ON t.id = e.tournament_id WHERE t.slug = ?", (slug,)).fetchall()))


async def test_two_events_whose_long_slugs_share_39_characters_keep_their_entrants_apart(
        app: App, tmp_path: Path, words: Path) -> None:
    common = "duplikat-online-velka-cena-bratislavy-2"  # 39 characters
    assert len(common) == 39
    made = {}
    for slug, name in ((common + "6", "Ján Novák"), (common + "7", "Eva Malá")):
        path = tmp_path / f"{slug}.toml"
        path.write_text(TWO.format(name=slug, slug=slug, words=words,
                                   players=f'[[player]]\nid = "1"\nname = "{name}"\n'),
                        encoding="utf-8")
        reply = await create_from_file(app, path, ADMIN)
        assert reply.ok, reply
        made[slug] = _entrants(app, slug)
    # each event its own person: Eva is not Ján's registry player entered a second time
    assert made[common + "6"].keys() == {"Ján Novák"}
    assert made[common + "7"].keys() == {"Eva Malá"}
    assert made[common + "6"]["Ján Novák"] != made[common + "7"]["Eva Malá"]
    # and the second event's CSV finds its own entrant again, not the first event's
    csv = tmp_path / "hraci.csv"
    csv.write_text("meno;herna\nPeter Pan;\n", encoding="utf-8")
    for slug in made:
        assert (await import_players_csv(app, slug, csv, ADMIN)).ok
    peters = {_entrants(app, slug)["Peter Pan"] for slug in made}
    assert len(peters) == 2


async def test_p1_and_p10_of_one_long_slug_are_two_entrants(
        app: App, tmp_path: Path, words: Path) -> None:
    slug = "duplikat-online-velka-cena-bratislavys"  # 38: "slug:p1" needs 41 characters
    assert len(slug) == 38
    players = "".join(f'[[player]]\nid = "{pid}"\nname = "{name}"\n\n'
                      for pid, name in (("p1", "Ján Novák"), ("p10", "Eva Malá")))
    path = tmp_path / "dlhy.toml"
    path.write_text(TWO.format(name="Dlhý", slug=slug, words=words, players=players),
                    encoding="utf-8")
    reply = await create_from_file(app, path, ADMIN)
    assert reply.ok, reply
    entrants = _entrants(app, slug)
    assert entrants.keys() == {"Ján Novák", "Eva Malá"}
    assert len(set(entrants.values())) == 2


async def test_creating_a_duplicate_event_says_nothing_of_online_screlo(
        app: App, tmp_path: Path, words: Path) -> None:
    """The duplicate is not rated by the online screlo (issue 44.7: "ponechané ich online
    screlo"); a player already in the registry is named, not his placeholder nick."""
    first = await create_from_file(app, propozicie(tmp_path, words), ADMIN)
    assert first.ok
    again = tmp_path / "druhy.toml"
    again.write_text(BASE.format(words=words, extra="").replace("dup-online", "dup-druhy"),
                     encoding="utf-8")
    second = await create_from_file(app, again, ADMIN)
    assert second.ok, second
    for lang in ("sk", "en"):
        text = " ".join(render_reply(second, lang))
        assert "screlo" not in text, text
    said = " ".join(render_reply(second))
    assert said.endswith("Hráči už v registri: Ján Novák."), said
