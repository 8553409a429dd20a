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
participles hunspell gives in the base form only and those the seed names are added.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bot.i18n import SLOVAK, t
from rules.lexicon import Admissibility, admissibility
from rules.lexicon.judge import LexiconError
from rules.lexicon.standin import (
    Entry,
    active_participle_forms,
    added,
    kept_of_lemmas,
    negated_verbal_nouns,
    proper_twins,
    refused,
    rulings,
)

DICT_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell/dicts"))


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


def build_standin(language: str, out: Path, folders: Iterable[Path] = DICT_DIRS
                  ) -> StandinReport:
    """Write the stand-in list for `language` ("sk", "cs") to `out` (see the docstring)."""
    started = time.monotonic()
    dictionary = DICTIONARIES[language]
    dic, aff = find_dictionary(dictionary, folders)
    unmunch = _tool("unmunch", "hunspell-tools")
    hunspell = _tool("hunspell", "hunspell")
    rules = admissibility(dictionary.rules)
    ruled = rulings(dictionary.rules)
    encoding = _encoding(aff)
    entries = [Entry.parse(line) for line in _dic_lines(dic, encoding)]
    twins = proper_twins(entries) if dictionary.sp_b1 else set()
    lemmas = kept_of_lemmas(ruled)
    with tempfile.TemporaryDirectory(prefix="stredisko-standin-") as work:
        folder = Path(work)
        kept_dic = _write_dic(folder / "kept.dic", encoding, (e for e in entries
                                                              if e.word not in twins
                                                              and e.word not in lemmas))
        expanded, kept = _expand(unmunch, kept_dic, aff, rules, folder / "expanded.txt")
        for lemma, keep in lemmas.items():  # of a ruled lemma's own forms, `keep` stays
            own = _write_dic(folder / "lemma.dic", encoding,
                             (e for e in entries if e.word == lemma))
            kept |= _expand(unmunch, own, aff, rules, folder / "lemma.txt")[1] & keep
        candidates_path = folder / "candidates.txt"
        candidates_path.write_text("".join(f"{form}\n" for form in sorted(kept)),
                                   encoding="utf-8")
        accepted_path = folder / "accepted.txt"
        with candidates_path.open("rb") as source, accepted_path.open("wb") as sink:
            _run([hunspell, "-i", "utf-8", "-d", str(dic.with_suffix("")), "-G"],
                 stdin=source, stdout=sink)
        accepted = {line.strip() for line in
                    accepted_path.read_text(encoding="utf-8").splitlines()
                    if line.strip() in kept}
    hunspell_accepted = len(accepted)
    flagged = {e.word for e in entries if e.flags}
    verbal = negated_verbal_nouns(accepted, flagged) if dictionary.sp_b1 else set()
    out_ruled = (refused(ruled) & accepted) - verbal
    participles = active_participle_forms(accepted) - accepted if dictionary.sp_b1 else set()
    into = {form for form in added(ruled) | participles
            if candidate(form, rules) == form} - accepted
    forms = sorted((accepted - verbal - out_ruled) | into)
    what = f"{dictionary.package} ({dic.name} sha256 {_sha256(dic)[:16]})"
    applied = [
        f"# pravidlá SP B1 10.1–10.8 (rules.lexicon.standin): bez vlastných mien v malých "
        f"písmenách ({len(twins)} hesiel, 10.2 bod 1), bez slovesných podstatných mien so "
        f"záporom ({len(verbal)} tvarov, 10.8), pomenované prípady semienka 000 "
        f"(−{len(out_ruled)} tvarov; data/{dictionary.rules}/standin.toml), tvary činných "
        f"prídavných mien a pomenované tvary (+{len(into)}, 10.8)"] if dictionary.sp_b1 else []
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
    partial = out.with_name(out.name + ".part")
    partial.write_text("\n".join(header + forms) + "\n", encoding="utf-8")
    partial.replace(out)
    return StandinReport(out, dictionary.package, expanded, len(kept), hunspell_accepted,
                         round(time.monotonic() - started, 1), proper_nouns=len(twins),
                         verbal_nouns=len(verbal), ruled_out=len(out_ruled),
                         ruled_in=len(into), forms=len(forms), sp_b1=dictionary.sp_b1)


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
    expanded = 0
    kept: set[str] = set()
    with sink_path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            expanded += 1
            form = candidate(line, rules)
            if form is not None:
                kept.add(form)
    return expanded, kept


def _run(command: list[str], **streams: object) -> None:
    done = subprocess.run(command, stderr=subprocess.PIPE, check=False, **streams)  # type: ignore[call-overload]
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        raise LexiconError(t("lexicon.standin_failed", SLOVAK, tool=Path(command[0]).name,
                             code=done.returncode, detail=detail[0][:200]))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _first_comment(aff: Path) -> str:
    """The dictionary's own version line ("# verzia: 2.04, 2013-03-17"), if it has one."""
    with aff.open(encoding="utf-8", errors="replace") as file:
        first = file.readline().strip()
    return first.lstrip("#").strip() if first.startswith("#") else aff.name
