"""Plausible generated games for the simulator, the tests and the benchmarks."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from scrapers.herna.records import ENDS_ON_PLAYER, EndKind, GameRecord, TableSettings

STANDARD_TABLE = TableSettings(tempo="2x20", language="slovenský jazyk", dictionary="áno")
_NAMES = ("Ďurko", "Žofka", "Ľubo", "Šimon", "Čaba", "Ťuťko", "Anča", "Mišo", "Ňuňu", "Peťo")
# Mostly normal finishes, like a real round.
_ENDS = [EndKind.FINISHED] * 12 + [
    EndKind.RESIGNED,
    EndKind.TIME_LOSS,
    EndKind.DISCONNECTED,
    EndKind.PASSES,
    EndKind.DRAW,
]


def nicks(count: int) -> list[str]:
    """`count` distinct herna.net-style nicks, with Slovak letters."""
    return [f"{_NAMES[i % len(_NAMES)]}{i + 1:02d}" for i in range(count)]


def generate_round(
    players: int, start: datetime, *, seed: int = 0, first_id: int = 700_000
) -> list[GameRecord]:
    """The games of one round: `players` // 2 games starting a few minutes after `start`."""
    rng = random.Random(seed)
    names = nicks(players)
    rng.shuffle(names)
    games = []
    for table in range(players // 2):
        first, second = names[2 * table], names[2 * table + 1]
        began = start + timedelta(seconds=rng.randint(30, 600))
        games.append(generate_game(str(first_id + table), first, second, began, rng))
    return games


def generate_game(
    game_id: str, first: str, second: str, started: datetime, rng: random.Random
) -> GameRecord:
    end = rng.choice(_ENDS)
    moves = rng.randint(8, 14)
    first_moves = moves if end is not EndKind.PASSES else moves + 1
    first_score, second_score = rng.randint(250, 520), rng.randint(250, 520)
    if end is EndKind.DRAW:
        moves = first_moves = 1  # the wrong-starter draw of e-SP 4.2, ended at once
        first_score, second_score = rng.randint(0, 40), 0
    return GameRecord(
        game_id=game_id,
        first=first,
        second=second,
        first_score=first_score,
        second_score=second_score,
        end=end,
        ended_on=rng.choice((first, second)) if end in ENDS_ON_PLAYER else None,
        started=started,
        ended=started + timedelta(minutes=2 if end is EndKind.DRAW else rng.randint(22, 40)),
        first_moves=first_moves,
        second_moves=moves if end is not EndKind.DRAW else 0,
        settings=STANDARD_TABLE,
    )
