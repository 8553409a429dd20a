"""The audit log in Slovak: actions described, tables by round and table, players by name."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from bot.clock import ManualClock
from bot.i18n import default_catalogue, t
from bot.services.app import App
from bot.services.tournament import payments, play
from bot.services.tournament.audit_text import audit_rows
from bot.store import record
from bot.store.rows import Change

from .conftest import ADMIN_ID, START, World


async def test_each_change_reads_in_slovak(app: App, world: World, clock: ManualClock) -> None:
    clock.set(START + timedelta(minutes=2))
    await play.report_absence(app, world.slug, world.discord(0))
    await payments.set_payment(app, world.slug, ADMIN_ID, [world.players[3].herna_nick], False)
    await app.run(lambda tx: record(tx.db, Change.scheduler(START, "skúška"), "nieco.nove",
                                    tournament_id=world.tournament.id, subject="iné:7"))
    rows = await app.run(lambda tx: audit_rows(tx, world.tournament.id, 100))
    lines = [t("cli.audit_row", **row) for row in rows]
    absence = next(line for line in lines if "hlásenie neprítomnosti súpera" in line)
    assert f"— {world.players[0].name}: " in absence and "stôl 1 (1. kolo)" in absence
    fee = next(line for line in lines if "štartovné zmenené" in line)
    assert f"hlavný administrátor {ADMIN_ID}: štartovné zmenené — {world.players[3].name}." in fee
    assert "e-SP 2.2" in fee
    # an action the catalogue does not know is shown by its code, never dropped
    assert any("stredisko (časovač): nieco.nove — iné:7. Dôvod: skúška" in line for line in lines)
    assert not any("pairing:" in line or "player:" in line for line in lines)


def test_every_outbox_action_reads_in_both_languages() -> None:
    """Issue 36.5: `stredisko show audit` showed a resend as its code `outbox.resent`. Every
    action the outbox writes to the audit has its words, in Slovak and in English."""
    source = (Path(__file__).parents[3] / "bot/store/outbox.py").read_text(encoding="utf-8")
    actions = set(re.findall(r'record\(db, by, "(outbox\.[a-z_]+)"', source))
    assert {"outbox.resent", "outbox.dropped", "outbox.found_delivered"} <= actions
    catalogue = default_catalogue().languages
    for action in actions:
        key = "audit.action." + action.replace(".", "_")
        assert all(key in catalogue[lang].messages for lang in ("sk", "en")), action


def test_every_action_the_store_writes_reads_in_both_languages() -> None:
    """`stredisko show audit` of a duplicate event showed the store's codes
    (`duplicate.round.open`): every action written by name anywhere in bot/ has its words."""
    root = Path(__file__).parents[3] / "bot"
    actions = {action for path in root.rglob("*.py")
               for action in re.findall(r'record\([^,()]+, [^,()]+, "([a-z_]+\.[a-z_.]+)"',
                                        path.read_text(encoding="utf-8"))}
    assert {"duplicate.round.open", "result.put", "outbox.resent"} <= actions
    catalogue = default_catalogue().languages
    missing = sorted(action for action in actions for lang in ("sk", "en")
                     if "audit.action." + action.replace(".", "_")
                     not in catalogue[lang].messages)
    assert missing == []
