"""Who is who from the command line: the operator names the tournament's head admins on
Discord and links, unlinks and decides the players' Discord accounts — on a real SQLite file,
through `main([...])`, each change audited under the operator's name."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.clock import SystemClock
from bot.services.app import App
from bot.services.notifier import RecordingNotifier
from bot.services.replies import Reply
from bot.services.tournament import play
from bot.store import Store

EXAMPLES = Path(__file__).parents[2] / "examples"
SLUG = "kt-2026-11"
HEAD = "123456789012345678"
BORIS = "223456789012345678"
STRANGER = 323456789012345678


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    db = tmp_path / "cli.db"

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", str(db), "--admin", "hlavny"])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    run.db = db  # type: ignore[attr-defined]
    assert run("create", str(EXAMPLES / "propozicie.toml"))[0] == 0
    return run


def _register(db: Path, discord_id: int, name: str, nick: str) -> Reply:
    """/registracia as the bot would run it, on the CLI's database."""
    async def go() -> Reply:
        store = await Store.open(db)
        try:
            return await play.register(App(store, SystemClock(), RecordingNotifier()), SLUG,
                                       discord_id, name, nick)
        finally:
            await store.close()

    return asyncio.run(go())


def test_the_operator_names_the_head_admins(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("admins", SLUG)
    assert code == 0 and "v Discorde: —" in out
    code, out, _ = cli("admins", SLUG, "--add", HEAD)
    assert code == 0 and f"v Discorde: {HEAD} (e-SP 2.5)" in out
    code, out, _ = cli("admins", SLUG, "--remove", HEAD)
    assert code == 0 and "v Discorde: —" in out
    code, out, _ = cli("show", "audit", SLUG)
    assert "hlavný administrátor hlavny: nastavenie turnaja zmenené" in out
    assert "hlavní administrátori turnaja" in out


def test_a_discord_id_that_is_not_one_is_refused_in_one_line(
        cli, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exit_:
        main(["admins", SLUG, "--add", "12", "--db", str(cli.db)])
    assert exit_.value.code == 2 and "nie je číslo Discord účtu" in capsys.readouterr().err


def test_link_unlink_and_relink(cli) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):  # a reason is required
        main(["link", SLUG, "borisk", BORIS, "--db", str(cli.db)])
    code, out, _ = cli("link", SLUG, "borisk", BORIS, "--reason", "Boris napísal e-mailom")
    assert code == 0
    assert f"prepojené: Boris Kováč (herna.net: borisk) a Discord účet {BORIS}" in out
    assert "[DM Boris Kováč]" in out  # the player is told (delivered when the bot runs)
    code, out, err = cli("link", SLUG, "anna77", BORIS, "--reason", "omyl")
    assert code == 1 and "je už prepojený s hráčom „borisk“" in err
    code, out, _ = cli("unlink", SLUG, "borisk", "--reason", "nový účet")
    assert code == 0 and "už nie je prepojený" in out
    code, _, err = cli("unlink", SLUG, "borisk", "--reason", "znova")
    assert code == 1 and "nie je prepojený so žiadnym Discord účtom" in err
    code, out, _ = cli("show", "audit", SLUG)
    assert "hlavný administrátor hlavny: Discord účet prepojený — Boris Kováč" in out
    assert "hlavný administrátor hlavny: prepojenie Discord účtu zrušené — Boris Kováč" in out
    assert "Boris napísal e-mailom" in out and "nový účet" in out


def test_requests_are_listed_and_decided(cli) -> None:  # type: ignore[no-untyped-def]
    pending = _register(cli.db, STRANGER, "someone", "borisk")
    assert pending.key == "identity.request_pending"
    code, out, _ = cli("link-requests", SLUG)
    assert code == 0 and "Žiadosti o prepojenie v turnaji Online KT — skúška: 1." in out
    assert f"č. 1: someone (id {STRANGER}) → Boris Kováč (herna.net: borisk)" in out
    code, _, err = cli("link-reject", SLUG, "1", "--reason", " ")
    assert code == 1 and "zdôvodnenie" in err
    code, out, _ = cli("link-approve", SLUG, "1")
    assert code == 0 and "Žiadosť schválená: Boris Kováč" in out
    code, _, err = cli("link-approve", SLUG, "1")
    assert code == 1 and "už rozhodnuté" in err
    assert _register(cli.db, STRANGER, "someone", "borisk").key == "play.register_already"


def test_the_registry_name_links_without_the_admin(cli) -> None:  # type: ignore[no-untyped-def]
    # the example propozície record Anna's Discord name "anna#1234" (a legacy tag)
    assert _register(cli.db, 423456789012345678, "Anna#1234", "anna77").key == "play.registered"
    assert _register(cli.db, 523456789012345678, "anna", "cyro").key == \
        "identity.request_pending"


def test_a_relink_across_events_needs_a_head_admin_of_each(
        cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue 44.4: Boris plays in two events; a head admin of one (`--as`, his Discord
    rights) cannot relink him — the other event's seat would change hands — the operator
    can, and both events' audits show it."""
    other = tmp_path / "druha.toml"
    other.write_text((EXAMPLES / "propozicie.toml").read_text(encoding="utf-8").replace(
        f'slug = "{SLUG}"', 'slug = "kt-druha"').replace(
        'name = "Online KT — skúška"', 'name = "Druhá KT"'), encoding="utf-8")
    assert cli("create", str(other))[0] == 0
    assert cli("admins", SLUG, "--add", HEAD)[0] == 0
    assert cli("admins", "kt-druha", "--add", BORIS)[0] == 0  # another head admin
    assert cli("link", SLUG, "borisk", "423456789012345678", "--reason", "jeho účet")[0] == 0
    code, _, err = cli("link", SLUG, "borisk", str(STRANGER), "--reason", "nový účet",
                       "--as", HEAD)
    assert code == 1 and "kt-druha" in err and "Nič sa nezmenilo" in err
    code, _, err = cli("unlink", SLUG, "borisk", "--reason", "omyl", "--as", HEAD)
    assert code == 1 and "kt-druha" in err
    code, out, _ = cli("show", "audit", "kt-druha")
    assert str(STRANGER) not in out
    code, out, _ = cli("link", SLUG, "borisk", str(STRANGER), "--reason", "nový účet")
    assert code == 0, out
    for slug in (SLUG, "kt-druha"):  # the audit line in each event, a note to each admin
        code, out, _ = cli("show", "audit", slug)
        assert "Discord účet prepojený — Boris Kováč" in out and "nový účet" in out, slug
    code, out, _ = cli("outbox")
    assert out.count("identity.changed\\_note") + out.count("identity.changed_note") >= 2
