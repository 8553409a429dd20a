"""The bounds of what a person may type: numbers, names and free text (issue 11, point 4).

One module for every entry point — CLI arguments, the propozície and rehearsal TOML, the CSV
imports, the chat commands' services — so a number or a name is refused alike wherever it
comes in. Pure checks, no I/O: each returns the clean value or raises `OutOfBounds`, a
`Refusal` (a use case answers with it, in the reader's language) and a `ValueError` whose text
is the Slovak line (from the catalogue, `input.*`) a file reader puts after "FILE, riadok N:".

Scores typed by people are checked by `bot.services.tournament.play.parse_score`
(0–`SCORE_MAX`, then the profile's bound), the chat's score options offer the same range.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Any

from bot.i18n import SLOVAK, Term, t
from bot.services.replies import Refusal
from rules import free_text as free_text_rule

# -- numbers ------------------------------------------------------------------------------------

#: A day in minutes. A round's game time limit (e-SP 4.5; the profile says 50), its waiting
#: period (e-SP 4.3) and the wait before forfeits apply themselves all lie within one day:
#: rounds of an online qualifier follow each other within hours.
MINUTES_MAX = 24 * 60
#: Rounds and round numbers: the chat commands offer 1–99 (`/paruj kolo`); a Swiss qualifier
#: of the association has a handful of rounds (e-SP 2.4).
ROUND_MAX = 99
#: Table numbers: the chat commands offer 1–999 (`/rozhodni stol`), ~2000 players.
TABLE_MAX = 999
#: Rated games before a tournament: K changes at 50 games (RULES.md 8); even a lifetime of play
#: stays near 15,000 (20 events × 15 games × 50 years). More is a typo, and 10^20 would not even
#: fit SQLite's integer.
GAMES_MAX = 100_000
#: A Scrabble score typed by a person (`/vysledok`, the admin's ruling, the CLI): no game
#: reaches it, a larger number is a typo; the tournament's profile may bound it lower
#: (`plausible.max_score`, the same bound as herna.net's records).
SCORE_MAX = 1500
#: Online screlo (RULES.md 8): a newcomer starts at 1600 and a game moves the rating by at
#: most K = 30; the K bands end at 2000. Below 0 or above 3000 is a typo or another scale,
#: not a rating (1e300 would rank first); nan/inf are no numbers at all.
SCRELO_MIN = 0.0
SCRELO_MAX = 3000.0
#: The years an event of a season ladder may fall in. Organised Scrabble in Czechoslovakia
#: begins in the 1990s (ČAS rules 2009, SSS 2022/23 in the seeds), and a season file is this
#: century's: year 1 or 9999 is a typo that would sort the event first or last (issue 36.6).
EVENT_YEAR_MIN = 1970
EVENT_YEAR_MAX = 2100


@dataclass(frozen=True, slots=True)
class Range:
    low: int | float
    high: int | float
    whole: bool = True


#: The range of every number a file or a command line may carry, by its key or CSV column.
NUMBERS: dict[str, Range] = {
    "rounds": Range(1, ROUND_MAX),
    "round": Range(1, ROUND_MAX),
    "number": Range(1, ROUND_MAX),  # the rehearsal's [[round]] number
    "table": Range(1, TABLE_MAX),
    "waiting_minutes": Range(0, MINUTES_MAX),
    "game_limit_minutes": Range(1, MINUTES_MAX),
    "auto_apply_forfeits_after_minutes": Range(0, MINUTES_MAX),
    "games": Range(0, GAMES_MAX),
    "screlo": Range(SCRELO_MIN, SCRELO_MAX, whole=False),
    # a Discord account id (a snowflake) fits SQLite's integers; whether it is one, the
    # identity rules say (`identity.is_discord_id`, a line of its own)
    "discord_id": Range(0, 2**63 - 1),
    "channel": Range(1, 2**63 - 1),  # a Discord channel id (a season rehearsal's [[part]])
    "channel_id": Range(1, 2**63 - 1),  # the propozície's event channel (issue 44.7)
    "port": Range(0, 65535),  # a TCP port; 0 lets the system choose (`word --serve`)
}

# -- text ---------------------------------------------------------------------------------------

#: A person's or a tournament's name: an embed title holds 256, a table row must stay readable.
NAME_MAX = 100
#: A herna.net nick: `/registracia` accepts at most 40 characters, so a longer one could never
#: be linked to its Discord account.
NICK_MAX = 40
#: A Discord name: 32 characters, "#1234" in the old form.
DISCORD_NAME_MAX = 37
#: A dispute or a rehearsal's free text: what `/spor dovod` accepts.
TEXT_MAX = 1000
#: The head admin's reason for a ruling, exclusion or resolution: what the admin commands and
#: the ruling modal accept.
REASON_MAX = 500
#: His note on a discrepancy: the chat puts the decision's own words (under 100 characters)
#: before it, and the whole must stay a reason.
NOTE_MAX = REASON_MAX - 100

# Which characters a text may not hold, and how a refused value is echoed: the one rule of
# `rules.free_text` (control characters, direction overrides, …; issue 36.2).
REFUSED_CATEGORIES = free_text_rule.REFUSED_CATEGORIES


class OutOfBounds(Refusal, ValueError):
    """A value outside its bounds: a catalogue key and its parameters (for a reply in the
    reader's language) and, as `str()`, the Slovak line (for a file's row)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, **params)
        self.key, self.params = key, params

    def __str__(self) -> str:
        return t(self.key, SLOVAK, **self.params)


def field_name(name: str) -> Term:
    """A field's name for an input error, in the reader's language (`input.what.<name>`)."""
    return Term(f"input.what.{name}")


def number(value: Any, key: str, what: str | None = None) -> int | float:
    """`value` (a number, or text as people type it: "1 780,5") within the range of `key`
    (of NUMBERS); `what` names it in the message (a CSV column's Slovak name), else `key`."""
    bounds, what = NUMBERS[key], what or key
    # str() of an int over 4300 digits raises; such a number is out of range anyway
    huge = isinstance(value, int) and value.bit_length() > 128
    typed = "10^" + str(int(value.bit_length() * math.log10(2))) if huge else printable(
        str(value).strip())
    if isinstance(value, str):
        text = value.strip().replace(" ", "").replace("\u00a0", "").replace(",", ".")
        try:
            value = float(text) if text and not text.lstrip("+-").isdecimal() else int(text)
        except ValueError:
            raise OutOfBounds("input.not_number", what=what, value=typed) from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise OutOfBounds("input.not_number", what=what, value=typed)
    if isinstance(value, float) and not math.isfinite(value):
        raise OutOfBounds("input.not_finite", what=what, value=typed)
    if not bounds.low <= value <= bounds.high:
        raise OutOfBounds("input.out_of_range", what=what, value=typed,
                          low=bounds.low, high=bounds.high)
    if bounds.whole:
        if isinstance(value, float) and not value.is_integer():
            raise OutOfBounds("input.not_whole", what=what, value=typed)
        return int(value)
    return float(value)


def printable(text: str, limit: int = 30) -> str:
    """A bad value to echo on one line: control and direction characters escaped (`\\x1b`,
    `\\u202e`: `rules.free_text.shown`), a line break as `\\n`, cut short (a 10,000-character
    answer helps nobody)."""
    clean = free_text_rule.shown(text).replace("\n", "\\n").replace("\t", "\\t")
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def clean(value: Any, what: str, *, lines: bool) -> str:
    """Text as it comes in, by the one rule of `rules.free_text` (issue 36.2): trimmed, NFC,
    a multi-line text's line breaks as "\\n"; OutOfBounds if it holds a refused character.
    Its length is the entry point's own bound (`name`, `free_text`, a protest's reason)."""
    if not isinstance(value, str):
        raise OutOfBounds("input.not_text", what=what)
    text = unicodedata.normalize("NFC", free_text_rule.lines_of(value) if lines else value)
    text = text.strip()
    refuse_characters(text, what, lines=lines)
    return text


def _check_text(value: Any, what: str, limit: int, *, lines: bool) -> str:
    text = clean(value, what, lines=lines)
    if not text:
        raise OutOfBounds("input.empty", what=what)
    if len(text) > limit:
        raise OutOfBounds("input.too_long", what=what, length=len(text), limit=limit)
    return text


def refuse_characters(text: str, what: str, *, lines: bool) -> None:
    """OutOfBounds when `text` holds a character `rules.free_text` refuses: a store write's last
    check (`Tx.by_admin`), where the entry point has already bounded the length."""
    bad = free_text_rule.refused_character(text, lines=lines)
    if bad is not None:
        raise OutOfBounds("input.control_character", what=what,
                          code=free_text_rule.code_point(bad))


def name(value: Any, what: str = Term("input.what.name"), limit: int = NAME_MAX) -> str:
    """A one-line name (a person, a tournament, a nick): trimmed, NFC, no control characters,
    at most `limit` characters."""
    return _check_text(value, what, limit, lines=False)


def nick(value: Any, what: str = Term("input.what.nick")) -> str:
    return name(value, what, NICK_MAX)


def discord_name(value: Any, what: str = Term("input.what.discord_name")) -> str:
    return name(value, what, DISCORD_NAME_MAX)


def free_text(value: Any, what: str = Term("input.what.text"), limit: int = TEXT_MAX) -> str:
    """Free text (a dispute, a reason): may span lines, no other control characters."""
    return _check_text(value, what, limit, lines=True)


def reason(value: Any, what: str = Term("input.what.reason")) -> str:
    return free_text(value, what, REASON_MAX)
