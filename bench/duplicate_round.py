"""Closing a duplicate round for 64 players (issue 24.8): deadline → the top, every slip
checked and scored, the summary and the board-image announcement queued.

Targets (issue 24): < 2 s median per round for 64 players on the full Slovak stand-in; the
board image < 200 ms. The lexicon is a built one (`--lexicon /tmp/lexicon_work/sk.lex`, what
`stredisko lexicon build` makes from the stand-in); without it the bench says it is skipped
(a toy list would measure nothing the target speaks of).

A game is played from a fixed seed with the profile's rack draw (`rules.duplicate.draw_rack`)
and its top on the board each round. Each round 64 players hand in slips drawn from the
round's real moves (untimed set-up): the top, other valid moves, a move with a word the
lexicon refuses, a declared score too high, a late slip, a replaced slip, no slip. Measured per
round:
- **rules**: `top_moves` + `score_move` of every slip + `score_round` (what a close computes);
- **service**: when the duplicate services are there (`bot.services.duplicate`), the whole
  close through them on a real SQLite file with the deadline's timer — see `service_rounds`;
- **board image**: `bot.publish.board_image` when it exists.

Run: .venv/bin/python bench/duplicate_round.py --lexicon /tmp/lexicon_work/sk.lex
[--players 64] [--rounds 12] [--seed 7] [--profile cas-duplicate]
(numbers are printed, never asserted).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from verdicts import Verdicts

from rules.duplicate import DuplicateProfile, draw_rack, duplicate_profile, score_round
from rules.duplicate.board import Board
from rules.duplicate.errors import DuplicateError
from rules.duplicate.generate import generate
from rules.duplicate.move import Move
from rules.duplicate.players import Slip
from rules.duplicate.slip import slip_word
from rules.duplicate.tiles import BLANK, TileSet
from rules.duplicate.top import TopSettings, top_moves
from rules.duplicate.validate import score_move
from rules.lexicon.graph import WordGraph

TARGET_S = 2.0
IMAGE_TARGET_S = 0.2
SEED_HEX = "5eed" * 8  # the rack seed (16 bytes), fixed so runs compare


@dataclass(frozen=True, slots=True)
class Handed:
    """A slip as a player hands it in: `after` seconds after the round opened."""

    player: str
    text: str
    declared: int | None
    after: float


@dataclass(frozen=True, slots=True)
class RoundCase:
    number: int
    board: Board
    rack: str
    slips: tuple[Handed, ...]


def slip_text(move: Move) -> str:
    return f"{move.coord} {slip_word(move.word)}"


def misspelt(move: Move, rng: random.Random) -> str:
    """The move's coordinate with its main word's letters shuffled: the same tiles, a word the
    lexicon most likely refuses (or a placement that no longer fits: also a void move)."""
    letters = list(move.word)
    rng.shuffle(letters)
    return f"{move.coord} {slip_word(''.join(letters))}"


def hand_in(rng: random.Random, players: Sequence[str], moves: Sequence[Move], top: Move,
            seconds: int) -> tuple[Handed, ...]:
    """Every player's slips for a round, in the order they arrive: a mix of what a real field
    hands in (a quarter find the top)."""
    best = sorted(moves, key=lambda m: -m.score)[:200] or [top]
    out: list[Handed] = []
    for player in players:
        roll = rng.random()
        move = top if roll < 0.25 else rng.choice(best)
        declared: int | None = move.score
        text, after = slip_text(move), rng.uniform(20, seconds - 5)
        if roll > 0.95:
            continue  # no slip (003 r. 19)
        if 0.85 < roll <= 0.9:
            text = misspelt(move, rng)
        elif 0.8 < roll <= 0.85:
            declared = move.score + rng.randint(1, 9)  # 003 r. 45: 0
        elif 0.9 < roll <= 0.93:
            after = seconds + rng.uniform(0.5, 10)  # late: 0 (003 r. 19)
        elif 0.93 < roll <= 0.95:  # a first slip, then the replacement (003 r. 41)
            first = rng.choice(best)
            out.append(Handed(player, slip_text(first), first.score, after / 2))
        out.append(Handed(player, text, declared, after))
    return tuple(sorted(out, key=lambda h: h.after))


def play(graph: WordGraph, tiles: TileSet, profile: DuplicateProfile, rounds: int,
         players: Sequence[str], seed: int) -> list[RoundCase]:
    """The game's rounds with every player's slips (untimed): racks from the profile's draw,
    the top placed after each round."""
    rng = random.Random(seed)
    seconds = profile.round.minutes * 60
    bag, leave, board = dict(tiles.bag), (), Board.empty()
    settings = TopSettings.from_rule(profile.tops)
    cases = []
    for number in range(1, rounds + 1):
        draw = draw_rack(SEED_HEX, number, bag, leave, tiles.rack_vowels, profile)
        if draw.ended:
            break
        rack = "".join(draw.rack)
        moves = generate(board, rack, graph, tiles)
        tops = top_moves(board, rack, graph, tiles, settings)
        if not tops.tops:
            break
        top = tops.tops[0]
        cases.append(RoundCase(number, board, rack, hand_in(rng, players, moves, top, seconds)))
        board = board.place({(r, c): (letter, blank) for r, c, letter, blank in top.tiles})
        left = list(rack)
        for *_, letter, blank in top.tiles:
            left.remove(BLANK if blank else letter.upper())
        leave, bag = tuple(left), dict(draw.bag)
    return cases


def judged(case: RoundCase, graph: WordGraph, tiles: TileSet, seconds: int) -> list[Slip]:
    """Every slip checked by the move engine, as the game's record of it."""
    out = []
    for h in case.slips:
        try:
            verdict = score_move(case.board, case.rack, h.text, graph, tiles)
        except DuplicateError as error:
            out.append(Slip(h.player, case.number, h.text, 0, fault=error.code,
                            declared=h.declared, late=h.after > seconds))
            continue
        word = verdict.params.get("word")
        refused_word = verdict.reason in ("invalid_word", "invalid_cross_word")
        out.append(Slip(h.player, case.number, h.text, verdict.score, verdict.words,
                        frozenset([str(word)]) if refused_word else frozenset(),
                        None if verdict.valid or refused_word else verdict.reason,
                        h.declared, h.after > seconds))
    return out


def rules_close(case: RoundCase, graph: WordGraph, tiles: TileSet, profile: DuplicateProfile,
                players: Sequence[str]) -> tuple[int, int]:
    """What a close computes: the tops, every slip judged, the round scored. Returns the top
    score and how many players scored it."""
    tops = top_moves(case.board, case.rack, graph, tiles, TopSettings.from_rule(profile.tops))
    slips = judged(case, graph, tiles, profile.round.minutes * 60)
    scores = score_round(case.number, players, slips, profile)
    return tops.score, sum(1 for s in scores.values() if s.points == tops.score)


def timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    """Wall and CPU seconds of one call, and what it returned."""
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def figures(name: str, wall: list[float], cpu: list[float]) -> str:
    return (f"{name}: median {statistics.median(wall):.3f} s wall "
            f"({statistics.median(cpu):.3f} s CPU), max {max(wall):.3f} s wall over "
            f"{len(wall)} rounds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicon", type=Path, help="a built lexicon (stredisko lexicon build)")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", default="cas-duplicate")
    parser.add_argument("--tiles", default="sss-100", help="the tile set (SSS: sss-100)")
    args = parser.parse_args(argv)
    if args.lexicon is None or not args.lexicon.is_file():
        print(f"skipped: no built lexicon ({args.lexicon or 'no --lexicon'}); the target speaks "
              f"of the full Slovak stand-in: --lexicon /tmp/lexicon_work/sk.lex")
        return 0
    from bot.services.lexicon.files import load

    started = time.perf_counter()
    lexicon = load(args.lexicon)
    profile, tiles = duplicate_profile(args.profile), TileSet.load(args.tiles)
    print(f"lexicon: {args.lexicon} ({lexicon.id}): {lexicon.forms:,} forms, loaded in "
          f"{time.perf_counter() - started:.1f} s; profile {profile.name}, tiles {tiles.name}")
    players = [f"p{n:02d}" for n in range(1, args.players + 1)]
    started = time.perf_counter()
    cases = play(lexicon.graph, tiles, profile, args.rounds, players, args.seed)
    print(f"set-up (untimed): {len(cases)} rounds, {sum(len(c.slips) for c in cases)} slips "
          f"from {len(players)} players in {time.perf_counter() - started:.1f} s")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a shared "
          f"machine: wall times are noisy; CPU seconds are this process's)")

    verdicts = Verdicts()
    wall, cpu = [], []
    expected: dict[int, tuple[int, int]] = {}
    for case in cases:
        w, c, (top, found) = timed(lambda case=case: rules_close(  # type: ignore[misc]
            case, lexicon.graph, tiles, profile, players))
        wall.append(w)
        cpu.append(c)
        expected[case.number] = (top, found)
        print(f"  round {case.number:2d} rack {case.rack:7s} top {top:3d}, found by "
              f"{found:2d}/{len(players)}, {len(case.slips)} slips: {w * 1000:6.0f} ms")
    print(figures("rules close (tops + every slip + scores)", wall, cpu))
    verdicts.add(f"rules close < {TARGET_S:.0f} s median", statistics.median(wall) < TARGET_S,
                 f"{statistics.median(wall):.3f} s")
    images = service_rounds(cases, args, players, verdicts, expected)
    board_image(cases, tiles, images, verdicts)
    verdicts.print(f"{len(players)} players, {len(cases)} rounds, seed {args.seed}")
    return 0


def service_rounds(cases: list[RoundCase], args: argparse.Namespace, players: list[str],
                   verdicts: Verdicts, expected: dict[int, tuple[int, int]]) -> list[float]:
    """The close through the duplicate services (store, outbox): measured when they exist.
    Returns the board image's render times of the queued top announcements."""
    try:
        import duplicate_service  # bench/duplicate_service.py: the service side of this bench
    except ImportError as missing:
        print(f"service close: not measured ({missing})")
        return []
    return duplicate_service.measure(cases, args, players, verdicts, expected)


def board_image(cases: list[RoundCase], tiles: TileSet, images: list[float],
                verdicts: Verdicts) -> None:
    """The board PNG of each round's top announcement (from the queued message when the
    service ran, else from the bench's own boards)."""
    if not images:
        try:
            from bot.publish.board_image import render_board  # type: ignore[import-not-found]
        except ImportError:
            print("board image: not measured (bot/publish/board_image.py is not on this branch)")
            return
        for case in cases:
            w, _, _ = timed(lambda case=case: render_board(  # type: ignore[misc]
                case.board.text(), tiles=tiles.name, rack=case.rack))
            images.append(w)
    median = statistics.median(images)
    print(f"board image: median {median * 1000:.0f} ms, max {max(images) * 1000:.0f} ms wall "
          f"over {len(images)} boards")
    verdicts.add(f"board image < {IMAGE_TARGET_S * 1000:.0f} ms median",
                 median < IMAGE_TARGET_S, f"{median * 1000:.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
