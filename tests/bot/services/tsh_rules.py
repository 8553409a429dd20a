"""tsh's own reading of a `.t` file, re-implemented from its source to check our exports.

`LINE` is `TFile.pm`'s line pattern for Scrabble; `standings` follows `TSH::Division::Synch`
without `zero_byes_tie` / `all_byes_tie` (our config.tsh sets neither): a game against an
opponent is decided by comparing the two scores and is rated; a bye (opponent 0) is a win if
its score is positive, a loss if negative, nothing if 0, and never rated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

LINE = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$")
CONFIG_TFILE_ENCODING = re.compile(r"^config\s+tfile_encoding\s*=\s*'([^']+)'", re.MULTILINE)


@dataclass
class TshPlayer:
    name: str
    rating: int
    pairings: list[int]
    scores: list[int]
    etc: dict[str, list[str]]


@dataclass
class TshRecord:
    wins: float = 0.0  # tsh's wins: a draw is ½ — stredisko's points
    losses: float = 0.0
    full_wins: int = 0
    rated_games: int = 0
    rounds: list[float | None] = field(default_factory=list)  # per round: 1, ½, 0, None


def tfile_encoding(config: str) -> str:
    """The .t encoding config.tsh declares; tsh's default is ISO-8859-1."""
    found = CONFIG_TFILE_ENCODING.search(config)
    return found.group(1) if found else "isolatin1"


def parse(text: str) -> list[TshPlayer]:
    players = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if ";" not in line:
            line += ";"
        found = LINE.match(line)
        assert found, f"tsh cannot parse: {line}"
        name, rating, pairings, scores, etc = found.groups()
        fields = {}
        for part in etc.split(";"):
            if part.strip():
                tag, *words = part.split()
                fields[tag] = words
        players.append(TshPlayer(name, int(rating), [int(x) for x in pairings.split()],
                                 [int(x) for x in scores.split()], fields))
    return players


def _compare(a: int, b: int) -> int:
    return (a > b) - (a < b)


def standings(players: list[TshPlayer]) -> list[TshRecord]:
    records = []
    for number, p in enumerate(players, start=1):
        record = TshRecord()
        for j, mine in enumerate(p.scores):
            opp = p.pairings[j]
            theirs = 0
            if opp:
                other = players[opp - 1]
                assert other.pairings[j] == number, f"{p.name}: round {j + 1} is one-sided"
                theirs = other.scores[j]
                record.rated_games += 1
            result = (1 + _compare(mine, theirs)) / 2
            if opp or mine - theirs:
                record.wins += result
                record.losses += 1 - result
                record.full_wins += result == 1
                record.rounds.append(result)
            else:
                record.rounds.append(None)
        records.append(record)
    return records
