"""A stand-in word list from Debian's hunspell dictionaries (issue 22), until an association
hands over its own. Labelled a stand-in in its header, so every lexicon built from it and every
verdict it decides says so. Never committed: hunspell-sk/-cs are GPL; build it on the machine.

The pipeline: `unmunch DIC AFF` (Debian hunspell-tools) expands the affixes; each expanded line's
first field is a candidate form, kept when it is written in lower case (capitalised entries are
proper names or abbreviations, SP B1 10.2 body 1, 3), uses only letters a tile or a blank can
be (the profile's), and has 2–15 letters; then `hunspell -G` keeps the candidates the
dictionary itself accepts (unmunch over-generates, e.g. comparatives of every adjective).
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NoReturn

from bot.i18n import SLOVAK, t
from bot.progress import Counter, StepStart
from bot.written_file import ensure_folder, write_replacing
from rules.lexicon import Admissibility, admissibility
from rules.lexicon.judge import LexiconError

DICT_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell/dicts"))
#: the steps of `build_standin`, for a progress bar
STANDIN_STEPS = 4
_CHUNK = 1 << 12  # candidates handed to hunspell between two progress reports


@dataclass(frozen=True)
class Dictionary:
    language: str  # "sk", "cs"
    base: str  # hunspell's name: sk_SK
    rules: str  # the admissibility profile whose letters it keeps
    package: str  # Debian's package


DICTIONARIES = {
    "sk": Dictionary("sk", "sk_SK", "sss", "hunspell-sk"),
    "cs": Dictionary("cs", "cs_CZ", "cas", "hunspell-cs"),
}


@dataclass(frozen=True)
class StandinReport:
    path: Path
    dictionary: str
    expanded: int  # lines unmunch printed
    candidates: int  # distinct forms the filter kept
    accepted: int  # of those, the ones hunspell accepts: the list
    seconds: float


def candidate(line: str, rules: Admissibility) -> str | None:
    """The form an unmunch line offers, or None: its first field, if lower case, of the
    profile's letters and of a playable length."""
    fields = line.split(None, 1)
    if not fields:
        return None
    form = fields[0]
    if form != form.lower() or not rules.length.min <= len(form) <= rules.length.max:
        return None
    playable = rules.playable
    return form if all(ch in playable for ch in form) else None


def find_dictionary(dictionary: Dictionary, folders: Iterable[Path] = DICT_DIRS
                    ) -> tuple[Path, Path]:
    """The .dic and .aff files; LexiconError (Slovak) naming the package when missing."""
    for folder in folders:
        dic, aff = folder / f"{dictionary.base}.dic", folder / f"{dictionary.base}.aff"
        if dic.is_file() and aff.is_file():
            return dic, aff
    raise LexiconError(t("lexicon.standin_missing_dict", SLOVAK, dictionary=dictionary.base,
                         files=f"{dictionary.base}.dic, {dictionary.base}.aff",
                         package=dictionary.package))


def _tool(name: str, package: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise LexiconError(t("lexicon.standin_missing_tool", SLOVAK, tool=name, package=package))
    return found


def build_standin(language: str, out: Path, folders: Iterable[Path] = DICT_DIRS,
                  steps: StepStart | None = None) -> StandinReport:
    """Write the stand-in list for `language` ("sk", "cs") to `out` (see the docstring);
    `steps` hears each of the `STANDIN_STEPS` steps start and how far it is (hunspell's check
    of ~2 million candidates is most of the minute)."""
    step = steps or (lambda name: lambda done, total: None)
    started = time.monotonic()
    dictionary = DICTIONARIES[language]
    dic, aff = find_dictionary(dictionary, folders)
    ensure_folder(out)  # a folder that cannot be made fails now, not after a minute's work
    unmunch = _tool("unmunch", "hunspell-tools")
    hunspell = _tool("hunspell", "hunspell")
    rules = admissibility(dictionary.rules)
    with tempfile.TemporaryDirectory(prefix="stredisko-standin-") as work:
        expanded_path = Path(work) / "expanded.txt"
        unmunched = step(t("lexicon.step_unmunch", SLOVAK, dictionary=dic.name))
        with expanded_path.open("wb") as sink:
            _run([unmunch, str(dic), str(aff)], stdout=sink)
        unmunched(1, 1)
        filtered = step(t("lexicon.step_candidates", SLOVAK))
        total = _lines(expanded_path)
        with expanded_path.open(encoding="utf-8", errors="replace") as lines:
            expanded = 0
            kept: set[str] = set()
            for line in lines:
                expanded += 1
                if not expanded % (_CHUNK * 16):
                    filtered(expanded, total)
                form = candidate(line, rules)
                if form is not None:
                    kept.add(form)
        filtered(expanded, expanded)
        accepted_path = Path(work) / "accepted.txt"
        with accepted_path.open("wb") as sink:
            _feed([hunspell, "-i", "utf-8", "-d", str(dic.with_suffix("")), "-G"],
                  sorted(kept), sink, step(t("lexicon.step_hunspell", SLOVAK)))
        accepted = sorted({line.strip() for line in
                           accepted_path.read_text(encoding="utf-8").splitlines()
                           if line.strip() in kept})
    what = f"{dictionary.package} ({dic.name} sha256 {_sha256(dic)[:16]})"
    header = [
        "# stredisko: NÁHRADNÝ zoznam slov (stand-in), nie je zoznamom spolku.",
        f"# stand-in: {dictionary.package}",
        f"# zdroj: {what}; {_first_comment(aff)}",
        "# postup: unmunch (hunspell-tools), malé písmená, písmená sady, 2–15 písmen, "
        "hunspell -G (len tvary, ktoré slovník sám prijme)",
        "# licencia: GPL ako slovník; súbor sa necommituje, zostavuje sa na počítači",
        f"# tvarov: {len(accepted)}",
    ]
    written = step(t("lexicon.step_write", SLOVAK, file=out.name))
    write_replacing(out, ("\n".join(header + accepted) + "\n").encode("utf-8"))
    written(1, 1)
    return StandinReport(out, dictionary.package, expanded, len(kept), len(accepted),
                         round(time.monotonic() - started, 1))


def _run(command: list[str], **streams: object) -> None:
    done = subprocess.run(command, stderr=subprocess.PIPE, check=False, **streams)  # type: ignore[call-overload]
    if done.returncode != 0:
        _failed(command, done.returncode, done.stderr)


def _failed(command: list[str], code: int, stderr: bytes) -> NoReturn:
    detail = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
    raise LexiconError(t("lexicon.standin_failed", SLOVAK, tool=Path(command[0]).name,
                         code=code, detail=detail[0][:200]))


def _feed(command: list[str], lines: Sequence[str], sink: BinaryIO, counter: Counter) -> None:
    """Run `command` with `lines` on its stdin and its stdout in `sink`, telling `counter`
    how many lines it has been handed (the pipe holds a few thousand at most, so that is how
    far it is)."""
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=errors)
        assert process.stdin is not None and process.stdout is not None
        reader = threading.Thread(target=shutil.copyfileobj, args=(process.stdout, sink),
                                  daemon=True)  # drains stdout while stdin is fed
        reader.start()
        total = len(lines)
        # a BrokenPipeError: it ended early, and its exit status and stderr say why
        with contextlib.suppress(BrokenPipeError):
            try:
                for at in range(0, total, _CHUNK):
                    process.stdin.write("".join(f"{line}\n" for line in lines[at: at + _CHUNK])
                                        .encode("utf-8"))
                    if at + _CHUNK < total:  # the last is drawn once hunspell has ended
                        counter(at + _CHUNK, total)
            finally:
                with contextlib.suppress(BrokenPipeError):
                    process.stdin.close()
        reader.join()
        code = process.wait()
        counter(total, total)
        if code != 0:
            errors.seek(0)
            _failed(command, code, errors.read())


def _lines(path: Path) -> int:
    with path.open("rb") as file:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b""))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _first_comment(aff: Path) -> str:
    """The dictionary's own version line ("# verzia: 2.04, 2013-03-17"), if it has one."""
    with aff.open(encoding="utf-8", errors="replace") as file:
        first = file.readline().strip()
    return first.lstrip("#").strip() if first.startswith("#") else aff.name
