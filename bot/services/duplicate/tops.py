"""A round's tops, computed once per process and as early as possible (003 r. 17: "Pořadatel
mezitím zadá vylosovaná písmena počítači a nechá vygenerovat jeho tah" — while the players
think, the organiser has the computer find its move).

Online, the `dup_tops` timer (due when the round opens) starts the move generator in a worker
thread (`warm`); the close at the deadline then takes its result (`tops_of`) — or waits for it,
or computes it itself when no warm-up ran (a restart, the hall's separate CLI processes). It is
a cache only: the close always gets the same tops, whoever computed them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor

from bot.services.duplicate.context import tile_set
from bot.services.duplicate.lexicons import LoadedLexicon
from rules.duplicate import duplicate_profile
from rules.duplicate.board import parse_board
from rules.duplicate.top import Tops, TopSettings, top_moves

Key = tuple[str, str, str, str, str]  # lexicon id, tile set, profile, board, rack
KEEP = 16  # rounds remembered (a few events at once)
SUB_TOPS = 3  # the next best moves below the top a round's close announces

_jobs: OrderedDict[Key, Future[Tops]] = OrderedDict()
_lock = threading.Lock()
_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="duplicate-tops")


def compute(board_text: str, rack: str, lexicon: LoadedLexicon, tiles_name: str,
            profile_name: str) -> Tops:
    """The tops in 003 r. 5–9's order (the move generator; seconds on a big lexicon)."""
    tiles = tile_set(tiles_name)
    board = parse_board(board_text, frozenset(tiles.letters), tiles.blank_letters)
    settings = TopSettings.from_rule(duplicate_profile(profile_name).tops)
    return top_moves(board, rack, lexicon.graph, tiles, settings, sub_tops=SUB_TOPS)


def _job(key: Key, board_text: str, rack: str, lexicon: LoadedLexicon, tiles_name: str,
         profile_name: str, *, background: bool) -> Future[Tops]:
    with _lock:
        job = _jobs.get(key)
        if job is not None and not (job.done() and job.exception() is not None):
            _jobs.move_to_end(key)
            return job
        if background:
            job = _pool.submit(compute, board_text, rack, lexicon, tiles_name, profile_name)
        else:
            job = Future()
        _jobs[key] = job
        while len(_jobs) > KEEP:
            _jobs.popitem(last=False)
    if not background:  # computed here, in the caller's thread
        try:
            job.set_result(compute(board_text, rack, lexicon, tiles_name, profile_name))
        except BaseException as exc:
            job.set_exception(exc)
    return job


def warm(board_text: str, rack: str, lexicon: LoadedLexicon, tiles_name: str,
         profile_name: str) -> None:
    """Start computing the tops in the background (returns at once)."""
    _job((lexicon.id, tiles_name, profile_name, board_text, rack), board_text, rack, lexicon,
         tiles_name, profile_name, background=True)


def tops_of(board_text: str, rack: str, lexicon: LoadedLexicon, tiles_name: str,
            profile_name: str) -> Tops:
    """The tops: the warm-up's result (waited for), else computed now."""
    return _job((lexicon.id, tiles_name, profile_name, board_text, rack), board_text, rack,
                lexicon, tiles_name, profile_name, background=False).result()
