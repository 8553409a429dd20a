"""A stand-in word list from Debian's hunspell dictionaries (issue 22), until an association
hands over its own. Labelled a stand-in in its header, so every lexicon built from it and every
verdict it decides says so. Never committed: hunspell-sk/-cs are GPL; build it on the machine.

The pipeline: `unmunch DIC AFF` (Debian hunspell-tools) expands the affixes; each expanded line's
first field is a candidate form, kept when it is written in lower case (capitalised entries are
proper names or abbreviations, SP B1 10.2 body 1, 3), uses only letters a tile or a blank can
be (the profile's), and has 2–15 letters; then `hunspell -G` keeps the candidates the
dictionary itself accepts (unmunch over-generates, e.g. comparatives of every adjective).

Then the rules it stands in for (SP B1 10.1–10.8, `rules.lexicon.standin`; issue 35): before
unmunch, the .dic loses the lower-case twins of capitalised noun entries (proper nouns) and the
entries of the lemmas the seed rules on (only their `keep` forms come back); after hunspell,
the negated verbal nouns and the forms the seed refuses go; the forms of the active
participles hunspell gives in the base form only, the animal plurals 10.4 allows where hunspell
declines the animal like a person, and those the seed names are added; the families the
profile refuses (`rules.lexicon.families`: 10.2 bod 5, 10.4, 10.8) go, each counted.
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
from bot.services.lexicon.files import check_out_folder
from bot.written_file import ensure_folder, write_replacing
from rules.lexicon import Admissibility, admissibility
from rules.lexicon.judge import LexiconError
from rules.lexicon.standin import (
    Entry,
    active_participle_forms,
    added,
    animal_plurals,
    kept_of_lemmas,
    negated_verbal_nouns,
    proper_twins,
    refused,
    rulings,
    symbols,
)

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
    sp_b1: bool = False  # filtered by SP B1 10.1–10.8 (the SSS rules; ČAS's PPS are not seeds)


DICTIONARIES = {
    "sk": Dictionary("sk", "sk_SK", "sss", "hunspell-sk", sp_b1=True),
    "cs": Dictionary("cs", "cs_CZ", "cas", "hunspell-cs"),
}


@dataclass(frozen=True)
class StandinReport:
    path: Path
    dictionary: str
    expanded: int  # lines unmunch printed
    candidates: int  # distinct forms the filter kept
    accepted: int  # of those, the ones hunspell accepts
    seconds: float
    proper_nouns: int = 0  # lower-case twins of proper nouns left out (SP B1 10.2 bod 1)
    verbal_nouns: int = 0  # negated verbal nouns left out (SP B1 10.8)
    ruled_out: int = 0  # forms the seed's named cases refuse
    ruled_in: int = 0  # forms the seed's named cases add
    forms: int = 0  # the list written
    sp_b1: bool = False  # whether SP B1 10.1–10.8 filtered it (sk)
    #: what each filter left out, in the order applied: (its name, the entries or forms)
    filters: tuple[tuple[str, int], ...] = ()


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
    check_out_folder(out)
    ensure_folder(out)  # a folder that cannot be made fails now, not after a minute's work
    unmunch = _tool("unmunch", "hunspell-tools")
    hunspell = _tool("hunspell", "hunspell")
    rules = admissibility(dictionary.rules)
    ruled = rulings(dictionary.rules)
    encoding = _encoding(aff)
    entries = [Entry.parse(line) for line in _dic_lines(dic, encoding)]
    twins = proper_twins(entries) if dictionary.sp_b1 else set()
    marks = symbols(entries)  # unit marks and abbreviations: both dictionaries hold them
    lemmas = kept_of_lemmas(ruled)
    with tempfile.TemporaryDirectory(prefix="stredisko-standin-") as work:
        folder = Path(work)
        kept_dic = _write_dic(folder / "kept.dic", encoding, (e for e in entries
                                                              if e.word not in twins
                                                              and e.word not in marks
                                                              and e.word not in lemmas))
        unmunched = step(t("lexicon.step_unmunch", SLOVAK, dictionary=dic.name))
        expanded_path = folder / "expanded.txt"
        with expanded_path.open("wb") as sink:
            _run([unmunch, str(kept_dic), str(aff)], stdout=sink)
        unmunched(1, 1)
        expanded, kept = _candidates(expanded_path, rules,
                                     step(t("lexicon.step_candidates", SLOVAK)))
        for lemma, keep in lemmas.items():  # of a ruled lemma's own forms, `keep` stays
            own = _write_dic(folder / "lemma.dic", encoding,
                             (e for e in entries if e.word == lemma))
            kept |= _expand(unmunch, own, aff, rules, folder / "lemma.txt")[1] & keep
        accepted_path = folder / "accepted.txt"
        with accepted_path.open("wb") as sink:
            _feed([hunspell, "-i", "utf-8", "-d", str(dic.with_suffix("")), "-G"],
                  sorted(kept), sink, step(t("lexicon.step_hunspell", SLOVAK)))
        accepted = {line.strip() for line in
                    accepted_path.read_text(encoding="utf-8").splitlines()
                    if line.strip() in kept}
    hunspell_accepted = len(accepted)
    flagged = {e.word for e in entries if e.flags}
    verbal = negated_verbal_nouns(accepted, flagged) if dictionary.sp_b1 else set()
    out_ruled = (refused(ruled) & accepted) - verbal
    participles = (active_participle_forms(accepted) | animal_plurals(accepted)) - accepted \
        if dictionary.sp_b1 else set()
    into = {form for form in added(ruled) | participles
            if candidate(form, rules) == form} - accepted
    kept_forms = (accepted - verbal - out_ruled) | into
    # the families the profile's rules refuse (rules.lexicon.families), each counted
    by_family = [(refuse, {form for form in kept_forms if refuse.refuses(form)})
                 for refuse in rules.refuse]
    forms = sorted(kept_forms.difference(*(found for _, found in by_family)))
    filters = [(t("lexicon.filter_symbols", SLOVAK), len(marks))]
    if dictionary.sp_b1:
        filters += [(t("lexicon.filter_proper", SLOVAK), len(twins)),
                    (t("lexicon.filter_verbal", SLOVAK), len(verbal)),
                    (t("lexicon.filter_ruled", SLOVAK,
                       file=f"{dictionary.rules}/standin.toml"), len(out_ruled))]
    filters += [(f"{refuse.rule}: {refuse.says}", len(found)) for refuse, found in by_family]
    what = f"{dictionary.package} ({dic.name} sha256 {_sha256(dic)[:16]})"
    applied = [f"# vynechané — {name}: −{count}" for name, count in filters]
    if dictionary.sp_b1:
        applied.append(f"# pridané podľa SP B1 10.8 (tvary činných prídavných mien, tvary, "
                       f"ktoré pravidlá menujú; data/{dictionary.rules}/standin.toml): "
                       f"+{len(into)}")
    header = [
        "# stredisko: NÁHRADNÝ zoznam slov (stand-in), nie je zoznamom spolku.",
        f"# stand-in: {dictionary.package}",
        f"# zdroj: {what}; {_first_comment(aff)}",
        "# postup: unmunch (hunspell-tools), malé písmená, písmená sady, 2–15 písmen, "
        "hunspell -G (len tvary, ktoré slovník sám prijme)",
        *applied,
        "# licencia: GPL ako slovník; súbor sa necommituje, zostavuje sa na počítači",
        f"# tvarov: {len(forms)}",
    ]
    written = step(t("lexicon.step_write", SLOVAK, file=out.name))
    write_replacing(out, ("\n".join(header + forms) + "\n").encode("utf-8"))
    written(1, 1)
    return StandinReport(out, dictionary.package, expanded, len(kept), hunspell_accepted,
                         round(time.monotonic() - started, 1), proper_nouns=len(twins),
                         verbal_nouns=len(verbal), ruled_out=len(out_ruled),
                         ruled_in=len(into), forms=len(forms), sp_b1=dictionary.sp_b1,
                         filters=tuple(filters))


def _encoding(aff: Path) -> str:
    """The dictionary's encoding, as its .aff's SET line names it (UTF-8 when it has none)."""
    with aff.open(encoding="latin-1") as file:  # the SET line itself is ASCII
        for line in file:
            if line.startswith("SET "):
                return line.split()[1]
    return "utf-8"


def _dic_lines(dic: Path, encoding: str) -> list[str]:
    """The entries of a .dic (its first line is their count)."""
    with dic.open(encoding=encoding, errors="replace") as file:
        lines = file.read().splitlines()
    return [line for line in lines[1:] if line.strip()]


def _write_dic(path: Path, encoding: str, entries: Iterable[Entry]) -> Path:
    """A .dic of `entries`, in the dictionary's encoding, for unmunch."""
    lines = [e.word + (f"/{e.flags}" if e.flags else "") + (f" {e.morph}" if e.morph else "")
             for e in entries]
    path.write_text("\n".join([str(len(lines)), *lines]) + "\n", encoding=encoding)
    return path


def _expand(unmunch: str, dic: Path, aff: Path, rules: Admissibility, sink_path: Path
            ) -> tuple[int, set[str]]:
    """unmunch's lines for `dic` counted, and the candidate forms among them."""
    with sink_path.open("wb") as sink:
        _run([unmunch, str(dic), str(aff)], stdout=sink)
    return _candidates(sink_path, rules, lambda done, total: None)


def _candidates(path: Path, rules: Admissibility, counter: Counter) -> tuple[int, set[str]]:
    """unmunch's lines in `path` counted, and the candidate forms among them; `counter`
    hears how far it is."""
    total = _lines(path)
    expanded = 0
    kept: set[str] = set()
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            expanded += 1
            if not expanded % (_CHUNK * 16):
                counter(expanded, total)
            form = candidate(line, rules)
            if form is not None:
                kept.add(form)
    counter(expanded, expanded)
    return expanded, kept


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
