"""One review item as the head admin sees it: who plays, the status and verdict, and the
evidence side by side — the herna.net record, each player's reports, the timeline, disputes
and earlier rulings — every score in the table's order. A discrepancy with a confirmed result
(e-SP 4.7) also shows that result next to what the evidence gives now."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from bot.discord.cogs.admin.texts import FORFEIT_RULE, end_name, when
from bot.discord.i18n import CatalogueError, t
from bot.discord.markdown import literal
from bot.discord.render import FIELD_VALUE_LIMIT, Outgoing, field_messages, split_text
from rules import PlatformEnd


def _names(item: Mapping[str, Any]) -> dict[str, str]:
    """The players' names, escaped once here for Discord (they are put into other texts)."""
    return {str(p["id"]): literal(p["name"]) for p in item.get("players", [])}


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


def _herna_end_name(end: Any, locale: Any) -> str:
    """How herna.net says the game ended (the evidence's `PlatformEnd`, the same words as the
    scraper's `EndKind`): it has ends the rules' own do not, e.g. "unfinished" or "passes"."""
    try:
        return t(f"discord_admin.herna_end.{PlatformEnd(end).value}", locale)
    except (ValueError, CatalogueError):
        return end_name(end, locale)


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
    end = _herna_end_name(p.get("end"), locale)
    if p.get("on") is not None:
        end = t("discord_admin.end_of", locale, end=end, player=names.get(str(p["on"]), "?"))
    made = {str(who): n for who, n in (p.get("moves") or {}).items()}
    moves = ", ".join(f"{names.get(who, who)} {made[who]}"
                      for who in [*order, *sorted(set(made) - set(order))] if who in made)
    ended = p.get("ended")
    line = t("discord_admin.platform_row", locale, game=p.get("game_id", "?"),
             first_score=first, second_score=second, end=end,
             starter=names.get(str(p.get("first")), "?"), moves=moves or "?",
             started=when(p.get("started"), locale),
             ended=when(ended, locale) if ended else t("discord_admin.unfinished", locale),
             recorded=when(row.get("recorded_at"), locale))
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
            lines.append(t("discord_admin.report_row", locale, at=when(r["at"], locale),
                           first_score=first, second_score=second))
        fields.append((t("discord_admin.field.report_of", locale, player=names[pid]),
                       "\n".join(lines) or t("discord_admin.no_report", locale)))
    return fields


def _ruled_by(row: Mapping[str, Any], admins: Mapping[str, str], locale: Any) -> str:
    """Who ruled: the head admin's name on the server if known, never his bare Discord id."""
    if row.get("actor_kind") != "admin":
        return literal(str(row.get("by", "")))
    return literal(admins.get(str(row.get("actor_id")))) or t("discord_admin.head_admin", locale)


def _evidence_fields(item: Mapping[str, Any], locale: Any,
                     admins: Mapping[str, str]) -> list[tuple[str, str]]:
    """The evidence side by side: the platform record, both players' reports with times, the
    timeline of absence / arrival / draw confirmations, disputes and earlier rulings."""
    names, order = _names(item), _table_order(item)
    none = t("discord_admin.none", locale)

    def block(lines: list[str]) -> str:
        return "\n".join(lines) or none

    platform = [_platform_line(r, names, order, locale) for r in item.get("platform", [])]
    timeline = [t("discord_admin.timeline_row", locale, at=when(r["at"], locale),
                  by=literal(r["by"]),
                  what=t(f"discord_admin.what.{r['kind']}", locale))
                for r in item.get("timeline", [])]
    disputes = [t("discord_admin.dispute_row", locale, by=literal(r["by"]),
                  at=when(r["at"], locale), text=literal(r["payload"].get("text", "")))
                + (f" {r['attachment_url']}" if r.get("attachment_url") else "")
                for r in item.get("disputes", [])]
    rulings = [t("discord_admin.ruling_row", locale, at=when(r["at"], locale),
                 by=_ruled_by(r, admins, locale),
                 end=end_name((r["payload"].get("case") or {}).get("end"), locale),
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
             end=end_name(values.get("end"), locale))


def _discrepancy_fields(item: Mapping[str, Any], locale: Any) -> list[tuple[str, str]]:
    """The confirmed result next to what the evidence gives now (e-SP 4.7)."""
    result = item.get("result") or {}
    recomputed = item.get("recomputed") or {}
    confirmed = f"{_result_line(result, locale)} ({result.get('rule') or 'e-SP 4.7'})"
    now = "\n".join(x for x in (_result_line(recomputed, locale),
                                literal(recomputed.get("text"))) if x)
    return [(t("discord_admin.field.confirmed", locale), confirmed),
            (t("discord_admin.field.recomputed", locale), now)]


def _title_params(item: Mapping[str, Any]) -> dict[str, Any]:
    players = [literal(p["name"]) for p in item.get("players", [])] + ["—", "—"]
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
             locale), text=literal(verdict.get("text", "")), rule=rule)


def item_messages(item: Mapping[str, Any], locale: Any,
                  admins: Mapping[str, str] | None = None) -> list[Outgoing]:
    """One review item: who, its status and verdict, the evidence side by side (all scores in
    the table's order); a discrepancy also puts the confirmed result next to the new one.
    `admins` names the head admins who ruled earlier (Discord id → name; see `admin_names`)."""
    fields = _evidence_fields(item, locale, admins or {})
    lines = [_status_line(item, locale)]
    if "discrepancy_id" in item:
        title = t("discord_admin.discrepancy_title", locale,
                  discrepancy_id=item["discrepancy_id"], **_title_params(item))
        lines.append(t("discord_admin.discrepancy_text", locale, rule="e-SP 4.7",
                       found=when(item.get("found_at"), locale),
                       note=literal(item.get("note") or "")))
        fields = [*_discrepancy_fields(item, locale), *fields]
    else:
        title = t("discord_admin.item_title", locale, **_title_params(item))
    lines.append(t("discord_admin.scores_order", locale, **_title_params(item)))
    # Evidence is never cut: a long text is spread over messages, a long field over fields.
    *before, last = split_text("\n".join(lines))
    return [*(Outgoing(content=piece) for piece in before),
            *field_messages(title, _whole_fields(fields), content=last, inline=True)]


def _whole_fields(fields: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Each field whose value is over Discord's 1024 characters as several, at line breaks:
    "Spory (1/2)", "Spory (2/2)" — a dispute or a record is evidence, never cut short."""
    whole: list[tuple[str, str]] = []
    for name, value in fields:
        pieces = split_text(value, FIELD_VALUE_LIMIT) or [value]
        whole += [(name, pieces[0])] if len(pieces) == 1 else [
            (f"{name} ({n}/{len(pieces)})", piece) for n, piece in enumerate(pieces, 1)]
    return whole


async def admin_names(interaction: discord.Interaction,
                      items: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """The server names of the head admins who ruled on `items`, by Discord id: the one asking,
    a cached member, or one asked of Discord once (the bot has no member intent). An admin who
    left the server (or a CLI ruling) is not named here; the item then says "head admin"."""
    ids = {str(r.get("actor_id")) for item in items for r in item.get("rulings", [])
           if r.get("actor_kind") == "admin" and str(r.get("actor_id")).isdecimal()}
    guild = interaction.guild
    names: dict[str, str] = {}
    for admin_id in sorted(ids):
        member: discord.abc.User | None = None
        if int(admin_id) == interaction.user.id:
            member = interaction.user
        elif guild is not None:
            member = guild.get_member(int(admin_id))
            if member is None:
                try:
                    member = await guild.fetch_member(int(admin_id))
                except discord.HTTPException:  # not on the server (any more)
                    continue
        if member is not None:
            names[admin_id] = member.display_name
    return names
