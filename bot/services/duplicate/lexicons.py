"""THE way duplicate Scrabble reads a lexicon, and the per-process cache a live event uses.

A built lexicon (`stredisko lexicon build`, by path or by id in `[lexicon] dir`) is loaded with
its id; a plain word list (one form per line) is taken exactly as given — no short-word
exclusivity is applied — and identified by the sha256 of its bytes. An event stores where its
lexicon is and the id it had when the event was made; every close loads it (once per process,
cached by where and id) and refuses a lexicon whose id changed since.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import t
from bot.services.lexicon import files as lexicon_files
from rules.duplicate.errors import DuplicateError
from rules.lexicon import LexiconError
from rules.lexicon.graph import TrieGraph, WordGraph


@dataclass(frozen=True, slots=True)
class LoadedLexicon:
    id: str
    graph: WordGraph


def read_lexicon(name: str, directory: Path) -> LoadedLexicon:
    """Read a lexicon as the module's docstring says. LexiconError / DuplicateError / OSError
    for what cannot be read."""
    path = Path(name)
    if not path.is_file() or lexicon_files.is_built(path):
        lexicon = lexicon_files.load(name, directory)
        return LoadedLexicon(lexicon.id, lexicon.graph)
    # the project's one bounded reader (size, lines, UTF-8 with SÚBOR:RIADOK); rules=None
    # keeps every form of letters, whatever its length or alphabet
    read = lexicon_files.read_word_file(path, strict=False)
    if not read.forms:
        raise DuplicateError("lexicon_empty", f"{path}: no word", path=str(path))
    return LoadedLexicon(f"sha256:{read.sha256[:16]}", TrieGraph(read.forms))


def where(name: str, directory: Path) -> str:
    """What an event stores to find its lexicon again: the absolute path of the file `name`
    names (a path, or an id in `directory`), so a close needs no configuration."""
    path = lexicon_files.lexicon_path(name, directory)
    return str(path.resolve()) if path.is_file() else name


_cache: dict[tuple[str, str], LoadedLexicon] = {}
_lock = threading.Lock()


def cached(name: str, expected_id: str, directory: Path = Path(".")) -> LoadedLexicon:
    """The event's lexicon, loaded once per process. LexiconError when it is not the one the
    event was made with (its id changed: the file was rebuilt or replaced)."""
    key = (name, expected_id)
    with _lock:  # the close runs in a worker thread; two closes must not load it twice
        found = _cache.get(key)
        if found is None:
            found = read_lexicon(name, directory)
            if found.id != expected_id:
                raise LexiconError(t("duplicate.online.lexicon_changed", name=name,
                                     found=found.id, expected=expected_id))
            _cache[key] = found
        return found


def remember(name: str, lexicon: LoadedLexicon) -> None:
    """Put a lexicon just read (at the event's creation) in the cache."""
    with _lock:
        _cache[(name, lexicon.id)] = lexicon
