"""The persistent buttons (the head admin's and the players') after a restart: rebuilt from the
custom_id on the message alone, each is the button that was sent — same custom_id, label,
style and state."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord.cogs.admin.review_controls import ApproveButton, DiscrepancyButton
from bot.discord.cogs.admin.round_controls import CheckinButton, ForceButton, PublishButton
from bot.discord.cogs.player import CancelButton, ConfirmDrawButton, WithdrawButton

SENT = [
    (ApproveButton(70, 3, label="Schváliť"), {"pairing_id": 70, "version": 3, "event": None}),
    (DiscrepancyButton(5, "vedomie", label="Beriem na vedomie"), {"discrepancy_id": 5,
                                                                  "how": "vedomie"}),
    (ForceButton("uzavri", 12, label="Uzavrieť aj tak"), {"action": "uzavri", "round_no": 12}),
    (PublishButton(2, label="Zverejniť 2. kolo"), {"round_no": 2, "event": None}),
    (CheckinButton(label="Prezentácia"), {"event": None}),
    (ConfirmDrawButton(4, 1234, label="Potvrdzujem remízu"), {"round_no": 4, "proposer": 1234}),
    (WithdrawButton(987, label="Odstupujem"), {"owner": 987}),
    (CancelButton(987, "Zrušiť"), {"owner": 987}),
    # from a bot serving several events (issue 37): the event comes back with the button
    (ApproveButton(70, 3, 5, "Schváliť"), {"pairing_id": 70, "version": 3, "event": 5}),
    (PublishButton(2, 5, "Zverejniť 2. kolo"), {"round_no": 2, "event": 5}),
    (CheckinButton(5, "Prezentácia"), {"event": 5}),
    (ConfirmDrawButton(4, 1234, 5, "Potvrdzujem remízu"), {"round_no": 4, "event": 5}),
    (WithdrawButton(987, 5, "Odstupujem"), {"owner": 987, "event": 5}),
]


@pytest.mark.parametrize(("sent", "state"), SENT, ids=lambda v: type(v).__name__)
async def test_a_button_is_rebuilt_from_its_custom_id(sent: Any, state: dict[str, Any]) -> None:
    kind = type(sent)
    shown = discord.ui.Button(custom_id=sent.custom_id, label=sent.item.label)
    match = kind.__discord_ui_compiled_template__.fullmatch(sent.custom_id)
    assert match is not None
    rebuilt = await kind.from_custom_id(None, shown, match)  # type: ignore[arg-type]
    assert type(rebuilt) is kind
    assert (rebuilt.custom_id, rebuilt.item.label, rebuilt.item.style) == (
        sent.custom_id, sent.item.label, sent.item.style)
    assert {name: getattr(rebuilt, name) for name in state} == state
