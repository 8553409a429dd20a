"""Limits Discord documents and enforces (400 Invalid Form Body) that its OpenAPI spec's
schemas do not hold, or hold only in part — checked on every request body the harness records.

Sources (developer documentation, API v10): "Embed Limits" (Resources › Message), "Component
reference" (action rows, buttons, selects, text inputs), "Interactions › Receiving and
Responding" (modals), "Application Commands" (naming, option and choice limits, localisation).
Each finding is (JSON path, value, rule); the rule names the limit and its source.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import regex

Finding = tuple[str, Any, str]

INT53 = 2**53 - 1  # Discord's bound for integer and number option values (±)
COMMAND_NAME = regex.compile(r"^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
COMPONENTS_V2 = 1 << 15  # message flag: components are laid out freely, not in rows
SELECTS = (3, 5, 6, 7, 8)  # string, user, role, mentionable, channel select

_EMBED = "Discord docs, Embed Limits"
_COMPONENTS = "Discord docs, Component reference"
_COMMANDS = "Discord docs, Application Commands"
_MODAL = "Discord docs, Interaction Response › Modal"
_MESSAGE = "Discord docs, Create Message"

# the operations whose body is a message, a list or one of commands, an interaction response
_MESSAGE_BODIES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
_COMMAND_LISTS = {
    ("PUT", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
}
_ONE_COMMAND = {
    ("POST", "/applications/{application_id}/commands"),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("PATCH", "/applications/{application_id}/commands/{command_id}"),
    ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}"),
}
_CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")


def check(method: str, template: str, body: Any, locales: frozenset[str]) -> list[Finding]:
    """Every documented limit `body` breaks, for the operation `method template`."""
    key = (method, template)
    if key in _MESSAGE_BODIES and isinstance(body, Mapping):
        return list(message(body, "$"))
    if key in _COMMAND_LISTS and isinstance(body, list):
        return list(command_list(body, locales))
    if key in _ONE_COMMAND and isinstance(body, Mapping):
        return list(command(body, "$", locales))
    if key == _CALLBACK and isinstance(body, Mapping):
        return list(callback(body))
    return []


def _too_long(text: Any, limit: int, path: str, source: str, least: int = 0) -> Iterator[Finding]:
    if isinstance(text, str) and not least <= len(text) <= limit:
        bound = f"≤ {limit}" if least == 0 else f"{least}–{limit}"
        yield path, text, f"length {bound} characters ({source})"


def _number(item: Mapping[str, Any], key: str, default: int) -> int:
    value = item.get(key)
    return default if value is None else value


# ----- messages -------------------------------------------------------------------------------


def callback(body: Mapping[str, Any]) -> Iterator[Finding]:
    data = body.get("data")
    if not isinstance(data, Mapping):
        return
    if body.get("type") in (4, 7):
        yield from message(data, "$.data")
    elif body.get("type") == 9:
        yield from modal(data, "$.data")


def message(body: Mapping[str, Any], at: str) -> Iterator[Finding]:
    yield from _too_long(body.get("content"), 2000, f"{at}.content", _MESSAGE)
    embeds = body.get("embeds") or []
    for n, embed in enumerate(embeds):
        yield from _embed(embed, f"{at}.embeds[{n}]")
    total = sum(_embed_chars(e) for e in embeds if isinstance(e, Mapping))
    if total > 6000:
        yield (f"{at}.embeds", f"{total} characters in {len(embeds)} embed(s)",
               f"all embeds of a message ≤ 6000 characters together ({_EMBED})")
    if not int(body.get("flags") or 0) & COMPONENTS_V2:
        yield from _rows(body.get("components") or [], f"{at}.components")


def _embed(embed: Mapping[str, Any], at: str) -> Iterator[Finding]:
    yield from _too_long(embed.get("title"), 256, f"{at}.title", _EMBED)
    yield from _too_long(embed.get("description"), 4096, f"{at}.description", _EMBED)
    fields = embed.get("fields") or []
    if len(fields) > 25:
        yield f"{at}.fields", f"{len(fields)} fields", f"≤ 25 fields ({_EMBED})"
    for n, field in enumerate(fields):
        yield from _too_long(field.get("name"), 256, f"{at}.fields[{n}].name", _EMBED, least=1)
        yield from _too_long(field.get("value"), 1024, f"{at}.fields[{n}].value", _EMBED,
                             least=1)
    yield from _too_long((embed.get("footer") or {}).get("text"), 2048, f"{at}.footer.text",
                         _EMBED)
    yield from _too_long((embed.get("author") or {}).get("name"), 256, f"{at}.author.name",
                         _EMBED)


def _embed_chars(embed: Mapping[str, Any]) -> int:
    texts = [embed.get("title"), embed.get("description"),
             (embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
    for field in embed.get("fields") or []:
        texts += [field.get("name"), field.get("value")]
    return sum(len(t) for t in texts if isinstance(t, str))


def _rows(rows: list[Any], at: str) -> Iterator[Finding]:
    if len(rows) > 5:
        yield at, f"{len(rows)} rows", f"≤ 5 action rows ({_COMPONENTS})"
    custom_ids: set[str] = set()
    for n, row in enumerate(rows):
        where = f"{at}[{n}]"
        if row.get("type") != 1:
            yield f"{where}.type", row.get("type"), f"an action row (1) at the top ({_COMPONENTS})"
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in SELECTS]
        if selects and len(items) != 1:
            yield (f"{where}.components", f"{len(selects)} select(s) among {len(items)}",
                   f"a select fills its row alone ({_COMPONENTS})")
        if len(items) > 5:
            yield f"{where}.components", f"{len(items)} buttons", f"≤ 5 per row ({_COMPONENTS})"
        for k, item in enumerate(items):
            yield from _component(item, f"{where}.components[{k}]", custom_ids)


def _component(item: Mapping[str, Any], at: str, custom_ids: set[str]) -> Iterator[Finding]:
    custom_id = item.get("custom_id")
    yield from _too_long(custom_id, 100, f"{at}.custom_id", _COMPONENTS, least=1)
    if isinstance(custom_id, str):
        if custom_id in custom_ids:
            yield f"{at}.custom_id", custom_id, f"custom_id unique in the message ({_COMPONENTS})"
        custom_ids.add(custom_id)
    if item.get("type") == 2:
        link = item.get("style") == 5
        if link != (custom_id is None):
            yield (f"{at}.custom_id", custom_id,
                   f"a link button has a url and no custom_id, others a custom_id ({_COMPONENTS})")
        yield from _too_long(item.get("label"), 80, f"{at}.label", _COMPONENTS)
    elif item.get("type") in SELECTS:
        yield from _select(item, at)


def _select(item: Mapping[str, Any], at: str) -> Iterator[Finding]:
    yield from _too_long(item.get("placeholder"), 150, f"{at}.placeholder", _COMPONENTS)
    low, high = _number(item, "min_values", 1), _number(item, "max_values", 1)
    if not 0 <= low <= high <= 25:
        yield f"{at}.max_values", (low, high), f"0 ≤ min_values ≤ max_values ≤ 25 ({_COMPONENTS})"
    if item.get("type") != 3:
        return
    options = item.get("options") or []
    if not 1 <= len(options) <= 25:
        yield f"{at}.options", f"{len(options)} options", f"1–25 options ({_COMPONENTS})"
    if high > len(options):
        yield f"{at}.max_values", high, f"max_values ≤ the number of options ({_COMPONENTS})"
    values: set[str] = set()
    for n, option in enumerate(options):
        where = f"{at}.options[{n}]"
        yield from _too_long(option.get("label"), 100, f"{where}.label", _COMPONENTS, least=1)
        yield from _too_long(option.get("value"), 100, f"{where}.value", _COMPONENTS, least=1)
        yield from _too_long(option.get("description"), 100, f"{where}.description", _COMPONENTS)
        if option.get("value") in values:
            yield f"{where}.value", option.get("value"), f"option values unique ({_COMPONENTS})"
        values.add(option.get("value"))


def modal(data: Mapping[str, Any], at: str) -> Iterator[Finding]:
    yield from _too_long(data.get("title"), 45, f"{at}.title", _MODAL, least=1)
    yield from _too_long(data.get("custom_id"), 100, f"{at}.custom_id", _MODAL, least=1)
    parts = data.get("components") or []
    if not 1 <= len(parts) <= 5:
        yield f"{at}.components", f"{len(parts)} components", f"1–5 components ({_MODAL})"
    for n, part in enumerate(parts):
        where = f"{at}.components[{n}]"
        if part.get("type") == 18:  # a label around one component
            yield from _too_long(part.get("label"), 45, f"{where}.label", _COMPONENTS, least=1)
            yield from _too_long(part.get("description"), 100, f"{where}.description",
                                 _COMPONENTS)
            inputs = [(f"{where}.component", part.get("component") or {})]
        else:
            inputs = [(f"{where}.components[{k}]", c)
                      for k, c in enumerate(part.get("components") or [])]
        for path, item in inputs:
            if item.get("type") == 4:
                yield from _text_input(item, path)


def _text_input(item: Mapping[str, Any], at: str) -> Iterator[Finding]:
    yield from _too_long(item.get("custom_id"), 100, f"{at}.custom_id", _COMPONENTS, least=1)
    yield from _too_long(item.get("label"), 45, f"{at}.label", _COMPONENTS, least=1)
    yield from _too_long(item.get("placeholder"), 100, f"{at}.placeholder", _COMPONENTS)
    yield from _too_long(item.get("value"), 4000, f"{at}.value", _COMPONENTS)
    low, high = _number(item, "min_length", 0), _number(item, "max_length", 4000)
    if not 0 <= low <= 4000:
        yield f"{at}.min_length", low, f"min_length 0–4000 ({_COMPONENTS})"
    if not 1 <= high <= 4000 or high < low:
        yield f"{at}.max_length", high, f"max_length 1–4000, ≥ min_length ({_COMPONENTS})"


# ----- application commands ---------------------------------------------------------------------


def command_list(commands: list[Any], locales: frozenset[str]) -> Iterator[Finding]:
    seen: set[tuple[int, str]] = set()
    counts = {1: 0, 2: 0, 3: 0}
    for n, body in enumerate(commands):
        if not isinstance(body, Mapping):
            continue
        kind = body.get("type") or 1
        counts[kind] = counts.get(kind, 0) + 1
        if (kind, body.get("name")) in seen:
            yield f"$[{n}].name", body.get("name"), f"command names unique per type ({_COMMANDS})"
        seen.add((kind, body.get("name")))
        yield from command(body, f"$[{n}]", locales)
    for kind, most in ((1, 100), (2, 15), (3, 15)):
        if counts[kind] > most:
            yield "$", f"{counts[kind]} commands of type {kind}", f"≤ {most} ({_COMMANDS})"


def command(body: Mapping[str, Any], at: str, locales: frozenset[str]) -> Iterator[Finding]:
    chat_input = (body.get("type") or 1) == 1
    yield from _name(body.get("name"), f"{at}.name", chat_input)
    yield from _localised(body, at, locales, chat_input)
    description = body.get("description")
    if chat_input:
        yield from _too_long(description, 100, f"{at}.description", _COMMANDS, least=1)
    elif description:
        yield f"{at}.description", description, f"empty for user and message commands ({_COMMANDS})"
    yield from _options(body.get("options") or [], f"{at}.options", locales, top=True)
    total = _command_chars(body)
    if total > 4000:
        yield at, f"{total} characters", ("≤ 4000 characters of names, descriptions and "
                                          f"choices per command ({_COMMANDS})")


def _name(name: Any, at: str, chat_input: bool = True) -> Iterator[Finding]:
    if not isinstance(name, str):
        return
    if not chat_input:
        yield from _too_long(name, 32, at, _COMMANDS, least=1)
    elif not COMMAND_NAME.fullmatch(name):
        yield at, name, (r"pattern ^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ "
                         f"({_COMMANDS}, Naming)")
    elif name != name.lower():
        yield at, name, f"lower case where the letter has one ({_COMMANDS}, Naming)"


def _localised(body: Mapping[str, Any], at: str, locales: frozenset[str],
               chat_input: bool = True) -> Iterator[Finding]:
    for key in ("name_localizations", "description_localizations"):
        texts = body.get(key) or {}
        for locale, text in texts.items():
            where = f"{at}.{key}[{locale!r}]"
            if locale not in locales:
                yield where, locale, f"a locale Discord knows (AvailableLocalesEnum; {_COMMANDS})"
            if key == "name_localizations":
                yield from _name(text, where, chat_input)
            else:
                yield from _too_long(text, 100, where, _COMMANDS, least=1)


def _options(options: list[Any], at: str, locales: frozenset[str], *,
             top: bool = False) -> Iterator[Finding]:
    if len(options) > 25:
        yield at, f"{len(options)} options", f"≤ 25 options ({_COMMANDS})"
    kinds = {(o.get("type") in (1, 2)) for o in options}
    if len(kinds) > 1:
        yield at, "subcommands and options", ("subcommands or options at one level, not both "
                                              f"({_COMMANDS})")
    names: set[str] = set()
    optional_seen = False
    for n, option in enumerate(options):
        where = f"{at}[{n}]"
        name = option.get("name")
        yield from _name(name, f"{where}.name")
        yield from _localised(option, where, locales)
        yield from _too_long(option.get("description"), 100, f"{where}.description", _COMMANDS,
                             least=1)
        if name in names:
            yield f"{where}.name", name, f"option names unique at one level ({_COMMANDS})"
        names.add(name)
        kind = option.get("type")
        if kind in (1, 2):
            if kind == 2 and not top:
                yield f"{where}.type", kind, f"a group only at the top level ({_COMMANDS})"
            yield from _options(option.get("options") or [], f"{where}.options", locales)
            continue
        if option.get("required"):
            if optional_seen:
                yield (f"{where}.required", True,
                       f"required options before optional ones ({_COMMANDS})")
        else:
            optional_seen = True
        yield from _option_bounds(option, where, locales)


def _option_bounds(option: Mapping[str, Any], at: str,
                   locales: frozenset[str]) -> Iterator[Finding]:
    kind = option.get("type")
    numeric = kind in (4, 10)
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if numeric and value is not None and not -INT53 <= value <= INT53:
            yield f"{at}.{key}", value, f"within ±(2^53 − 1) ({_COMMANDS}, option types)"
    low, high = option.get("min_value"), option.get("max_value")
    if numeric and low is not None and high is not None and low > high:
        yield f"{at}.min_value", low, f"min_value ≤ max_value {high} ({_COMMANDS})"
    choices = option.get("choices") or []
    if len(choices) > 25:
        yield f"{at}.choices", f"{len(choices)} choices", f"≤ 25 choices ({_COMMANDS})"
    if choices and option.get("autocomplete"):
        yield f"{at}.autocomplete", True, f"choices or autocomplete, not both ({_COMMANDS})"
    for n, choice in enumerate(choices):
        where = f"{at}.choices[{n}]"
        yield from _too_long(choice.get("name"), 100, f"{where}.name", _COMMANDS, least=1)
        value = choice.get("value")
        if kind == 3:
            yield from _too_long(value, 100, f"{where}.value", _COMMANDS, least=1)
        elif numeric and isinstance(value, int | float) and not -INT53 <= value <= INT53:
            yield f"{where}.value", value, f"within ±(2^53 − 1) ({_COMMANDS})"
        for locale, text in (choice.get("name_localizations") or {}).items():
            loc_at = f"{where}.name_localizations[{locale!r}]"
            if locale not in locales:
                yield loc_at, locale, f"a locale Discord knows (AvailableLocalesEnum; {_COMMANDS})"
            yield from _too_long(text, 100, loc_at, _COMMANDS, least=1)


def _command_chars(body: Mapping[str, Any]) -> int:
    total = len(body.get("name") or "") + len(body.get("description") or "")
    for option in body.get("options") or []:
        total += _command_chars(option)
        for choice in option.get("choices") or []:
            total += len(choice.get("name") or "") + len(str(choice.get("value") or ""))
    return total
