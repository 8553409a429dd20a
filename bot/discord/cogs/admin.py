"""The head administrator's side of the control centre: the `/admin` command group.

Only members with the tournament's head-admin role get past the cog's check, its buttons, its
select and its modal; everyone else gets one ephemeral line citing e-SP 2.5 and nothing more.
Every command calls one use case of `bot.services` (admin, rounds, setup, sync) — the services
decide, cite the rules and announce in the control centre; this module only asks, shows and
offers the next click. Each answer is deferred first (a "thinking…" reply, or for a click an
update of its message), so a slow store or a long pairing never misses Discord's 3 seconds.

Buttons and the ruling select are `DynamicItem`s whose custom_ids carry what they act on, so a
review queue or a warning still works after a restart. What the head admin may rule at a
pairing comes from the review item (`rules.reconcile.allowed_rulings`); the select offers only
that, and the modal asks for the reason (required, e-SP 2.6) and — where the ruling needs
them — the scores. Each review item shows its evidence side by side, every score in the
table's order; a discrepancy with a confirmed result (e-SP 4.7) also shows that result next to
what the evidence gives now, and is decided by "keep" or "take note" with a required note.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.client import (
    CogFactory,
    Refusal,
    StrediskoBot,
    StrediskoModal,
    report_error,
    require_head_admin,
)
from bot.discord.cogs.player import replace, send
from bot.discord.i18n import SLOVAK, CatalogueError, app_str, format_datetime, language, t
from bot.discord.render import (
    OK_COLOUR,
    REFUSED_COLOUR,
    Outgoing,
    field_messages,
    list_messages,
    render_reply,
    text_messages,
)
from bot.services import admin as admin_service
from bot.services import lookup, rounds, setup, sync
from bot.services.app import App, Tx
from bot.services.replies import Refusal as ServiceRefusal
from bot.services.replies import Reply
from bot.store import (
    find_player_by_discord,
    find_player_by_nick,
    from_text,
    get_entry,
    get_player,
    get_result,
    list_entries,
    pairings_of_round,
)
from rules import End
from rules.model import ENDS_WITH_LOSER

COG_NAME = "AdminCog"
FORFEIT_RULE = "e-SP 4.9"  # only the head administrator rules forfeits
MAX_SCORE = 1500  # as bot.services.play: no Scrabble game reaches it
QUEUE_PAGE = 10  # review items shown per /admin fronta; the rest after these are decided
IMPORT_FILE_LIMIT = 64 * 1024  # a pairing list of 100 tables is a few kB
BYE_WORDS = frozenset({"volno", "voľno", "bye"})
DEFER_AFTER_S = 1.5  # a click answered by editing its message: defer only if work is slow

#: The service warnings that a "… anyway" button overrides: our header and the button label.
WARNINGS = {
    "round.close_warnings": ("discord_admin.close_warnings", "uzavri"),
    "round.open_results": ("discord_admin.pair_warnings", "paruj"),
    "finish.warnings": ("discord_admin.finish_warnings", "ukonci"),
    "round.import_warnings": ("discord_admin.import_warnings", "import"),
}
FORCE_LABELS = {
    "uzavri": "discord_admin.force_close_button",
    "paruj": "discord_admin.force_pair_button",
    "ukonci": "discord_admin.force_finish_button",
    "import": "discord_admin.force_import_button",
}
#: Ends whose ruling needs the score (as played, as agreed, or as it stood at the end).
ENDS_WITH_SCORES = frozenset(
    {End.FINISHED, End.AGREED_DRAW, End.TIME_LOSS, End.RESIGNED, End.DISCONNECTED}
)

HernaFactory = Callable[[], AbstractAsyncContextManager[sync.Herna]]
AttachmentReader = Callable[[discord.Attachment], Awaitable[bytes]]


# -- rendering ---------------------------------------------------------------------------


def render(reply: Reply, locale: Any) -> list[Outgoing]:
    """A service's answer with its rows; a warning that a button overrides gets our header
    (the service's text speaks of the CLI's --force)."""
    header = WARNINGS.get(reply.key)
    if header is None:
        return render_reply(reply, locale)
    params = {k: v for k, v in reply.params.items() if k != "rows"}
    text = t(header[0], locale, **{**params, "rule": reply.rule or ""})
    return render_reply(reply, locale, text=text)


def _when(value: Any, locale: Any) -> str:
    """A stored moment (datetime or the store's text) in Bratislava time."""
    if isinstance(value, str):
        try:
            value = from_text(value)
        except ValueError:
            return value
    if isinstance(value, datetime) and value.tzinfo is not None:
        return format_datetime(value, language(locale))
    return str(value)


def _names(item: Mapping[str, Any]) -> dict[str, str]:
    return {str(p["id"]): p["name"] for p in item.get("players", [])}


def _table_order(item: Mapping[str, Any]) -> list[str]:
    """The pairing's players (store ids) as the table lists them: the first one starts."""
    return [str(p["id"]) for p in item.get("players", [])]


def _in_table_order(whose_first: Any, scores: tuple[Any, Any],
                    order: Sequence[str]) -> tuple[Any, Any]:
    """Scores given as (`whose_first`'s, the other's) in the table's order, so the record and
    both reports read alike even when the players swapped who started."""
    if order and str(whose_first) != order[0]:
        return scores[1], scores[0]
    return scores


def _end_name(end: Any, locale: Any) -> str:
    try:
        return t(f"discord_admin.end.{End(end).value}", locale)
    except (ValueError, CatalogueError):
        return str(end or "?")


def _flag_name(flag: str, locale: Any) -> str:
    try:
        return t(f"discord_admin.flag.{flag}", locale)
    except CatalogueError:  # a flag the sync learns later still shows
        return flag


def _platform_line(row: Mapping[str, Any], names: Mapping[str, str], order: Sequence[str],
                   locale: Any) -> str:
    """One herna.net record: scores and moves in the table's order, how it ended and whom the
    end concerns, who started, when it ran and when we read it."""
    p = row.get("payload") or {}
    first, second = _in_table_order(
        p.get("first"), (p.get("first_score", "?"), p.get("second_score", "?")), order)
    end = _end_name(p.get("end"), locale)
    if p.get("on") is not None:
        end = t("discord_admin.end_of", locale, end=end, player=names.get(str(p["on"]), "?"))
    made = {str(who): n for who, n in (p.get("moves") or {}).items()}
    moves = ", ".join(f"{names.get(who, who)} {made[who]}"
                      for who in [*order, *sorted(set(made) - set(order))] if who in made)
    ended = p.get("ended")
    line = t("discord_admin.platform_row", locale, game=p.get("game_id", "?"),
             first_score=first, second_score=second, end=end,
             starter=names.get(str(p.get("first")), "?"), moves=moves or "?",
             started=_when(p.get("started"), locale),
             ended=_when(ended, locale) if ended else t("discord_admin.unfinished", locale),
             recorded=_when(row.get("recorded_at"), locale))
    flags = [_flag_name(str(f), locale) for f in p.get("flags") or ()]
    if flags:
        line = f"{line} {t('discord_admin.flags', locale, flags=', '.join(flags))}"
    return line


def _report_fields(item: Mapping[str, Any], locale: Any) -> list[tuple[str, str]]:
    """Each player's own reports (with times) in a field of his, side by side; a player who
    reported nothing says so, which is evidence too (e-SP 4.6)."""
    names, order = _names(item), _table_order(item)
    fields = []
    for pid in order:
        lines = []
        for r in item.get("reports", []):
            if str(r.get("actor_id")) != pid:
                continue
            own, other = r["payload"].get("own", "?"), r["payload"].get("opponent", "?")
            first, second = _in_table_order(pid, (own, other), order)
            lines.append(t("discord_admin.report_row", locale, at=_when(r["at"], locale),
                           first_score=first, second_score=second))
        fields.append((t("discord_admin.field.report_of", locale, player=names[pid]),
                       "\n".join(lines) or t("discord_admin.no_report", locale)))
    return fields


def _evidence_fields(item: Mapping[str, Any], locale: Any) -> list[tuple[str, str]]:
    """The evidence side by side: the platform record, both players' reports with times, the
    timeline of absence / arrival / draw confirmations, disputes and earlier rulings."""
    names, order = _names(item), _table_order(item)
    none = t("discord_admin.none", locale)

    def block(lines: list[str]) -> str:
        return "\n".join(lines) or none

    platform = [_platform_line(r, names, order, locale) for r in item.get("platform", [])]
    timeline = [t("discord_admin.timeline_row", locale, at=_when(r["at"], locale), by=r["by"],
                  what=t(f"discord_admin.what.{r['kind']}", locale))
                for r in item.get("timeline", [])]
    disputes = [t("discord_admin.dispute_row", locale, by=r["by"], at=_when(r["at"], locale),
                  text=r["payload"].get("text", ""))
                + (f" {r['attachment_url']}" if r.get("attachment_url") else "")
                for r in item.get("disputes", [])]
    rulings = [t("discord_admin.ruling_row", locale, at=_when(r["at"], locale), by=r["by"],
                 end=_end_name((r["payload"].get("case") or {}).get("end"), locale),
                 reason=r["payload"].get("reason", "")) for r in item.get("rulings", [])]
    fields = [(t("discord_admin.field.platform", locale), block(platform)),
              *_report_fields(item, locale),
              (t("discord_admin.field.timeline", locale), block(timeline))]
    if disputes:
        fields.append((t("discord_admin.field.disputes", locale), block(disputes)))
    if rulings:
        fields.append((t("discord_admin.field.rulings", locale), block(rulings)))
    return fields


def _result_line(values: Mapping[str, Any], locale: Any) -> str:
    scores = [*(values.get("scores") or ()), "?", "?"]
    points = [*(values.get("points") or ()), "?", "?"]
    return t("discord_admin.result_row", locale, first_score=scores[0],
             second_score=scores[1], first_points=points[0], second_points=points[1],
             end=_end_name(values.get("end"), locale))


def _discrepancy_fields(item: Mapping[str, Any], locale: Any) -> list[tuple[str, str]]:
    """The confirmed result next to what the evidence gives now (e-SP 4.7)."""
    result = item.get("result") or {}
    recomputed = item.get("recomputed") or {}
    confirmed = f"{_result_line(result, locale)} ({result.get('rule') or 'e-SP 4.7'})"
    now = "\n".join(x for x in (_result_line(recomputed, locale), recomputed.get("text")) if x)
    return [(t("discord_admin.field.confirmed", locale), confirmed),
            (t("discord_admin.field.recomputed", locale), now)]


def _title_params(item: Mapping[str, Any]) -> dict[str, Any]:
    players = [p["name"] for p in item.get("players", [])] + ["—", "—"]
    return {"round": item["round"], "table": item["table"], "first": players[0],
            "second": players[1]}


def _status_line(item: Mapping[str, Any], locale: Any) -> str:
    status = item.get("status")
    if status is None:
        return t("discord_admin.item_no_result", locale)
    verdict = item.get("verdict") or {}
    rules_cited = verdict.get("rules") or []
    rule = (item.get("result") or {}).get("rule") or ", ".join(rules_cited) or FORFEIT_RULE
    return t("discord_admin.item_status", locale, status=t(f"discord_admin.status.{status}",
             locale), text=verdict.get("text", ""), rule=rule)


def item_messages(item: Mapping[str, Any], locale: Any) -> list[Outgoing]:
    """One review item: who, its status and verdict, the evidence side by side (all scores in
    the table's order); a discrepancy also puts the confirmed result next to the new one."""
    fields = _evidence_fields(item, locale)
    lines = [_status_line(item, locale)]
    if "discrepancy_id" in item:
        title = t("discord_admin.discrepancy_title", locale,
                  discrepancy_id=item["discrepancy_id"], **_title_params(item))
        lines.append(t("discord_admin.discrepancy_text", locale, rule="e-SP 4.7",
                       found=_when(item.get("found_at"), locale), note=item.get("note") or ""))
        fields = [*_discrepancy_fields(item, locale), *fields]
    else:
        title = t("discord_admin.item_title", locale, **_title_params(item))
    lines.append(t("discord_admin.scores_order", locale, **_title_params(item)))
    return field_messages(title, fields, content="\n".join(lines)[:2000], inline=True)


def checkin_messages(state: Mapping[str, Any], locale: Any) -> list[Outgoing]:
    """Who has checked in (and when) and who has not, as two lists (e-SP 2.2)."""
    none = [t("discord_admin.none", locale)]
    present = [t("discord_admin.checkin.present_row", locale, name=r["name"], nick=r["nick"],
                 at=_when(r["at"], locale)) for r in state["present"]]
    missing = [t("discord_admin.checkin.missing_row", locale, name=r["name"], nick=r["nick"])
               for r in state["missing"]]
    return [
        *list_messages(t("discord_admin.checkin.present", locale, n=len(present)),
                       present or none, colour=OK_COLOUR),
        *list_messages(t("discord_admin.checkin.missing", locale, n=len(missing)),
                       missing or none, colour=REFUSED_COLOUR),
    ]


# -- the choices the select offers -------------------------------------------------------


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
        name = _end_name(end, locale)
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
    `bot.services.admin.rule` takes."""
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
    if not text.isdigit() or int(text) > MAX_SCORE:
        raise Refusal("discord_admin.bad_score", value=text, max=MAX_SCORE)
    return int(text)


# -- imported pairings -------------------------------------------------------------------


def parse_pairings(text: str) -> list[tuple[str, str | None]]:
    """One table per line (or per `;`): the nick who starts, then the opponent's nick or
    "volno" for a bye; a leading table number and separators like "–" or ":" are ignored."""
    tables: list[tuple[str, str | None]] = []
    for n, raw in enumerate(re.split(r"[;\n]", text), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = [w for w in re.split(r"[\s,:–—]+", line) if w and w != "-"]
        if words and words[0].rstrip(".").isdigit() and len(words) > 2:
            words = words[1:]  # "1. ana bob" or "1 ana bob": the table number
        if len(words) != 2:
            raise Refusal("discord_admin.bad_line", line=n, text=line[:100])
        first, second = words
        tables.append((first, None if second.lower() in BYE_WORDS else second))
    if not tables:
        raise Refusal("discord_admin.no_tables")
    return tables


async def read_attachment(attachment: discord.Attachment) -> bytes:
    return await attachment.read()


# -- review items outside the queue (for /admin rozhodni) ---------------------------------


def _review_item(tx: Tx, slug: str, round_no: int, table_no: int) -> dict[str, Any]:
    """The review item of any pairing. bot.services.admin builds items only for its queue,
    so its item builder is reused here (requested as a public `review_item`)."""
    t_ = lookup.tournament(tx, slug)
    pairing = next((p for p in pairings_of_round(tx.db, t_.id, round_no)
                    if p.table_no == table_no), None)
    if pairing is None:
        raise ServiceRefusal("discord_admin.unknown_table", round=round_no, table=table_no)
    profile = tx.profile(t_.profile)
    return admin_service._item(tx, t_, profile, pairing, get_result(tx.db, pairing.id))


def _find_player(tx: Tx, slug: str, who: str) -> int:
    """A player of the tournament by @mention, Discord id or herna.net nick."""
    t_ = lookup.tournament(tx, slug)
    text = who.strip()
    mention = re.fullmatch(r"<@!?(\d+)>|(\d{15,20})", text)
    player = None
    if mention:
        player = find_player_by_discord(tx.db, int(mention.group(1) or mention.group(2)))
    if player is None:
        player = find_player_by_nick(tx.db, text.lstrip("@"))
    if player is None or get_entry(tx.db, t_.id, player.id) is None:
        raise ServiceRefusal("discord_admin.unknown_player", who=text[:60])
    return player.id


def _proposal_version(tx: Tx, pairing_id: int) -> int | None:
    result = get_result(tx.db, pairing_id)
    return None if result is None else result.version


def _checkin(tx: Tx, slug: str) -> dict[str, Any]:
    """The check-in as the head admin sees it: the players still in the tournament who have
    checked in (with the time) and those who have not (e-SP 2.2)."""
    t_ = lookup.tournament(tx, slug)
    present: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    for entry in list_entries(tx.db, t_.id, active_only=True):
        player = get_player(tx.db, entry.player_id)
        row = {"name": player.name, "nick": player.herna_nick, "at": entry.checked_in_at}
        (missing if entry.checked_in_at is None else present).append(row)
    return {"present": present, "missing": missing}


# -- persistent components ---------------------------------------------------------------


def _cog(interaction: discord.Interaction) -> AdminCog:
    cog = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if not isinstance(cog, AdminCog):
        raise RuntimeError("the admin cog is not loaded")
    return cog


async def _on_click(interaction: discord.Interaction, work: Callable[[AdminCog], Awaitable[Reply]],
                    view: discord.ui.View | None = None) -> None:
    """A button or select of the head admin: checked, deferred, done; on success the message
    it sat on is replaced by the outcome (its buttons gone), a refusal comes ephemerally."""
    try:
        require_head_admin(interaction)
        cog = _cog(interaction)
        task = asyncio.ensure_future(work(cog))
        finished, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_S)
        if not finished:  # slow: acknowledge now (Discord's 3 s), edit the message later
            await interaction.response.defer()
        reply = await task
        pieces = render(reply, interaction.locale)
        if reply.ok:
            await replace(interaction, pieces)
        else:
            await send(interaction, pieces, view=view)
    except Exception as error:  # dynamic items have no on_error: answer like commands
        await report_error(interaction, error)


class ForceButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:aj-tak:(?P<action>paruj|uzavri|ukonci):(?P<round>[0-9]+)",
):
    """"… anyway" after a warning: pair with open results, close a round, finish."""

    def __init__(self, action: str, round_no: int, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t(FORCE_LABELS[action]), style=discord.ButtonStyle.danger,
            custom_id=f"stredisko:admin:aj-tak:{action}:{round_no}"))
        self.action = action
        self.round_no = round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> ForceButton:
        return cls(match["action"], int(match["round"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        admin = str(interaction.user.id)

        def work(cog: AdminCog) -> Awaitable[Reply]:
            if self.action == "paruj":
                return rounds.pair_round(cog.app, cog.slug, self.round_no, admin, force=True)
            if self.action == "uzavri":
                return rounds.close_round(cog.app, cog.slug, self.round_no, admin, force=True)
            return rounds.finish_tournament(cog.app, cog.slug, admin, force=True)

        await _on_click(interaction, work)


class PublishButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:zverejni:(?P<round>[0-9]+)",
):
    """Publish the round just paired (the service announces the tables)."""

    def __init__(self, round_no: int, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t("discord_admin.publish_button", round=round_no),
            style=discord.ButtonStyle.success, custom_id=f"stredisko:admin:zverejni:{round_no}"))
        self.round_no = round_no

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> PublishButton:
        return cls(int(match["round"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        await _on_click(interaction, lambda cog: rounds.publish_round(
            cog.app, cog.slug, self.round_no, str(interaction.user.id)))


class ApproveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:schval:(?P<pairing>[0-9]+):(?P<version>[0-9]+)",
):
    """One click: the forfeit proposal as proposed (e-SP 4.9). The custom_id carries the
    result version shown, so a proposal that changed since is not approved blindly."""

    def __init__(self, pairing_id: int, version: int, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t("discord_admin.approve_button"), style=discord.ButtonStyle.success,
            custom_id=f"stredisko:admin:schval:{pairing_id}:{version}"))
        self.pairing_id = pairing_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> ApproveButton:
        return cls(int(match["pairing"]), int(match["version"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        async def work(cog: AdminCog) -> Reply:
            # Two transactions: `approve` takes no expected version (requested from its owner).
            version = await cog.app.run(_proposal_version, self.pairing_id)
            if version != self.version:
                return Reply(False, "discord_admin.stale", rule=FORFEIT_RULE)
            return await admin_service.approve(cog.app, cog.slug, interaction.user.id,
                                               self.pairing_id)

        await _on_click(interaction, work)


class RulingSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"stredisko:admin:rozhodni:(?P<pairing>[0-9]+)",
):
    """Rule otherwise: only the rulings the rules allow here; choosing one opens the modal."""

    def __init__(self, pairing_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"stredisko:admin:rozhodni:{pairing_id}", options=options or [],
            placeholder=placeholder or t("discord_admin.rule_placeholder"),
            min_values=1, max_values=1))
        self.pairing_id = pairing_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: Any, /) -> RulingSelect:
        return cls(int(match["pairing"]), list(item.options), item.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            require_head_admin(interaction)
            choice = self.item.values[0]
            await interaction.response.send_modal(
                RulingModal(self.pairing_id, choice, interaction.locale))
        except Exception as error:
            await report_error(interaction, error)


class RulingModal(StrediskoModal):
    """The reason (required) and, where the ruling needs them, the scores."""

    def __init__(self, pairing_id: int, choice: str, locale: Any) -> None:
        super().__init__(title=t("discord_admin.modal_title", locale)[:45],
                         custom_id=f"stredisko:admin:dovod:{pairing_id}:{choice}"[:100])
        self.pairing_id = pairing_id
        self.choice = choice
        self.reason = discord.ui.TextInput(
            label=t("discord_admin.reason_label", locale)[:45], custom_id="dovod",
            style=discord.TextStyle.paragraph, required=True, max_length=500)
        self.add_item(self.reason)
        self.scores: tuple[discord.ui.TextInput, discord.ui.TextInput] | None = None
        if needs_scores(choice):
            self.scores = (
                discord.ui.TextInput(label=t("discord_admin.first_score_label", locale)[:45],
                                     custom_id="skore1", max_length=4),
                discord.ui.TextInput(label=t("discord_admin.second_score_label", locale)[:45],
                                     custom_id="skore2", max_length=4),
            )
            for box in self.scores:
                self.add_item(box)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        return require_head_admin(interaction)

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        scores = None
        if self.scores is not None:
            scores = (parse_score(self.scores[0].value), parse_score(self.scores[1].value))
        ruling = ruling_of(self.choice, scores)
        reason = self.reason.value

        async def work(cog: AdminCog) -> Reply:
            return await admin_service.rule(cog.app, cog.slug, interaction.user.id,
                                            self.pairing_id, ruling, reason)

        await _on_click(interaction, work)


class CheckinButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:prezentacia",
):
    """Under the check-in answers: the lists of who has and has not checked in, any time
    (the answer itself stays as the service gave it; the lists come ephemerally)."""

    def __init__(self, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t("discord_admin.checkin.button"), style=discord.ButtonStyle.secondary,
            custom_id="stredisko:admin:prezentacia"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> CheckinButton:
        return cls(item.label)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            require_head_admin(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await _cog(interaction).show_checkin(interaction)
        except Exception as error:
            await report_error(interaction, error)


def checkin_view(locale: Any) -> Callable[[Reply], discord.ui.View | None]:
    """After opening or closing the check-in, the button to the lists."""
    def build(reply: Reply) -> discord.ui.View | None:
        if not reply.ok:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(CheckinButton(t("discord_admin.checkin.button", locale)))
        return view
    return build


class DiscrepancyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"stredisko:admin:nezhoda:(?P<id>[0-9]+):(?P<how>ponechat|vedomie)",
):
    """A discrepancy's decision (e-SP 4.7: the confirmed result stays either way): keep the
    confirmed result, or take the new record note; the modal asks why."""

    def __init__(self, discrepancy_id: int, how: str, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or t(f"discord_admin.discrepancy_button.{how}"),
            style=discord.ButtonStyle.primary if how == "ponechat"
            else discord.ButtonStyle.secondary,
            custom_id=f"stredisko:admin:nezhoda:{discrepancy_id}:{how}"))
        self.discrepancy_id = discrepancy_id
        self.how = how

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> DiscrepancyButton:
        return cls(int(match["id"]), match["how"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        try:
            require_head_admin(interaction)
            await interaction.response.send_modal(
                DiscrepancyModal(self.discrepancy_id, self.how, interaction.locale))
        except Exception as error:
            await report_error(interaction, error)


class DiscrepancyModal(StrediskoModal):
    """The head admin's note on a discrepancy (required); stored in Slovak, the language of
    the audit log, behind the decision's own words."""

    def __init__(self, discrepancy_id: int, how: str, locale: Any) -> None:
        super().__init__(title=t(f"discord_admin.discrepancy_button.{how}", locale)[:45],
                         custom_id=f"stredisko:admin:nezhoda-dovod:{discrepancy_id}:{how}")
        self.discrepancy_id = discrepancy_id
        self.how = how
        self.note = discord.ui.TextInput(
            label=t("discord_admin.reason_label", locale)[:45], custom_id="dovod",
            style=discord.TextStyle.paragraph, required=True, max_length=500)
        self.add_item(self.note)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        return require_head_admin(interaction)

    async def on_submit(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        note = self.note.value.strip()
        if not note:  # the decision's words alone would pass the service's check
            raise Refusal("admin.reason_required", rule="e-SP 2.6")
        resolution = t(f"discord_admin.resolution.{self.how}", SLOVAK, note=note)

        async def work(cog: AdminCog) -> Reply:
            return await admin_service.resolve_discrepancy(
                cog.app, cog.slug, interaction.user.id, self.discrepancy_id, resolution)

        await _on_click(interaction, work)


class ImportView(discord.ui.View):
    """"Import anyway" for the warned list: it holds the tables, so it lives 15 minutes."""

    def __init__(self, round_no: int, tables: list[tuple[str, str | None]], locale: Any) -> None:
        super().__init__(timeout=900)
        self.round_no = round_no
        self.tables = tables
        button: discord.ui.Button[ImportView] = discord.ui.Button(
            label=t(FORCE_LABELS["import"], locale), style=discord.ButtonStyle.danger,
            custom_id=f"stredisko:admin:import:{round_no}")
        button.callback = self._force  # type: ignore[method-assign]
        self.add_item(button)

    async def _force(self, interaction: discord.Interaction) -> None:
        await _on_click(interaction, lambda cog: rounds.import_pairings(
            cog.app, cog.slug, self.round_no, self.tables, str(interaction.user.id), force=True))


def review_view(item: Mapping[str, Any], locale: Any) -> discord.ui.View | None:
    """The one-click decisions under a review item: approve a proposal as proposed, or rule
    otherwise with one of the allowed rulings; for a discrepancy, keep the confirmed result or
    take note (e-SP 4.7)."""
    view = discord.ui.View(timeout=None)
    if "discrepancy_id" in item:
        for how in ("ponechat", "vedomie"):
            view.add_item(DiscrepancyButton(item["discrepancy_id"], how,
                                            t(f"discord_admin.discrepancy_button.{how}", locale)))
        return view
    verdict = item.get("verdict") or {}
    result = item.get("result") or {}
    if item.get("status") == "proposed" and verdict.get("kind") == "proposal":
        view.add_item(ApproveButton(item["pairing_id"], int(result.get("version", 0)),
                                    t("discord_admin.approve_button", locale)))
    options = ruling_options(item, locale)
    if options and item.get("status") != "confirmed":
        view.add_item(RulingSelect(item["pairing_id"], options,
                                   t("discord_admin.rule_placeholder", locale)))
    return view if view.children else None


DYNAMIC_ITEMS = (ForceButton, PublishButton, ApproveButton, RulingSelect, DiscrepancyButton,
                 CheckinButton)


# -- the cog -----------------------------------------------------------------------------


def _param(key: str) -> app_commands.locale_str:
    return app_str(key)


@app_commands.guild_only()
class AdminCog(
    commands.GroupCog,
    name=COG_NAME,
    group_name=app_str("app.admin.name"),
    group_description=app_str("app.admin.description"),
):
    def __init__(self, bot: commands.Bot, app: App, slug: str, *,
                 herna: HernaFactory | None = None,
                 read: AttachmentReader = read_attachment) -> None:
        self.bot = bot
        self.app = app
        self.slug = slug
        self.herna = herna
        self.read = read
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        require_head_admin(interaction)  # first: nobody else learns anything, not even the slug
        if not self.slug:
            raise Refusal("discord.no_tournament")
        return True

    async def answer(self, interaction: discord.Interaction, work: Awaitable[Reply], *,
                     view: Callable[[Reply], discord.ui.View | None] | None = None) -> Reply:
        """Defer (Discord's 3 s), run the use case, answer ephemerally with its rows and, if
        `view` offers one, the next click."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await work
        await send(interaction, render(reply, interaction.locale),
                   view=view(reply) if view is not None else None)
        return reply

    def _force_view(self, action: str, round_no: int, locale: Any
                    ) -> Callable[[Reply], discord.ui.View | None]:
        def build(reply: Reply) -> discord.ui.View | None:
            if reply.ok or reply.key not in WARNINGS:
                return None
            view = discord.ui.View(timeout=None)
            view.add_item(ForceButton(action, round_no, t(FORCE_LABELS[action], locale)))
            return view
        return build

    # -- check-in ------------------------------------------------------------------------

    prezentacia = app_commands.Group(name=app_str("app.prezentacia.name"),
                                     description=app_str("app.admin.prezentacia.description"))

    @prezentacia.command(name=app_str("app.admin.otvor.name"),
                         description=app_str("app.admin.otvor.description"))
    async def otvor(self, interaction: discord.Interaction) -> None:
        await self.answer(interaction, setup.open_checkin(self.app, self.slug,
                                                          str(interaction.user.id)),
                          view=checkin_view(interaction.locale))

    @prezentacia.command(name=app_str("app.admin.zatvor.name"),
                         description=app_str("app.admin.zatvor.description"))
    async def zatvor(self, interaction: discord.Interaction) -> None:
        await self.answer(interaction, setup.close_checkin(self.app, self.slug,
                                                           str(interaction.user.id)),
                          view=checkin_view(interaction.locale))

    @prezentacia.command(name=app_str("app.admin.prehlad.name"),
                         description=app_str("app.admin.prehlad.description"))
    async def prehlad(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.show_checkin(interaction)

    async def show_checkin(self, interaction: discord.Interaction) -> None:
        """Who has checked in and who has not, to the head admin alone."""
        state = await self.app.run(_checkin, self.slug)
        if isinstance(state, Reply):  # e.g. the tournament is not in the store
            await send(interaction, render(state, interaction.locale))
            return
        await send(interaction, checkin_messages(state, interaction.locale))

    # -- rounds --------------------------------------------------------------------------

    @app_commands.command(name=app_str("app.admin.paruj.name"),
                          description=app_str("app.admin.paruj.description"))
    @app_commands.rename(kolo=_param("app.param.kolo"))
    @app_commands.describe(kolo=_param("app.param.kolo_description"))
    async def paruj(self, interaction: discord.Interaction,
                    kolo: app_commands.Range[int, 1, 99]) -> None:
        locale = interaction.locale
        force = self._force_view("paruj", kolo, locale)

        def next_click(reply: Reply) -> discord.ui.View | None:
            if reply.ok:  # paired: publishing is the next step
                view = discord.ui.View(timeout=None)
                view.add_item(PublishButton(kolo, t("discord_admin.publish_button", locale,
                                                    round=kolo)))
                return view
            return force(reply)

        await self.answer(interaction, rounds.pair_round(self.app, self.slug, kolo,
                                                         str(interaction.user.id)),
                          view=next_click)

    @app_commands.command(name=app_str("app.admin.zverejni.name"),
                          description=app_str("app.admin.zverejni.description"))
    @app_commands.rename(kolo=_param("app.param.kolo"))
    @app_commands.describe(kolo=_param("app.param.kolo_description"))
    async def zverejni(self, interaction: discord.Interaction,
                       kolo: app_commands.Range[int, 1, 99]) -> None:
        await self.answer(interaction, rounds.publish_round(self.app, self.slug, kolo,
                                                            str(interaction.user.id)))

    @app_commands.command(name=app_str("app.admin.import.name"),
                          description=app_str("app.admin.import.description"))
    @app_commands.rename(kolo=_param("app.param.kolo"), subor=_param("app.admin.param.subor"),
                         text=_param("app.admin.param.text"))
    @app_commands.describe(kolo=_param("app.param.kolo_description"),
                           subor=_param("app.admin.param.subor_description"),
                           text=_param("app.admin.param.text_description"))
    async def import_(self, interaction: discord.Interaction,
                      kolo: app_commands.Range[int, 1, 99],
                      subor: discord.Attachment | None = None,
                      text: app_commands.Range[str, 1, 4000] | None = None) -> None:
        source = text or ""
        if subor is not None:
            source = await self._read(subor)
        tables = parse_pairings(source)
        locale = interaction.locale

        def next_click(reply: Reply) -> discord.ui.View | None:
            if reply.ok:
                view = discord.ui.View(timeout=None)
                view.add_item(PublishButton(kolo, t("discord_admin.publish_button", locale,
                                                    round=kolo)))
                return view
            if reply.key == "round.import_warnings":
                return ImportView(kolo, tables, locale)
            return self._force_view("paruj", kolo, locale)(reply)  # previous round still open

        await self.answer(interaction, rounds.import_pairings(
            self.app, self.slug, kolo, tables, str(interaction.user.id)), view=next_click)

    async def _read(self, attachment: discord.Attachment) -> str:
        if attachment.size > IMPORT_FILE_LIMIT:
            raise Refusal("discord_admin.bad_file", filename=attachment.filename,
                          limit=IMPORT_FILE_LIMIT)
        try:
            return (await self.read(attachment)).decode("utf-8-sig")
        except (UnicodeDecodeError, discord.HTTPException):
            raise Refusal("discord_admin.bad_file", filename=attachment.filename,
                          limit=IMPORT_FILE_LIMIT) from None

    @app_commands.command(name=app_str("app.admin.uzavri.name"),
                          description=app_str("app.admin.uzavri.description"))
    @app_commands.rename(kolo=_param("app.param.kolo"))
    @app_commands.describe(kolo=_param("app.param.kolo_description"))
    async def uzavri(self, interaction: discord.Interaction,
                     kolo: app_commands.Range[int, 1, 99]) -> None:
        await self.answer(interaction, rounds.close_round(self.app, self.slug, kolo,
                                                          str(interaction.user.id)),
                          view=self._force_view("uzavri", kolo, interaction.locale))

    @app_commands.command(name=app_str("app.admin.ukonci.name"),
                          description=app_str("app.admin.ukonci.description"))
    async def ukonci(self, interaction: discord.Interaction) -> None:
        await self.answer(interaction, rounds.finish_tournament(self.app, self.slug,
                                                                str(interaction.user.id)),
                          view=self._force_view("ukonci", 0, interaction.locale))

    # -- rulings -------------------------------------------------------------------------

    @app_commands.command(name=app_str("app.admin.fronta.name"),
                          description=app_str("app.admin.fronta.description"))
    async def fronta(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await admin_service.review_queue(self.app, self.slug)
        locale = interaction.locale
        await send(interaction, render(Reply(reply.ok, reply.key, reply.params, reply.rule),
                                       locale))
        if not reply.ok:
            return
        data = reply.data or {}
        items = [*data.get("results", []), *data.get("discrepancies", [])]
        for item in items[:QUEUE_PAGE]:
            await self._show_item(interaction, item)
        if len(items) > QUEUE_PAGE:
            await send(interaction, text_messages(
                t("discord_admin.queue_more", locale, n=len(items) - QUEUE_PAGE)))

    async def _show_item(self, interaction: discord.Interaction, item: Mapping[str, Any]) -> None:
        locale = interaction.locale
        await send(interaction, item_messages(item, locale), view=review_view(item, locale))

    @app_commands.command(name=app_str("app.admin.rozhodni.name"),
                          description=app_str("app.admin.rozhodni.description"))
    @app_commands.rename(kolo=_param("app.param.kolo"), stol=_param("app.admin.param.stol"))
    @app_commands.describe(kolo=_param("app.param.kolo_description"),
                           stol=_param("app.admin.param.stol_description"))
    async def rozhodni(self, interaction: discord.Interaction,
                       kolo: app_commands.Range[int, 1, 99],
                       stol: app_commands.Range[int, 1, 999]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        item = await self.app.run(_review_item, self.slug, kolo, stol)
        if isinstance(item, Reply):
            await send(interaction, render(item, interaction.locale))
            return
        await self._show_item(interaction, item)

    # -- players -------------------------------------------------------------------------

    async def _about_player(self, interaction: discord.Interaction, who: str,
                            act: Callable[[int], Awaitable[Reply]]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.app.run(_find_player, self.slug, who)
        reply = found if isinstance(found, Reply) else await act(found)
        await send(interaction, render(reply, interaction.locale))

    @app_commands.command(name=app_str("app.admin.vyluc.name"),
                          description=app_str("app.admin.vyluc.description"))
    @app_commands.rename(hrac=_param("app.admin.param.hrac"), dovod=_param("app.param.dovod"))
    @app_commands.describe(hrac=_param("app.admin.param.hrac_description"),
                           dovod=_param("app.admin.param.dovod_vylucenia_description"))
    async def vyluc(self, interaction: discord.Interaction,
                    hrac: app_commands.Range[str, 1, 60],
                    dovod: app_commands.Range[str, 1, 500]) -> None:
        await self._about_player(interaction, hrac, lambda pid: admin_service.exclude(
            self.app, self.slug, interaction.user.id, pid, dovod))

    @app_commands.command(name=app_str("app.admin.obnov.name"),
                          description=app_str("app.admin.obnov.description"))
    @app_commands.rename(hrac=_param("app.admin.param.hrac"), dovod=_param("app.param.dovod"))
    @app_commands.describe(hrac=_param("app.admin.param.hrac_description"),
                           dovod=_param("app.admin.param.dovod_vylucenia_description"))
    async def obnov(self, interaction: discord.Interaction,
                    hrac: app_commands.Range[str, 1, 60],
                    dovod: app_commands.Range[str, 1, 500]) -> None:
        await self._about_player(interaction, hrac, lambda pid: admin_service.reinstate(
            self.app, self.slug, interaction.user.id, pid, dovod))

    # -- herna.net -----------------------------------------------------------------------

    @app_commands.command(name=app_str("app.admin.synchronizuj.name"),
                          description=app_str("app.admin.synchronizuj.description"))
    async def synchronizuj(self, interaction: discord.Interaction) -> None:
        if self.herna is None:
            raise Refusal("discord_admin.sync_unavailable", slug=self.slug)
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.herna() as client:
            reply = await sync.sync_command(self.app, self.slug, client)
        await send(interaction, render(reply, interaction.locale))


def admin_cog_factory(app: App | Sequence[App], slug: str, *,
                      herna: HernaFactory | None = None) -> CogFactory:
    """For `StrediskoBot(cogs=[...])`; `app` may be the runner's one-element holder, read at
    set-up time (the App's notifier needs the bot). `herna` opens a logged-in herna.net
    client for `/admin synchronizuj` (None: the command says how to sync from the CLI)."""

    def build(bot: StrediskoBot) -> commands.Cog:
        resolved = app if isinstance(app, App) else app[0]
        return AdminCog(bot, resolved, slug, herna=herna)

    return build
