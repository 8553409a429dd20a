"""Bounded input through the services (issue 11, point 4): a player's dispute text, the head
admin's reasons, a nick to register, ratings and names in the imported lists. Each refusal is
a catalogue key the reader gets in his language, and nothing is stored."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.clock import ManualClock
from bot.i18n import t
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Refusal
from bot.services.results.lifecycle import refresh_pairing
from bot.services.tournament import admin, play
from bot.services.tournament.player_import import parse_players_csv
from bot.services.tournament.propozicie import SetupError, parse_propozicie
from bot.services.tournament.screlo_import import import_screlo_list, parse_screlo_csv
from bot.store import get_entry, list_audit, list_evidence

from .conftest import ADMIN_ID, START, World, add_game, said
from .test_rounds import ADMIN, create, player, propozicie, read

HOSTILE_TEXT = [
    pytest.param("Mal som 398\x00", "input.control_character", id="nul"),
    pytest.param("zle\x1b[2J", "input.control_character", id="terminal-escape"),
    pytest.param("x" * 10_000, "input.too_long", id="10000-characters"),
]


@pytest.mark.parametrize(("text", "key"), HOSTILE_TEXT)
async def test_a_hostile_dispute_is_refused_and_stores_nothing(
        app: App, world: World, clock: ManualClock, notifier: RecordingNotifier,
        text: str, key: str) -> None:
    await add_game(app, world.tables[0], 412, 388)
    clock.set(START + timedelta(minutes=45))
    await app.run(lambda tx: refresh_pairing(tx, world.tables[0].id, tx.by_scheduler()))
    before = await read(app, list_evidence, world.tables[0].id)
    sent_before = len(notifier.sent)
    reply = await play.dispute(app, world.slug, world.discord(1), text)
    assert not reply.ok and reply.key == key and "dôvod sporu" in said(reply)
    assert t(reply.key, "en-GB", **reply.params).startswith("reason for the dispute: ")
    assert await read(app, list_evidence, world.tables[0].id) == before
    assert len(notifier.sent) == sent_before


@pytest.mark.parametrize(("text", "key"), [
    *HOSTILE_TEXT[:2], pytest.param("r" * 501, "input.too_long", id="501-characters")])
async def test_a_hostile_reason_of_the_head_admin_is_refused(
        app: App, world: World, text: str, key: str) -> None:
    who = world.players[3].id
    audit = len(await read(app, list_audit))
    reply = await admin.exclude(app, world.slug, ADMIN_ID, who, text)
    assert not reply.ok and reply.key == key and "zdôvodnenie" in said(reply)
    assert t(reply.key, "en-GB", **reply.params).startswith("reason: ")
    entry = await read(app, get_entry, world.tournament.id, who)
    assert entry.excluded_reason is None and len(await read(app, list_audit)) == audit


#: "digits" str.isdigit() accepts and int() cannot read (superscripts, circled); and ones it
#: can (Arabic-Indic, full-width), which are read as the numbers they are
UNREADABLE_DIGITS = ["²", "①", "¹2", "3²"]


@pytest.mark.parametrize("text", UNREADABLE_DIGITS)
def test_a_score_in_superscript_digits_is_refused_not_crashed_on(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        play.parse_score(text)
    assert refused.value.reply.key == "play.score_not_number"


def test_a_score_in_other_decimal_digits_is_read_as_the_number() -> None:
    assert (play.parse_score("٤١٢"), play.parse_score("３８８")) == (412, 388)


@pytest.mark.parametrize("text", UNREADABLE_DIGITS)
async def test_a_player_naming_himself_in_superscript_digits_is_refused(
        app: App, world: World, text: str) -> None:
    reply = await play.register(app, world.slug, 4242, "hrac", text)
    assert not reply.ok and reply.key == "play.register_unknown_nick", reply


async def test_a_nick_of_10000_characters_is_not_echoed(app: App, world: World) -> None:
    reply = await play.register(app, world.slug, 4242, "hrac", "n" * 10_000)
    assert not reply.ok and reply.key == "input.too_long"
    assert said(reply) == "prezývka z herna.net: 10000 znakov je priveľa (najviac 40)"
    # the field is named in the reader's language too, not in Slovak inside English
    assert t(reply.key, "en-US", **reply.params) == (
        "herna.net nick: 10000 characters is too many (at most 40)")


@pytest.mark.parametrize(("cell", "ok"), [
    ("0", True), ("3000", True), ("1 780,5", True),
    ("3000,5", False), ("-1", False), ("1e300", False), ("nan", False), ("inf", False),
    ("-inf", False), ("1e-400", True),  # a denormal zero is a (silly) valid 0
])
async def test_screlo_ratings_within_the_scale(app: App, tmp_path: Path, cell: str,
                                               ok: bool) -> None:
    await create(app, tmp_path, propozicie(players=2))
    path = tmp_path / "screlo.csv"
    path.write_text(f"herna;screlo;partie\nnick1;{cell};80\n", encoding="utf-8")
    before = (await player(app, "nick1")).screlo
    reply = await import_screlo_list(app, path, ADMIN)
    assert reply.ok is ok, said(reply)
    if not ok:
        assert reply.key == "setup.csv_invalid" and reply.params["row"] == 2
        assert "stĺpec screlo" in reply.params["reason"]
        assert (await player(app, "nick1")).screlo == before


# -- "refusal or success, never another exception" -------------------------------------------

_CELLS = st.one_of(st.text(max_size=12), st.integers().map(str), st.floats().map(str),
                   st.sampled_from(["nan", "inf", "1e300", "10" * 15, "1 780,5", "áno", ";"]))
_ROWS = st.lists(st.lists(_CELLS, min_size=1, max_size=8).map(";".join), max_size=6)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_ROWS)
def test_random_csv_rows_are_read_or_refused(rows: list[str]) -> None:
    for parse in (parse_players_csv, parse_screlo_csv):
        try:
            parse("\n".join(rows))
        except SetupError as exc:
            assert exc.line >= 1 and exc.reason


_VALUES = st.one_of(st.integers(min_value=-(2**80), max_value=2**80), st.floats(),
                    st.text(max_size=20), st.booleans())


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["rounds", "waiting_minutes", "game_limit_minutes", "screlo", "games",
                        "name", "herna", "discord", "auto_apply_forfeits_after_minutes"]),
       _VALUES)
def test_random_toml_values_are_read_or_refused(key: str, value: object) -> None:
    literal = repr(value).lower() if not isinstance(value, str) else _toml_string(value)
    lines = propozicie(players=2).splitlines()
    line = f"{key} = {literal}"
    found = [n for n, text in enumerate(lines) if text.startswith(f"{key} =")]
    if found:
        lines[found[0]] = line
    else:  # a key the sample leaves out: into the first table that takes it
        table = "[[player]]" if key in ("games", "discord", "herna") else "[tournament]"
        lines.insert(lines.index(table) + 1, line)
    try:
        parse_propozicie("\n".join(lines))
    except SetupError as exc:
        assert exc.line >= 1 and exc.reason


def _toml_string(value: str) -> str:
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}"
                      for c in value if ord(c) <= 0xFFFF and not 0xD800 <= ord(c) <= 0xDFFF)
    return f'"{escaped}"'
