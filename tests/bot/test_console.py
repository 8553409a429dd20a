"""The console adapter prints for a terminal: Discord's bold markers are dropped, the text is
otherwise the catalogue's. And the CLI's own lines: a missing herna.net login in Slovak, with
no progress line before the error."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.console import ConsoleNotifier, plain, render, render_message
from bot.i18n import t
from bot.services.notifier import Message

ROWS = [
    {"table": 1, "first": "Marta Žilinská", "first_nick": "martaz", "second": "Cyril Ďurica",
     "second_nick": "cyro", "bye": False},
    {"key": "round.published_bye_row", "table": 2, "first": "Oľga Vargová",
     "first_nick": "olga_v", "second": "—", "second_nick": "—", "bye": True},
]


def test_the_catalogue_marks_the_starter_in_bold_for_discord() -> None:
    assert t("round.published_row", "sk", **ROWS[0]) == (
        "stôl 1: **Marta Žilinská** (martaz) začína – Cyril Ďurica (cyro)")
    assert t("view.pairings_row", "en-US", **ROWS[0]) == (
        "table 1: **Marta Žilinská** (martaz) starts – Cyril Ďurica (cyro)")


def test_plain_drops_only_the_bold_markers() -> None:
    assert plain("stôl 1: **Marta Žilinská** (martaz) začína") == (
        "stôl 1: Marta Žilinská (martaz) začína")
    assert plain("3 * 4 = 12") == "3 * 4 = 12"


def test_console_rows_are_printed_without_asterisks() -> None:
    assert render("round.paired", {"round": 1, "tables": 2, "rule": "e-SP 2.4",
                                   "unpaid": "—"}, ROWS) == [
        "1. kolo je spárované: 2 stoly (e-SP 2.4). Prvý uvedený hráč začína. Mimo párovania "
        "pre nezaplatené štartovné (e-SP 2.2): —.",
        "  stôl 1: Marta Žilinská (martaz) začína – Cyril Ďurica (cyro)",
        "  stôl 2: Oľga Vargová (olga_v) má voľno",
    ]


async def test_the_rehearsal_transcript_announcement_is_clean() -> None:
    out = io.StringIO()
    message = Message("round.published", {
        "tournament": "Online KT", "round": 1, "start": "9:00", "limit": "9:50", "n": 10,
        "rule": "e-SP 4.3, 4.5", "tables": 2, "rows": ROWS})
    await ConsoleNotifier(out).announce(1, message)
    assert out.getvalue().splitlines()[1:] == [
        "          stôl 1: Marta Žilinská (martaz) začína – Cyril Ďurica (cyro)",
        "          stôl 2: Oľga Vargová (olga_v) má voľno",
    ]
    assert render_message(message)[0].endswith("Prvý uvedený hráč začína. Stolov: 2.")


def test_a_missing_herna_login_is_one_slovak_line_without_progress(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("HERNA_USER", raising=False)
    monkeypatch.delenv("HERNA_PASSWORD", raising=False)
    config = tmp_path / "config.toml"
    config.write_text("", encoding="utf-8")
    code = main(["sync", "kt", "--db", str(tmp_path / "x.db"), "--config", str(config)])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert captured.err.splitlines() == [
        "stredisko: chyba: chýba prihlásenie na herna.net: nastavte HERNA_USER a "
        "HERNA_PASSWORD (alebo [herna] user/password v config.toml)"]


async def test_a_dm_is_labelled_with_the_players_name_not_his_store_id() -> None:
    out = io.StringIO()

    async def read_name(player_id: int) -> str:
        return {8: "Mária Ťažká"}[player_id]

    console = ConsoleNotifier(out, read_name=read_name)
    await console.direct(8, Message("play.bye", {"round": 3, "rule": "e-SP 4.9"}))
    assert out.getvalue() == "[DM Mária Ťažká] V 3. kole máš voľno – nemáš súpera (e-SP 4.9).\n"
