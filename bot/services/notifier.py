"""The port through which services speak to people, with no knowledge of Discord.

A message is a catalogue key plus parameters; the adapter (Discord, console, a test recorder)
renders it in the reader's language. Official announcements go to the tournament's
control-centre channel (e-SP 2.6); direct messages go to one player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Message:
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    # The outbox key of a stored message: the adapter's idempotency key (Discord's nonce), so
    # a delivery repeated after a crash does not post a second copy. Not part of equality.
    ref: str | None = field(default=None, compare=False)
    # shown where the use case ran (the console), never sent to Discord (`Tx` local)
    local: bool = field(default=False, compare=False)
    # how many of its pieces a message of several already shows where it goes (read back
    # after a crash mid-message): the adapter posts only the rest
    posted: int = field(default=0, compare=False)
    # the event (tournament id) the message is about — its outbox row's: the adapter names the
    # event in the message and tells that event's head admin what could not be delivered
    # (issue 44.5); None: about no event. Not part of equality.
    tournament_id: int | None = field(default=None, compare=False)


class Notifier(Protocol):
    async def announce(self, tournament_id: int, message: Message) -> None:
        """Post to the tournament's control-centre channel."""
        ...

    async def direct(self, player_id: int, message: Message) -> None:
        """Send to one player (a DM); the adapter reports undeliverable ones in the channel."""
        ...

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        """Tell the head administrator (review queue, sync summaries)."""
        ...


@dataclass(slots=True)
class RecordingNotifier:
    """Keeps every message; used by tests and as the rehearsal's transcript source."""

    sent: list[tuple[str, int, Message]] = field(default_factory=list)

    async def announce(self, tournament_id: int, message: Message) -> None:
        self.sent.append(("channel", tournament_id, message))

    async def direct(self, player_id: int, message: Message) -> None:
        self.sent.append(("dm", player_id, message))

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        self.sent.append(("admin", tournament_id, message))

    def keys(self, where: str | None = None) -> list[str]:
        return [m.key for w, _, m in self.sent if where is None or w == where]
