"""The season rehearsal's transcript labels a message by where the chat layer posts it
(issue 44 wording): a season's ladder announced in the season's own channel (`[season]
channel_id`) carries that channel, not the event's."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.clock import ManualClock
from bot.rehearse.season_output import SeasonTranscript
from bot.services.notifier import Message
from bot.services.season.on_finish import SEASON_CHANNEL

PARAMS = {"season": "M-SR", "tournament": "KT", "rule": "SP A3 7.1", "moved_in": "Ana (ana)",
          "moved_out": "—", "entered": 1, "left": 0, "cut": "Hranica postupu: …"}


async def test_a_season_announcement_is_labelled_with_the_seasons_channel() -> None:
    transcript = SeasonTranscript(ManualClock(datetime(2026, 11, 21, 15, tzinfo=UTC)), str)
    transcript.tags[7] = "kt-a #1001"

    await transcript.announce(7, Message("season.ladder_moved_in",
                                         {**PARAMS, SEASON_CHANNEL: 4242}))
    await transcript.announce(7, Message("season.ladder_moved_in", PARAMS))

    assert [line.split("] [kanál]")[0] for line in transcript.lines] == [
        "[16:00] [kt-a #4242", "[16:00] [kt-a #1001"]
