"""The rulings the select offers at a pairing (only those the rules allow there,
`rules.reconcile.allowed_rulings`) and the way back: a select value and the scores typed in
the modal as the (end, params) that `bot.services.tournament.admin.rule` takes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.discord.client import Refusal
from bot.discord.cogs.admin.texts import end_name
from bot.discord.i18n import t
from bot.services.tournament.admin import ENDS_WITH_SCORES
from bot.services.tournament.play import MAX_SCORE
from rules import End
from rules.model import ENDS_WITH_LOSER


def ruling_options(item: Mapping[str, Any], locale: Any) -> list[discord.SelectOption]:
    """The rulings the rules allow at this pairing, each with the player it concerns; the
    value is `end[:player store id | - | agreed]`."""
    players = item.get("players", [])
    options: list[discord.SelectOption] = []

    def add(value: str, key: str, **params: Any) -> None:
        label = t(f"discord_admin.option.{key}", locale, **params)[:100]
        options.append(discord.SelectOption(label=label, value=value))

    for allowed in item.get("allowed", []):
        end = End(allowed)
        name = end_name(end, locale)
        if end in ENDS_WITH_LOSER:
            key = "loser_scores" if end in ENDS_WITH_SCORES else "loser"
            for p in players:
                add(f"{end.value}:{p['id']}", key, end=name, player=p["name"])
        elif end is End.SAVE_FAILED:
            for p in players:
                add(f"{end.value}:{p['id']}", "winner", end=name, player=p["name"])
            add(f"{end.value}:-", "no_agreement", end=name)
            add(f"{end.value}:agreed", "agreed", end=name)
        else:
            add(end.value, "with_scores" if end in ENDS_WITH_SCORES else "plain", end=name)
    return options[:25]  # Discord's limit; allowed_rulings puts the likely ones first


def needs_scores(choice: str) -> bool:
    end, _, who = choice.partition(":")
    return End(end) in ENDS_WITH_SCORES or (End(end) is End.SAVE_FAILED and who == "agreed")


def ruling_of(choice: str, scores: tuple[int, int] | None) -> tuple[End, dict[str, Any]]:
    """A select value (and the scores typed in the modal) as the (end, params) that
    `bot.services.tournament.admin.rule` takes."""
    raw, _, who = choice.partition(":")
    end = End(raw)
    params: dict[str, Any] = {}
    if end in ENDS_WITH_LOSER:
        params["loser"] = who
    elif end is End.SAVE_FAILED:
        if who == "agreed":
            params["agreed"] = True
        elif who != "-":
            params["winner"] = who
    if scores is not None:
        params["first_score"], params["second_score"] = scores
    return end, params


def parse_score(value: str) -> int:
    text = value.strip()
    if not text.isdecimal() or int(text) > MAX_SCORE:
        raise Refusal("discord_admin.bad_score", value=text, max=MAX_SCORE)
    return int(text)
