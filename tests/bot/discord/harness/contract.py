"""Discord's published OpenAPI spec as the contract of every request the harness records.

A request is matched to the spec's operation by method and path template (the concrete URL
against every template, a literal segment such as `@original` before a `{parameter}`), and its
JSON body (for a multipart request: its `payload_json`) is validated against that operation's
request-body schema with JSON Schema 2020-12 (`jsonschema`), patterns compiled by `regex`.
`limits` adds what Discord documents and answers 400 for but the schema does not hold.

The spec is loaded once per process and each operation's validator is built once (both
cached): the suite and the bench check thousands of requests.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import regex
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, _keywords, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from . import limits

SPEC_FILE = Path(__file__).with_name("discord-api-spec") / "openapi.json"
SPEC_URI = "urn:discord-api-spec"
API_BASE = "https://discord.com/api/v10"
_JSON = "application/json"
_SNOWFLAKE_MAX = 2**64 - 1


@dataclass(frozen=True)
class Violation:
    """One thing in one request that Discord would refuse with 400 (Invalid Form Body)."""

    request: str  # "PUT /applications/{application_id}/guilds/{guild_id}/commands"
    path: str  # where in the body, e.g. "$[3].options[0].options[0].max_value"
    value: Any
    rule: str  # what it breaks, and whose rule that is

    def __str__(self) -> str:
        shown = repr(self.value)
        if len(shown) > 120:
            shown = shown[:117] + "…"
        return f"{self.request}: {self.path} = {shown} breaks {self.rule}"


class SpecViolation(AssertionError):
    """Requests the bot made that Discord would have refused."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = list(violations)
        lines = "\n".join(f"  {v}" for v in self.violations)
        super().__init__(f"{len(self.violations)} request(s) Discord would refuse with 400:\n"
                         + lines)


@dataclass
class Tally:
    """What this process checked: requests, and how many of them broke the contract."""

    requests: int = 0
    bodies: int = 0  # of them, with a JSON body validated against a schema
    violating: int = 0  # requests with at least one violation
    violations: int = 0
    seconds: float = 0.0  # CPU spent checking

    def add(self, body: Any, found: list[Violation], seconds: float) -> None:
        self.seconds += seconds
        self.requests += 1
        self.bodies += body is not None
        self.violating += bool(found)
        self.violations += len(found)

    def __str__(self) -> str:
        return (f"{self.requests} Discord requests validated against the spec "
                f"({self.bodies} with a body) in {self.seconds:.2f} s of CPU, {self.violating} "
                f"violating ({self.violations} violations)")


TALLY = Tally()


# ----- the spec -------------------------------------------------------------------------------


@functools.cache
def spec() -> dict[str, Any]:
    document = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    _accept_numeric_snowflakes(document)
    return document


def _accept_numeric_snowflakes(document: dict[str, Any]) -> None:
    """The one relaxation of the spec: a snowflake may also be a JSON integer. The spec types it
    as a string of digits; Discord's API takes both, and discord.py sends ids as integers (e.g.
    `recipient_id` of "create DM", `allowed_mentions.users`)."""
    schemas = document["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [
        schemas["SnowflakeType"],
        {"type": "integer", "minimum": 0, "maximum": _SNOWFLAKE_MAX},
    ]}


@functools.cache
def locales() -> frozenset[str]:
    """The locales Discord knows (AvailableLocalesEnum): the only keys a localisation may use."""
    enum = spec()["components"]["schemas"]["AvailableLocalesEnum"]
    return frozenset(choice["const"] for choice in enum["oneOf"])


@functools.cache
def _templates() -> dict[str, list[tuple[int, re.Pattern[str], str]]]:
    """Per method: (parameters, URL pattern, template) of every operation, fewest parameters
    first (so `/messages/@original` wins over `/messages/{message_id}`)."""
    found: dict[str, list[tuple[int, re.Pattern[str], str]]] = defaultdict(list)
    for template, item in spec()["paths"].items():
        pattern = re.compile(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)))
        for method in item:
            if method != "parameters":
                found[method.upper()].append((template.count("{"), pattern, template))
    for entries in found.values():
        entries.sort(key=lambda e: e[0])
    return found


def operation(method: str, url: str) -> str | None:
    """The spec's path template of a request to `url` (absolute or from the API base)."""
    path = urlsplit(url.removeprefix(API_BASE)).path
    for _, pattern, template in _templates().get(method.upper(), ()):
        if pattern.fullmatch(path):
            return template
    return None


# ----- the validators -------------------------------------------------------------------------


@functools.cache
def _compiled(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    # `regex` knows \p{L}, \p{sc=Deva}…, which Discord's patterns use and `re` does not.
    if validator.is_type(instance, "string") and not _compiled(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_FORMATS = FormatChecker(formats=())


@_FORMATS.checks("int32")
def _int32(value: object) -> bool:
    return not isinstance(value, int) or -(2**31) <= value < 2**31


@_FORMATS.checks("int64")
def _int64(value: object) -> bool:
    return not isinstance(value, int) or -(2**63) <= value < 2**63


@_FORMATS.checks("snowflake")
def _snowflake(value: object) -> bool:
    if isinstance(value, str):
        return value.isdigit() and int(value) <= _SNOWFLAKE_MAX
    return not isinstance(value, int) or 0 <= value <= _SNOWFLAKE_MAX


@_FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    return not isinstance(value, str) or datetime.fromisoformat(value).tzinfo is not None


@_FORMATS.checks("uri")
def _uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    parts = urlsplit(value)
    return bool(parts.scheme and (parts.netloc or parts.scheme == "attachment"))


def _same(a: object, b: object) -> bool:
    return isinstance(a, bool) == isinstance(b, bool) and a == b


@dataclass(frozen=True)
class _Union:
    """What is known of a oneOf/anyOf before any value comes: its constants if it only lists
    constants (the spec's enums), else each branch's discriminator (None: JSON null only;
    a tuple: the object's `type` values; ()): anything)."""

    consts: tuple[Any, ...] | None
    kinds: tuple[tuple[Any, ...] | None, ...]


_unions: dict[int, tuple[list[Any], _Union]] = {}  # id of the spec's list → (list, analysis)


def _union(branches: list[Any]) -> _Union:
    known = _unions.get(id(branches))
    if known is not None and known[0] is branches:
        return known[1]
    consts = None
    if all(isinstance(b, dict) and "const" in b and b.keys() <= {"const", "title", "description"}
           for b in branches):
        consts = tuple(b["const"] for b in branches)
    made = _Union(consts, tuple(_kind(b) for b in branches))
    _unions[id(branches)] = (branches, made)
    return made


def _kind(branch: Any) -> tuple[Any, ...] | None:
    ref = branch.get("$ref", "") if isinstance(branch, dict) else ""
    if ref.startswith("#/components/schemas/"):
        branch = spec()["components"]["schemas"][ref.rsplit("/", 1)[1]]
    if not isinstance(branch, dict):
        return ()
    if branch.get("type") == "null":
        return None
    return tuple(branch.get("properties", {}).get("type", {}).get("enum") or ())


def _fitting(branches: list[Any], instance: Any) -> list[Any]:
    """The branches that do not fail at first sight: JSON null for a non-null value, or an
    object whose `type` discriminator lists other values (the spec's component and callback
    unions) are left out."""
    kinds = _union(branches).kinds
    tag = instance.get("type") if isinstance(instance, dict) else None
    return [b for b, kind in zip(branches, kinds, strict=True)
            if (instance is None if kind is None
                else not kind or tag is None or any(_same(tag, k) for k in kind))]


# The same verdicts as the standard keywords, faster: branches that cannot fit are not walked
# (the spec's unions have up to a dozen object branches, its enums a oneOf of constants).
def _one_of(validator: Any, branches: list[Any], instance: Any,
            schema: Any) -> Iterator[ValidationError]:
    consts = _union(branches).consts
    if consts is not None:
        if sum(_same(instance, c) for c in consts) != 1:
            yield ValidationError(f"{instance!r} is not one of {list(consts)!r}",
                                  validator="enum", validator_value=list(consts))
        return
    yield from _keywords.oneOf(validator, _fitting(branches, instance), instance, schema)


def _any_of(validator: Any, branches: list[Any], instance: Any,
            schema: Any) -> Iterator[ValidationError]:
    yield from _keywords.anyOf(validator, _fitting(branches, instance), instance, schema)


_Validator = validators.extend(Draft202012Validator, {
    "pattern": _pattern, "oneOf": _one_of, "anyOf": _any_of})


@functools.cache
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, Resource(contents=spec(), specification=DRAFT202012))


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


@functools.cache
def _validator(method: str, template: str) -> Any | None:
    """The request-body validator of an operation (None when it takes no JSON body)."""
    operation_ = spec()["paths"][template][method.lower()]
    if _JSON not in operation_.get("requestBody", {}).get("content", {}):
        return None
    pointer = "/".join(("", "paths", _escape(template), method.lower(), "requestBody",
                        "content", _escape(_JSON), "schema"))
    return _Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=_registry(),
                      format_checker=_FORMATS)


# ----- checking one request ---------------------------------------------------------------------


def check(method: str, url: str, body: Any,
          query: Mapping[str, Any] | None = None) -> list[Violation]:
    """Everything in this request that Discord would refuse (400): its body, and its query
    parameters — those of `url`'s query string and `query` (aiohttp's `params`, as discord.py
    passes them)."""
    template = operation(method, url)
    request = f"{method} {template or urlsplit(url.removeprefix(API_BASE)).path}"
    if template is None:
        return [Violation(request, "$", None, "an operation of Discord's API (no such route "
                                              "in the spec)")]
    asked = [*parse_qsl(urlsplit(url).query, keep_blank_values=True), *(query or {}).items()]
    return [*_check_query(method, template, request, asked),
            *_check_body(method, template, request, body)]


@functools.cache
def _query_parameters(method: str, template: str) -> dict[str, tuple[dict[str, Any], Any]]:
    """The operation's query parameters (its path's and its own): name → (its schema, the
    schema's validator — by reference into the spec, so its own references resolve)."""
    item = spec()["paths"][template]
    found: dict[str, tuple[dict[str, Any], Any]] = {}
    for where, owner in (("", item), (f"/{method.lower()}", item[method.lower()])):
        for n, parameter in enumerate(owner.get("parameters", ())):
            if parameter.get("in") != "query":
                continue
            pointer = f"/paths/{_escape(template)}{where}/parameters/{n}/schema"
            found[parameter["name"]] = (parameter.get("schema", {}), _Validator(
                {"$ref": f"{SPEC_URI}#{pointer}"}, registry=_registry(),
                format_checker=_FORMATS))
    return found


def _query_value(raw: Any, schema: Mapping[str, Any]) -> Any:
    """A query string's text as the JSON value its schema types (Discord parses it so)."""
    if not isinstance(raw, str):
        return raw
    kind = schema.get("type")
    try:
        if kind == "integer":
            return int(raw)
        if kind == "number":
            return float(raw)
    except ValueError:
        return raw
    if kind == "boolean":
        return {"true": True, "false": False}.get(raw.lower(), raw)
    return raw


def _check_query(method: str, template: str, request: str,
                 asked: list[tuple[str, Any]]) -> list[Violation]:
    known = _query_parameters(method, template)
    found: list[Violation] = []
    for name, raw in asked:
        if name not in known:
            found.append(Violation(request, f"?{name}", raw,
                                   "a query parameter of this operation (none such in the spec)"))
            continue
        schema, validator = known[name]
        found += [Violation(request, f"?{name}", raw, _rule(leaf))
                  for error in validator.iter_errors(_query_value(raw, schema))
                  for leaf in _leaves(error)]
    return found


def require(method: str, url: str, body: Any) -> None:
    """`check` for a test's own stand-in of Discord's REST, counted in TALLY: a violation
    fails at once."""
    started = time.thread_time()
    found = check(method, url, body)
    TALLY.add(body, found, time.thread_time() - started)
    if found:
        raise SpecViolation(found)


def _check_body(method: str, template: str, request: str, body: Any) -> list[Violation]:
    validator = _validator(method, template)
    if validator is None:
        if body is None:
            return []
        return [Violation(request, "$", body, "no request body (the operation takes none)")]
    if body is None:
        return []  # discord.py sends no body where every field is optional
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return [Violation(request, *finding) for finding in _findings(method, template, text)]


@functools.lru_cache(maxsize=4096)
def _findings(method: str, template: str, text: str) -> tuple[limits.Finding, ...]:
    """The body's violations (cached: the bot sends many identical bodies, e.g. defers)."""
    body = json.loads(text)
    found = [(leaf.json_path, leaf.instance, _rule(leaf))
             for error in _validator(method, template).iter_errors(body)
             for leaf in _leaves(error)]
    seen = {path for path, _, _ in found}
    found += [finding for finding in limits.check(method, template, body, locales())
              if finding[0] not in seen]
    return tuple(found)


def _rule(error: ValidationError) -> str:
    keyword = error.validator
    value = error.validator_value
    if keyword in ("anyOf", "oneOf"):
        shapes = ", ".join(str(b.get("$ref", b)).rsplit("/", 1)[-1] for b in value)
        return f"{keyword}: none of the spec's shapes fits ({shapes}) (Discord's OpenAPI spec)"
    if keyword in ("type", "enum", "const", "pattern", "format"):
        return f"{keyword} {value!r} (Discord's OpenAPI spec)"
    return f"{keyword} {value} (Discord's OpenAPI spec)"


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors worth showing: under an anyOf/oneOf, those of the branch meant for this
    value (a branch whose `type` discriminator or JSON type does not fit is left out; of
    several, the one that fails least, e.g. a webhook message's create and update shapes)."""
    if not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0]].append(sub)
    meant = [errors for errors in branches.values()
             if not any(_other_kind(sub, error) for sub in errors)]
    if not meant:
        return [error]
    closest = min(meant, key=len)
    return [leaf for sub in closest for leaf in _leaves(sub)]


def _other_kind(sub: ValidationError, parent: ValidationError) -> bool:
    depth = len(sub.absolute_path) - len(parent.absolute_path)
    if depth == 0:
        return sub.validator in ("type", "const", "enum")
    return (depth == 1 and sub.absolute_path[-1] == "type"
            and sub.validator in ("const", "enum"))
