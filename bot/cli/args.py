"""The `stredisko` command's argument checks: every number and text within the bounds of
`bot/services/bounds.py`, and an error as ONE Slovak line with exit code 2 (argparse's
convention for a usage error), checked before the database is even opened.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
import urllib.parse
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, NoReturn

from bot.i18n import t
from bot.services import bounds
from bot.services.replies import Refusal
from bot.services.tournament.play import parse_score
from rules import End

USAGE_ERROR = 2


# argparse's own messages (Python 3.11, English only) → the catalogue's
_ARGPARSE_MESSAGES = (
    (re.compile(r"the following arguments are required: (?P<names>.+)"), "input.cli_required"),
    (re.compile(r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)"),
     "input.cli_choice"),
    (re.compile(r"unrecognized arguments: (?P<names>.+)"), "input.cli_unrecognized"),
    (re.compile(r"expected (?P<count>one|\d+) arguments?"), "input.cli_count"),
)


def _slovak(message: str) -> str:
    for pattern, key in _ARGPARSE_MESSAGES:
        if found := pattern.fullmatch(message):
            params = found.groupdict()
            if params.get("count") == "one":  # argparse's "expected one argument"
                params["count"] = "1"
            return t(key, **params)
    return message


#: positional arguments as the help and the errors name them
_METAVARS = {"slug": "SKRATKA", "round": "KOLO", "table": "STÔL", "file": "SÚBOR",
             "season": "SEZÓNA", "scenario": "SCENÁR", "what": "ČO", "end": "KONIEC",
             "action": "AKCIA", "db": "SÚBOR", "config": "SÚBOR", "admin": "MENO",
             "reason": "ZDÔVODNENIE", "base_url": "ADRESA", "profil": "PROFIL"}


class _SlovakHelp(argparse.HelpFormatter):
    """argparse's help with a Slovak "použitie:" (argparse translates only through gettext)."""

    def add_usage(self, usage: str | None, actions: Any, groups: Any,
                  prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, t("cli.usage") if prefix is None else prefix)


#: set by `main` when the command line asks for `--json`: a bad argument is then answered as
#: the command's other errors are, `{"error": …}` on stdout (issue 35), not a line on stderr
JSON_ERRORS: ContextVar[bool] = ContextVar("json_errors", default=False)


class Parser(argparse.ArgumentParser):
    """argparse that answers a bad argument in one Slovak line instead of usage + English,
    and whose --help is Slovak too."""

    def __init__(self, *args: Any, add_help: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _SlovakHelp)
        parents = kwargs.pop("parents", [])
        super().__init__(*args, add_help=False, **kwargs)
        self._positionals.title = t("cli.positionals")
        self._optionals.title = t("cli.optionals")
        if add_help:
            self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                              help=t("cli.help"))
        for parent in parents:  # as argparse adds them, once the groups have their titles
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)

    def add_argument(self, *names: Any, **kwargs: Any) -> argparse.Action:
        """An argument's value is named in Slovak in the help and in errors ("SKRATKA", not
        "slug"; "--db SÚBOR"); the help lists the choices of one that has them."""
        key = str(names[-1]).lstrip("-").replace("-", "_") if names else ""
        if key in _METAVARS and "metavar" not in kwargs and "action" not in kwargs:
            kwargs["metavar"] = _METAVARS[key]
            if "choices" in kwargs and "help" not in kwargs:  # the metavar hides them
                kwargs["help"] = t("cli.choices", choices=", ".join(map(str, kwargs["choices"])))
        return super().add_argument(*names, **kwargs)

    def error(self, message: str) -> NoReturn:
        prefix = "argument "  # argparse's "argument round: …" for a value a type refused
        if message.startswith(prefix) and ": " in message:
            argument, reason = message[len(prefix):].split(": ", 1)
            message = t("input.cli_argument", argument=argument, reason=_slovak(reason))
        line = t("input.cli_usage", prog=self.prog, reason=_slovak(message))
        if JSON_ERRORS.get():
            print(json.dumps({"error": line}, ensure_ascii=False))
        else:
            print(line, file=sys.stderr)
        self.exit(USAGE_ERROR)


def _checked(check: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    """An argparse `type=`: the check's Slovak refusal becomes argparse's error message."""

    def convert(text: str) -> Any:
        try:
            return check(text)
        except Refusal as refusal:
            reply = refusal.reply
            raise argparse.ArgumentTypeError(t(reply.key, **reply.params)) from None
        except ValueError:  # int() of over 4300 digits, inside parse_score
            raise argparse.ArgumentTypeError(t("input.not_number", what=what,
                                               value=text[:20] + "…")) from None

    convert.__name__ = check.__name__
    return convert


def _round(text: str) -> int:
    return int(bounds.number(text, "round", bounds.field_name("round")))


def _table(text: str) -> int:
    return int(bounds.number(text, "table", bounds.field_name("table")))


def _score(text: str) -> int:
    return parse_score(text)


def _round_or_folder(text: str) -> int | str:
    """`publish SLUG 3` is a round, `publish SLUG DIR` a folder."""
    return _round(text) if text.strip().isdecimal() else text


def _nick(text: str) -> str:
    return bounds.nick(text)


def _reason(text: str) -> str:
    return bounds.reason(text)


def _port(text: str) -> int:
    return int(bounds.number(text, "port", bounds.field_name("port")))


def _slug(text: str) -> str:
    return bounds.name(text, bounds.field_name("slug"))


def _season(text: str) -> str:
    # its form is the service's to check
    return bounds.name(text, bounds.field_name("season"), len("2026/27"))


def base_url(text: str) -> str:
    """argparse type for `--base-url`: an http(s) address with a host. An empty value is
    refused, never read as "not given" (which would mean production herna.net)."""
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(t("input.base_url", value=text[:80]))
    return text.strip()


round_no = _checked(_round, "kolo")
table_no = _checked(_table, "stôl")
score = _checked(_score, "skóre")
round_or_folder = _checked(_round_or_folder, "kolo")
nick = _checked(_nick, "prezývka")
reason = _checked(_reason, "zdôvodnenie")
slug = _checked(_slug, "skratka turnaja")
port = _checked(_port, "port")
season = _checked(_season, "sezóna")


# -- words: an argument's Slovak word, its English code kept as an alias ------------------


def _folded(text: str) -> str:
    """Lower case without diacritics: "Výsledky" and "vysledky" are one word."""
    decomposed = unicodedata.normalize("NFD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("_", "-")


class Words:
    """An argparse `type=` for a word from a list: the Slovak words (shown in the help and
    in errors) and the English codes they stand for (accepted too, as older scripts and
    checks use them); the value is the code."""

    def __init__(self, words: dict[str, str]) -> None:
        self.words = words  # Slovak word -> code
        self._codes = {_folded(w): code for w, code in words.items()}
        self._codes.update({_folded(code): code for code in words.values()})
        self.__name__ = "slovo"  # argparse names the type in its messages

    def __call__(self, text: str) -> str:
        code = self._codes.get(_folded(text))
        if code is None:
            raise argparse.ArgumentTypeError(
                t("input.cli_choice", value=repr(text[:40]), choices=self.help()))
        return code

    def help(self) -> str:
        return ", ".join(self.words)


SHOW = Words({"parovanie": "pairings", "vysledky": "results", "poradie": "standings",
              "zmeny": "audit"})
EXPORT = Words({"vysledky": "results", "tsh": "tsh", "trf": "trf", "screlo": "screlo"})
#: `stredisko rule`'s ends: the Slovak word of each (END_NAMES_SK without spaces)
END = Words({"dohrana": End.FINISHED.value, "prehra-na-cas": End.TIME_LOSS.value,
             "vzdanie": End.RESIGNED.value, "odpojenie": End.DISCONNECTED.value,
             "nedostavenie": End.NO_SHOW.value, "nedostavenie-oboch": End.BOTH_NO_SHOW.value,
             "nedodrzany-limit": End.OVER_LIMIT.value, "volno": End.BYE.value,
             "zlyhalo-ulozenie": End.SAVE_FAILED.value,
             "remiza-dohodou": End.AGREED_DRAW.value,
             "vynechane-kolo": End.MISSED_ROUND.value})
