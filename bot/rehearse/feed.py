"""Games for `python -m scrapers.herna.simulator --games FILE`, to practise a sync.

Two kinds of file:
- a TOML file in the rehearsal's format, read by the rehearsal's own parser
  (`scenario.parse_scenario`): a whole scenario, or only `[[event]] type = "game"` tables
  with `--propozicie FILE` giving [tournament] and [[player]]; any other event is ignored;
- a results CSV with `--propozicie FILE`, one game a row (`;`, `,` or tab between columns, a
  header row naming them, `#` starts a comment line):

      kolo;prvý;druhý;skóre;koniec;na_koho;začiatok;trvanie;ťahy
      1;anna;boris;412:380;finished;;3;35;12:12
      1;cyro;danka;298:401;resigned;cyro;2;28

  kolo – the round (its start from the propozície); prvý – who started, druhý – the
  opponent (the propozície's player id or herna nick); skóre – first:second; koniec – how it
  ended on herna.net (finished, passes, resigned, time_loss, disconnected, draw,
  unfinished); na_koho – on whom a resigned / time_loss / disconnected game ended.
  Optional: začiatok – minutes after the round's start the game began (default 2);
  trvanie – minutes it lasted (default 30); ťahy – moves first:second (default 12:12).

Each game shows from its start, in progress until its end, as herna.net shows it; ids count
from 1000 in the file's order, as in the rehearsal. A bad file is a `FeedError` whose message
is one Slovak line "FILE:LINE: why".
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path

from bot.i18n import t
from bot.os_errors import os_reason
from bot.rehearse.events import scenario_games
from bot.rehearse.scenario import DEFAULT_MOVES, GAME_ENDS, MAX_SCORE, Event, parse_scenario
from bot.services import bounds
from bot.services.replies import Refusal
from bot.services.tournament.csv_text import decode_csv, decode_utf8, delimiter_of
from bot.services.tournament.propozicie import PlayerSpec, Propozicie, SetupError, parse_propozicie
from scrapers.herna.records import ENDS_ON_PLAYER, EndKind, GameRecord

REQUIRED = ("kolo", "prvy", "druhy", "skore", "koniec")
OPTIONAL = ("na_koho", "zaciatok", "trvanie", "tahy")
DEFAULT_START = 2  # minutes after the round's start
DEFAULT_LENGTH = 30  # minutes
MAX_LENGTH = 24 * 60


class FeedError(ValueError):
    """The file cannot be served; the message is the one line to show."""


Fail = Callable[[str, str], FeedError]  # (column, why) -> the error naming the row's line


@dataclass(frozen=True, slots=True)
class FedGame:
    """A record and when the simulator shows it: from `release_at`, in progress until
    `finish_at`."""

    record: GameRecord
    release_at: datetime
    finish_at: datetime


def load_games(path: str | Path, propozicie: str | Path | None = None) -> list[FedGame]:
    """The games of a scenario / game-events TOML or of a results CSV (with `propozicie`)."""
    path = Path(path)
    data = _read(path)
    prop_text = decode_utf8(_read(Path(propozicie)), str(propozicie)) if propozicie else None
    try:
        if path.suffix.lower() == ".toml":
            events, prop = _toml_events(decode_utf8(data, str(path)), prop_text, path,
                                        propozicie)
        elif prop_text is None:
            raise FeedError(t("herna_feed.needs_propozicie", file=str(path)))
        else:
            prop = _propozicie(prop_text, str(propozicie))
            events, nicks = _csv_events(decode_csv(data, str(path)), prop, str(path))
            # players named by a herna nick the propozície do not list (imported from a CSV
            # into the database): served under that nick
            prop = replace(prop, players=[*prop.players, *nicks])
    except Refusal as refusal:  # not UTF-8
        raise FeedError(t(refusal.reply.key, **refusal.reply.params)) from None
    return [FedGame(record, e.started or record.started, e.at)
            for e, record in scenario_games(prop, events)]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise FeedError(t("herna_feed.unreadable", file=str(path), reason=os_reason(exc))) from None


def _toml_events(text: str, prop_text: str | None, path: Path, prop_path: str | Path | None
                 ) -> tuple[list[Event], Propozicie]:
    """The rehearsal's parser on the file, after the propozície's text when they are given
    apart; an error's line is mapped back to the file it is in."""
    offset = 0
    if prop_text is not None:
        prop_text = prop_text if prop_text.endswith("\n") else f"{prop_text}\n"
        offset = prop_text.count("\n")
        text = prop_text + text
    try:
        scenario = parse_scenario(text, str(path))
    except SetupError as error:
        if error.line > offset:
            raise _bad(str(path), error.line - offset, error.reason) from None
        raise _bad(str(prop_path), error.line, error.reason) from None
    return list(scenario.events), scenario.propozicie


def _propozicie(text: str, path: str) -> Propozicie:
    try:
        return parse_propozicie(text, strict=False)
    except SetupError as error:
        raise _bad(path, error.line, error.reason) from None


def _bad(path: str, line: int, reason: str) -> FeedError:
    return FeedError(t("herna_feed.bad_line", file=path, line=line, reason=reason))


def _norm(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "_".join(plain.lower().split())


def _csv_events(text: str, prop: Propozicie, path: str) -> tuple[list[Event], list[PlayerSpec]]:
    rows = [(n, row) for n, row in _rows(text, path) if row and not row[0].lstrip()
            .startswith("#") and any(cell.strip() for cell in row)]
    if not rows:  # empty and header-only alike (below): a file of no games is a mistake
        raise _bad(path, 1, "súbor nemá ani hlavičku, ani jednu partiu")
    header_line, header = rows[0]
    columns = [_norm(cell) for cell in header]
    unknown = [cell for cell, name in zip(header, columns, strict=True)
               if name not in REQUIRED + OPTIONAL]
    if unknown:
        raise _bad(path, header_line, f"neznámy stĺpec „{unknown[0]}“ (známe: "
                                      f"{', '.join(REQUIRED + OPTIONAL)})")
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise _bad(path, header_line, f"chýba stĺpec „{missing[0]}“ (povinné: "
                                      f"{', '.join(REQUIRED)})")
    if len(rows) == 1:
        raise _bad(path, header_line, "súbor má len hlavičku, ani jednu partiu")
    reader = _Row(prop, path, dict(zip(columns, (c.strip() for c in header), strict=True)))
    events = [reader.event(n, index, dict(zip(columns, (c.strip() for c in row), strict=False)))
              for index, (n, row) in enumerate(rows[1:])]
    return events, list(reader.nicks.values())


def _rows(text: str, path: str) -> list[tuple[int, list[str]]]:
    """The rows with the line each starts on. A quote opened and never closed on its line
    swallows what follows (csv reads on to the next quote or the end): that is said as it is,
    on the line where the quote opened."""
    # the delimiter is judged on the lines that are not comments (they hold ";" and ",")
    plain = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    reader = csv.reader(io.StringIO(text), delimiter=delimiter_of(plain))
    found: list[tuple[int, list[str]]] = []
    start = 1
    last_line = text.count("\n") + 1  # counted once: per row it made a big file quadratic
    try:
        for row in reader:
            if any("\n" in cell or "\r" in cell for cell in row) or (
                    reader.line_num == last_line and _open_quote(text)):
                raise _bad(path, start, UNCLOSED_QUOTE)
            found.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        limit = "field larger than field limit" in str(exc)
        raise _bad(path, start, f"pole je dlhšie ako {csv.field_size_limit()} znakov" if limit
                   else UNCLOSED_QUOTE if "end of data" in str(exc)
                   else "pokazený riadok CSV") from None
    return found


UNCLOSED_QUOTE = "úvodzovky (\") otvorené na tomto riadku sa nikde nezatvárajú"


def _open_quote(text: str) -> bool:
    """Whether the last line leaves a quote open (csv ends such a field at the end of the
    file without a word)."""
    last = text.rstrip("\r\n").rsplit("\n", 1)[-1]
    return last.count('"') % 2 == 1


def _digits(text: str) -> bool:
    """ASCII digits only, at most 9 (`str.isdigit` also takes "¹²" and "٣", and a 5,000-digit
    number is more than `int` reads)."""
    return 0 < len(text) <= 9 and text.isascii() and text.isdecimal()


def _shown(value: str) -> str:
    """A value as an error line quotes it: a long one cut."""
    return value if len(value) <= 40 else f"{value[:40]}… ({len(value)} znakov)"


@dataclass
class _Row:
    prop: Propozicie
    path: str
    written: dict[str, str]  # column -> its name as the header writes it
    nicks: dict[str, PlayerSpec] = field(default_factory=dict)  # herna nicks not listed

    def event(self, line: int, index: int, row: dict[str, str]) -> Event:
        def fail(column: str, why: str) -> FeedError:
            return _bad(self.path, line, f"stĺpec {self.written.get(column, column)}: {why}")

        starts = self.prop.round_starts
        number = self._int(row, "kolo", None, 1, len(starts), fail)
        first, second = self._player(row, "prvy", fail), self._player(row, "druhy", fail)
        if first == second:
            raise fail("druhy", f"hráč „{row['druhy']}“ nemôže hrať sám so sebou")
        end = row.get("koniec", "")
        if end not in GAME_ENDS:
            raise fail("koniec", f"„{end}“ nie je známy koniec (známe: {', '.join(GAME_ENDS)})")
        on = self._player(row, "na_koho", fail) if row.get("na_koho") else None
        if EndKind(end) in ENDS_ON_PLAYER and on not in (first, second):
            raise fail("na_koho", f"koniec „{end}“ potrebuje hráča tejto partie, na ktorého "
                                  "skončila")
        if EndKind(end) not in ENDS_ON_PLAYER and on is not None:
            raise fail("na_koho", f"pri konci „{end}“ sa nepíše")
        started = starts[number - 1] + timedelta(
            minutes=self._int(row, "zaciatok", DEFAULT_START, 0, MAX_LENGTH, fail))
        length = self._int(row, "trvanie", DEFAULT_LENGTH, 1, MAX_LENGTH, fail)
        return Event(at=started + timedelta(minutes=length), type="game", line=line,
                     index=index, first=first, second=second,
                     score=self._pair(row, "skore", None, MAX_SCORE, fail), end=end, on=on,
                     started=started, moves=self._pair(row, "tahy", DEFAULT_MOVES, 1000, fail))

    def _player(self, row: dict[str, str], column: str, fail: Fail) -> str:
        value = row.get(column, "")
        for player in self.prop.players:
            if value == player.file_id or value.casefold() == player.herna.casefold():
                return player.file_id
        try:  # any herna nick: a player imported from a CSV is not in the propozície
            nick = bounds.nick(value)
        except Refusal:
            raise fail(column, f"„{value}“ nie je hráč z propozícií ani prezývka na herna.net"
                       ) from None
        return self.nicks.setdefault(nick.casefold(), PlayerSpec(nick, nick, nick)).file_id

    @staticmethod
    def _int(row: dict[str, str], column: str, default: int | None, low: int, high: int,
             fail: Fail) -> int:
        value = row.get(column, "")
        if not value and default is not None:
            return default
        if not _digits(value) or not low <= int(value) <= high:
            raise fail(column, f"„{_shown(value)}“: očakáva sa celé číslo {low}–{high}")
        return int(value)

    @staticmethod
    def _pair(row: dict[str, str], column: str, default: tuple[int, int] | None, high: int,
              fail: Fail) -> tuple[int, int]:
        value = row.get(column, "")
        if not value and default is not None:
            return default
        parts = value.replace(" ", "").split(":")
        if len(parts) != 2 or not all(_digits(p) and int(p) <= high for p in parts):
            raise fail(column, f"„{_shown(value)}“: očakávajú sa dve celé čísla 0–{high} "
                               "ako 412:380")
        return (int(parts[0]), int(parts[1]))
