"""The season rehearsal's transcript: the rehearsal's own (`output.Transcript`, rendered by
`bot.console`), each line labelled with the event it belongs to — `[slug #channel]` — as the
chat layer routes it (issue 37)."""

from __future__ import annotations

from collections.abc import Callable

from bot.clock import ManualClock
from bot.rehearse.output import Transcript
from bot.services.notifier import Message
from bot.services.season.on_finish import season_channel


class SeasonTranscript(Transcript):
    """The rehearsal's transcript with each line's event: `[slug #channel]`."""

    def __init__(self, clock: ManualClock, name_of: Callable[[int], str]) -> None:
        super().__init__(clock, name_of)
        self.tags: dict[int, str] = {}  # tournament id -> its label
        self.context: str | None = None  # whose step or timers run now (a DM's event)
        self._speaking: str | None = None  # the tournament a message is posted for

    def add(self, lines: list[str]) -> None:
        tag = self._speaking or self.context
        super().add([f"[{tag}] {line}" for line in lines] if tag else lines)

    def tag_of(self, tournament_id: int | None) -> str:
        """An event's label; one being created is the step's own."""
        if tournament_id is None:
            return ""
        return self.tags.get(tournament_id) or self.context or f"#{tournament_id}"

    async def announce(self, tournament_id: int, message: Message) -> None:
        self._speaking = self.tag_of(tournament_id)
        channel = season_channel(message.params)
        if channel is not None:
            # a season's ladder goes to the season's own channel (issue 37.3), as the chat
            # layer posts it: labelled with that channel, not the event's
            self._speaking = f"{self._speaking.split(' #')[0]} #{channel}"
        try:
            await super().announce(tournament_id, message)
        finally:
            self._speaking = None

    async def to_admin(self, tournament_id: int, message: Message) -> None:
        self._speaking = self.tag_of(tournament_id)
        try:
            await super().to_admin(tournament_id, message)
        finally:
            self._speaking = None
