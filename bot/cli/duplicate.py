"""`stredisko duplicate top|score`: the arbiter's duplicate commands (issue 23.7).

    stredisko duplicate top --lexicon WORDS --tiles sss-100 --board BOARD.txt --rack RACK [--json]
    stredisko duplicate score --lexicon WORDS --tiles sss-100 --board BOARD.txt --rack RACK
                              --move "8H SLOVO" [--json]

`top` counts every legal placement and lists every one scoring the top in 003 r. 5–9's order;
`score` checks one slip (004 §6) and scores it, 0 with a Slovak reason when it is refused.
Bad input (a board that is not 15 × 15, an unknown letter, a rack of more than 7, a coordinate
off the board) is one Slovak line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import bot.cli.duplicate_desk  # noqa: F401  (registers `pult` with the hall's actions)
import bot.cli.duplicate_hall as duplicate_hall
from bot.cli.args import USAGE_ERROR
from bot.cli.common import Add, config
from bot.i18n import t
from bot.os_errors import os_error
from bot.services.duplicate.lexicons import LoadedLexicon, read_lexicon
from rules.duplicate.board import Board, parse_board
from rules.duplicate.errors import DuplicateError
from rules.duplicate.tiles import BLANK, TileSet
from rules.duplicate.top import top_moves
from rules.duplicate.validate import score_move
from rules.lexicon import LexiconError
from rules.profile import ProfileError


def add_command(add: Add) -> None:
    """Add `duplicate top|score` and the live hall's commands (`bot.cli.duplicate_hall`) to
    the `stredisko` parser."""
    duplicate = add("duplicate", "duplikátny scrabble: najlepší ťah kola, overenie ťahu, "
                    "turnaj v hracej sále", _run)
    actions = duplicate.add_subparsers(dest="duplicate_action", metavar="AKCIA", required=True)
    top = actions.add_parser("top", help="všetky legálne ťahy a najlepšie z nich "
                             "(poradie pri rovnosti: 003 r. 5–9)")
    score = actions.add_parser("score", help="overiť a spočítať jeden ťah (004 §6)")
    for sub in (top, score):
        sub.add_argument("--lexicon", required=True, metavar="SLOVNÍK",
                         help="zostavený lexikón (súbor alebo id v [lexicon] dir) alebo "
                         "zoznam slov (jeden tvar malými písmenami na riadok, berie sa presne)")
        sub.add_argument("--tiles", default="sss-100", metavar="SADA",
                         help="sada kameňov: sss-100, sss-110, cas-100 (predvolene sss-100)")
        sub.add_argument("--board", required=True, metavar="DOSKA.txt",
                         help="15 riadkov po 15 znakov: '.' prázdne, VEĽKÉ písmeno kameň, "
                         "malé písmeno žolík")
        sub.add_argument("--rack", required=True, metavar="ZÁSOBNÍK",
                         help="písmená zásobníka veľkými písmenami, '?' žolík")
        sub.add_argument("--json", action="store_true", help="výsledok ako dokument JSON")
    score.add_argument("--move", required=True, metavar="ŤAH",
                       help="napr. \"8H SLOVO\" (vodorovne), \"H8 SLOVO\" (zvisle); so smerom "
                       "\"H8 V SLOVO\" (V vodorovne, Z/S zvisle, O/K); žolík malým "
                       "písmenom alebo v zátvorke")
    duplicate_hall.add_actions(actions)


def _run(args: argparse.Namespace) -> int:
    if args.duplicate_action in duplicate_hall.ACTIONS:
        return duplicate_hall.run_action(args)
    try:
        tiles = TileSet.load(args.tiles)
    except ProfileError as exc:
        return _usage(str(exc))
    try:
        board = parse_board(Path(args.board).read_text(encoding="utf-8"),
                            frozenset(tiles.letters), tiles.blank_letters)
        rack = _rack(args.rack, tiles)
        lexicon = read_lexicon(args.lexicon, Path(config(args).lexicon.dir))
        if args.duplicate_action == "top":
            return _top(board, rack, lexicon, tiles, args.json)
        return _score(board, rack, args.move, lexicon, tiles, args.json)
    except DuplicateError as exc:
        return _usage(t(f"duplicate.input.{exc.code}", **exc.params))
    except (UnicodeDecodeError, LexiconError) as exc:
        return _usage(str(exc))
    except BrokenPipeError:  # `… | head` stopped reading: main() ends quietly, no error line
        raise
    except OSError as exc:  # the lexicon or board file the system refused: its reason
        return _usage(os_error(exc))


def _usage(line: str) -> int:
    print(t("cli.error", reason=line), file=sys.stderr)
    return USAGE_ERROR


def _rack(text: str, tiles: TileSet) -> str:
    if not 1 <= len(text) <= tiles.rack_size:
        raise DuplicateError("rack_size", f"a rack of {len(text)}", size=tiles.rack_size,
                             count=len(text))
    for ch in text:
        if ch != BLANK and ch.lower() not in tiles.letters:
            raise DuplicateError("rack_letter", f"unknown rack letter {ch!r}", letter=ch)
    return text.upper()


def _top(board: Board, rack: str, lexicon: LoadedLexicon, tiles: TileSet, as_json: bool
         ) -> int:
    result = top_moves(board, rack, lexicon.graph, tiles)
    if as_json:
        print(json.dumps({**result.as_dict(), "lexicon": lexicon.id, "tiles": tiles.name},
                         ensure_ascii=False))
        return 0
    print(t("duplicate.top_summary", count=result.count, score=result.score,
            lexicon=lexicon.id, tiles=tiles.name))
    for move in result.tops:
        print(t("duplicate.top_row", coord=move.coord, word=move.word, score=move.score))
    if not result.tops:
        print(t("duplicate.top_none"))
    return 0


def _score(board: Board, rack: str, move: str, lexicon: LoadedLexicon, tiles: TileSet,
           as_json: bool) -> int:
    verdict = score_move(board, rack, move, lexicon.graph, tiles)
    reason = t(f"duplicate.reason.{verdict.reason}", **verdict.params) if verdict.reason \
        else None
    if as_json:
        print(json.dumps({"valid": verdict.valid, "score": verdict.score,
                          "words": list(verdict.words), "reason": reason, "rule": verdict.rule,
                          "lexicon": lexicon.id, "tiles": tiles.name}, ensure_ascii=False))
    elif verdict.valid:
        print(t("duplicate.valid", score=verdict.score, words=", ".join(verdict.words)))
    else:
        print(t("duplicate.invalid", reason=reason))
    return 0
