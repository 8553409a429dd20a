"""Lexicons as files (issue 22): read an association's word list, build the compiled lexicon,
load one by path or id, check words. The rules (which list decides, the graph) are pure, in
`rules.lexicon`; this shell reads and writes files.

A word list is a UTF-8 file, one form a line; `#` comment lines at the top describe it (a
stand-in says so in a `# stand-in: …` line, and every verdict it decides names it a stand-in).
Reading streams the file and is bounded: at most `MAX_FILE_BYTES` and `MAX_LINES`, refused
beyond; a line that is not UTF-8 refuses the file (`SÚBOR:RIADOK`); lines that are no form
(digits, spaces inside, letters no tile or blank can be) are problems, listed up to
`MAX_LISTED` with SÚBOR:RIADOK and counted beyond; empty lines, duplicates and forms too short
or too long for the board are skipped and counted.

A built lexicon lives where it was written (`-o`); `--lexicon ID` looks in the folder of
`[lexicon] dir` (default `lexicons`, next to config.toml) for ID.lex or a lexicon with that id.
"""

from __future__ import annotations

import hashlib
import json
import os
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from bot.i18n import SLOVAK, t
from bot.progress import Counter, StepStart
from bot.written_file import write_replacing
from rules.free_text import shown_inline
from rules.lexicon import (
    Admissibility,
    Lexicon,
    LexiconError,
    Source,
    WordList,
    WordVerdict,
    admissibility,
    compile_graph,
    judge,
    make_lexicon,
)
from rules.lexicon.admissibility import DATA_DIR, ListSpec
from rules.lexicon.artifact import MAGIC, from_bytes, is_artifact, to_bytes

MAX_FILE_BYTES = 256 * 2**20  # 3 M forms are ~40 MB; a larger file is no word list
MAX_LINES = 5_000_000
MAX_LISTED = 20
MAX_LINE_BYTES = 1000  # a longer line is no form: reported, never decoded
SUFFIX = ".lex"
STANDIN_MARK = "stand-in:"
#: the header line that names a word list in every verdict it decides (`# názov: …`)
TITLE_MARK = "názov:"
#: the steps of `build`, for a progress bar (`Steps(…, BUILD_STEPS, …)`)
BUILD_STEPS = 4
_TICK = 1 << 14  # lines read between two progress reports


class WordListError(LexiconError):
    """A word list that cannot be used: one Slovak message, with SÚBOR:RIADOK where it has one
    (several lines when it lists problems)."""


@dataclass
class WordFile:
    """One word list read: its forms (sorted, unique) and what reading it found."""

    name: str
    sha256: str = ""
    lines: int = 0
    forms: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # SÚBOR:RIADOK: …, at most MAX_LISTED
    problem_count: int = 0
    empty: int = 0
    duplicates: int = 0
    first_duplicate: int = 0
    off_length: int = 0

    @property
    def standin(self) -> str:
        """What a stand-in list says it is made of ("" for an association's list)."""
        return self._header(STANDIN_MARK)

    @property
    def title(self) -> str:
        """What the list's own `# názov: …` line calls it ("" without one)."""
        return self._header(TITLE_MARK)

    def _header(self, mark: str) -> str:
        for comment in self.comments:
            if comment.lower().startswith(mark):
                return comment[len(mark):].strip()
        return ""

    def label(self, given: str = "") -> str:
        """The title its verdicts name: `given` (--title), else a stand-in's label, else
        its own `# názov:` line, else its file name — never "the association's list" unless
        the user says so (issue 35)."""
        if given:
            return given
        if self.standin:
            return t("lexicon.standin_title", SLOVAK, what=self.standin)
        return self.title or t("lexicon.file_title", SLOVAK, file=self.name)

    def source(self) -> Source:
        return Source(self.name, self.sha256, self.lines, len(self.forms))

    def notes(self) -> list[str]:
        """What was skipped, in Slovak, one line each."""
        notes = []
        if self.empty:
            notes.append(t("lexicon.empty_lines", SLOVAK, file=self.name, n=self.empty))
        if self.duplicates:
            notes.append(t("lexicon.duplicates", SLOVAK, file=self.name, n=self.duplicates,
                           line=self.first_duplicate))
        if self.off_length:
            notes.append(t("lexicon.off_length", SLOVAK, file=self.name, n=self.off_length))
        if self.problem_count:
            notes.append(t("lexicon.skipped_problems", SLOVAK, file=self.name,
                           n=self.problem_count))
            notes.extend(self.problems)
        return notes


def read_word_file(path: Path, rules: Admissibility | None = None, *,
                   strict: bool = True, counter: Counter | None = None) -> WordFile:
    """The forms of a word-list file, lower case (NFC); see the module's docstring. `rules`
    adds its letters and lengths to the checks; `strict` refuses a file with problems;
    `counter` hears (lines read, lines) as it goes."""
    read = WordFile(name=path.name)
    digest = hashlib.sha256()
    seen: set[str] = set()
    with path.open("rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise WordListError(t("lexicon.too_big", SLOVAK, file=path.name, mb=size // 2**20,
                                  max_mb=MAX_FILE_BYTES // 2**20))
        total = _count_lines(file)
        if total > MAX_LINES:  # counted in bytes first: refused in a second
            raise WordListError(t("lexicon.too_many_lines", SLOVAK, file=path.name,
                                  line=MAX_LINES + 1, max=MAX_LINES))
        number = 0
        for number, raw in enumerate(file, 1):
            if counter is not None and not number % _TICK:
                counter(number, total)
            digest.update(raw)
            if len(raw) > MAX_LINE_BYTES:
                _problem(read, t("lexicon.long_line", SLOVAK, where=f"{path.name}:{number}",
                                 size=len(raw)))
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise WordListError(t("lexicon.not_utf8", SLOVAK, file=path.name,
                                      line=number)) from None
            text = text.lstrip("\ufeff").strip() if number == 1 else text.strip()
            _take(read, seen, text, number, rules)
        read.lines = number
    if counter is not None:
        counter(number, total)
    read.sha256 = digest.hexdigest()
    read.forms = sorted(seen)
    if strict and read.problem_count:
        more = read.problem_count - len(read.problems)
        tail = [t("lexicon.more_problems", SLOVAK, n=more)] if more > 0 else []
        raise WordListError("\n".join([
            t("lexicon.problems", SLOVAK, file=path.name, n=read.problem_count),
            *read.problems, *tail]))
    return read


def _count_lines(file: BinaryIO) -> int:
    """The lines of `file` (a last line without a newline counts), read in chunks; rewinds."""
    count, last = 0, b"\n"
    while chunk := file.read(1 << 20):
        count += chunk.count(b"\n")
        last = chunk[-1:]
    file.seek(0)
    return count + (last != b"\n")


def _take(read: WordFile, seen: set[str], text: str, number: int,
          rules: Admissibility | None) -> None:
    """One line of a word list into `read` (a form, a comment, or a counted problem)."""
    if not text:
        read.empty += 1
        return
    where = f"{read.name}:{number}"
    if text.startswith("#"):
        if seen or read.problem_count:
            _problem(read, t("lexicon.late_comment", SLOVAK, where=where))
        else:
            read.comments.append(text.lstrip("#").strip())
        return
    form = unicodedata.normalize("NFC", text).lower()
    if not form.isalpha():  # the C-level test first: millions of lines pass it
        bad = next(ch for ch in form if not ch.isalpha())
        what = t("lexicon.space", SLOVAK) if bad == " " else f"„{shown_inline(bad)}“"
        _problem(read, t("lexicon.not_letters", SLOVAK, where=where, form=_shown(form),
                         what=what))
        return
    if rules is not None:
        if not rules.playable.issuperset(form):
            stray = next(ch for ch in form if ch not in rules.playable)
            _problem(read, t("lexicon.not_in_alphabet", SLOVAK, where=where, form=_shown(form),
                             letter=stray, rule=rules.letters.rule))
            return
        if not rules.length.min <= len(form) <= rules.length.max:
            read.off_length += 1
            return
    if form in seen:
        read.duplicates += 1
        read.first_duplicate = read.first_duplicate or number
        return
    seen.add(form)


def _shown(form: str) -> str:
    """A problem line's form: cut short, on one line, nothing hidden (only for a line with a
    problem: millions of good lines need none of it)."""
    return shown_inline(form if len(form) <= 30 else form[:29] + "…")


def _problem(read: WordFile, message: str) -> None:
    read.problem_count += 1
    if len(read.problems) < MAX_LISTED:
        read.problems.append(message)


@dataclass(frozen=True)
class BuildReport:
    lexicon: Lexicon
    path: Path
    bytes: int
    notes: list[str]


def short_lists(paths: Sequence[Path], rules: Admissibility) -> list[tuple[WordList, Source]]:
    """The association's own exclusive/always lists: files named by the list's id
    (b2.txt, b3.txt, b5.txt, b6.txt, b7.txt; blex.txt) or a folder of them."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.iterdir()
                                if p.suffix == ".txt" and p.stem.lower() in rules.specs))
        else:
            files.append(path)
    if not files:
        raise WordListError(t("lexicon.no_short_lists", SLOVAK, known=", ".join(rules.specs)))
    lists = []
    for path in files:
        spec = rules.specs.get(path.stem.lower())
        if spec is None:
            raise WordListError(t("lexicon.unknown_list", SLOVAK, file=path.name,
                                  known=", ".join(f"{k}.txt" for k in rules.specs)))
        read = read_word_file(path, rules)
        lists.append((WordList(spec.id, spec.title, frozenset(read.forms),
                               t("lexicon.list_note", SLOVAK, file=path.name)), read.source()))
    return lists


def build(words: Path, rules_name: str, out: Path, lists: Sequence[Path] = (),
          title: str = "", strict: bool = True, steps: StepStart | None = None
          ) -> BuildReport:
    """Compile `words` under the profile `rules_name` into the lexicon file `out`: the
    admissible set, with each exclusive list at hand deciding its length (and the `always`
    lists added where no exclusive list rules), so a move generator can walk it directly.
    Its verdicts name `title`, else what `WordFile.label` finds. `steps` hears each of the
    `BUILD_STEPS` steps start and how far it is."""
    step = steps or _quiet
    rules = admissibility(rules_name)
    check_out_folder(out)
    if is_built(words):  # its header is binary: read as words it would be "not UTF-8"
        raise WordListError(t("lexicon.build_from_lexicon", SLOVAK, file=words.name))
    own = short_lists(lists, rules) if lists else []
    rules = rules.with_lists(word_list for word_list, _ in own)
    read = read_word_file(words, rules, strict=strict,
                          counter=step(t("lexicon.step_read", SLOVAK, file=words.name)))
    if not read.forms:  # only the bundled lists would be in it: surely not what was meant
        raise WordListError(t("lexicon.no_forms", SLOVAK, file=words.name))
    sources = [read.source(), *(source for _, source in own)]
    own_ids = {word_list.id for word_list, _ in own}
    sources += [_bundled_source(rules, list_id) for list_id in rules.lists
                if list_id not in own_ids]
    choose = step(t("lexicon.step_admissible", SLOVAK))
    forms, exclusive = hybrid(read.forms, rules)
    choose(1, 1)
    graph = compile_graph(_counted(sorted(forms), step(t("lexicon.step_graph", SLOVAK))))
    lexicon = make_lexicon(graph, read.label(title), rules.name, bool(read.standin),
                           tuple(sources), exclusive)
    write = step(t("lexicon.step_write", SLOVAK, file=out.name))
    data = to_bytes(lexicon)
    write_replacing(out, data)
    write(1, 1)
    return BuildReport(lexicon, out, len(data), read.notes())


def check_out_folder(out: Path) -> None:
    """Refuse an output whose folder is missing and could only be made with its parents: one
    new folder in an existing one is made (`-o lexicons/sk.lex`), a path from the root that
    does not exist (`/nonexistent/dir/x.lex`: a typo) is refused before any work."""
    folder = out.parent
    if not folder.exists() and not folder.parent.is_dir():
        raise WordListError(t("lexicon.out_folder", SLOVAK, out=str(out),
                              folder=str(folder.parent)))


def _quiet(name: str) -> Counter:
    return lambda done, total: None


def _counted(forms: list[str], counter: Counter) -> Iterator[str]:
    """`forms` one by one, telling `counter` every few thousand."""
    total = len(forms)
    for number, form in enumerate(forms, 1):
        if not number % _TICK:
            counter(number, total)
        yield form
    counter(total, total)


def hybrid(forms: Iterable[str], rules: Admissibility) -> tuple[set[str], dict[int, str]]:
    """The admissible set: each exclusive list at hand replaces the forms of its length
    (SP B1 10.1 body 3, 4); the families a rule refuses leave the other lengths (so a move
    generator never plays what `judge` refuses); the `always` lists (B5) add theirs there."""
    exclusive = {}
    for length, rule in rules.exclusive.items():
        word_list = rules.lists.get(rule.list)
        if word_list is not None:
            exclusive[length] = word_list.title
    result = {form for form in forms if len(form) not in exclusive
              and (not rules.refuse or rules.refused(form) is None)}
    for length, rule in rules.exclusive.items():
        if length in exclusive:
            result.update(w for w in rules.lists[rule.list].words if len(w) == length)
    for always in rules.always:
        word_list = rules.lists.get(always.list)
        if word_list is not None:
            result.update(w for w in word_list.words if len(w) not in exclusive
                          and rules.length.min <= len(w) <= rules.length.max)
    return result, exclusive


def _bundled_source(rules: Admissibility, list_id: str) -> Source:
    spec = rules.specs[list_id]
    path = DATA_DIR / spec.file
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
    words = len(rules.lists[list_id].words)
    return Source(bundled_source_name(spec), digest, words, words)


def bundled_source_name(spec: ListSpec) -> str:
    """How a built lexicon names a bundled list it applied ("sss/b3.txt (rekonštruované …)");
    the association's own list is named by its file ("b3.txt")."""
    return f"{spec.file or spec.id} ({spec.note})"


def lexicon_path(name: str, directory: Path) -> Path:
    """The built lexicon `name` names: a file, else ID.lex or the lexicon with id ID in
    `directory`; WordListError (Slovak) when there is none."""
    path = Path(name)
    if path.is_file():
        return path
    if os.sep not in name and directory.is_dir():
        candidate = directory / (name if name.endswith(SUFFIX) else name + SUFFIX)
        if candidate.is_file():
            return candidate
        for built in sorted(directory.glob(f"*{SUFFIX}")):
            if _header_id(built) == name:
                return built
    if path.is_dir():
        raise WordListError(t("lexicon.is_folder", SLOVAK, name=name))
    raise WordListError(t("lexicon.not_found", SLOVAK, name=name, folder=str(directory)))


def load(path_or_id: str | Path, directory: Path = Path("lexicons"),
         notes: list[str] | None = None) -> Lexicon:
    """A lexicon: a built one (by path or id) or a plain UTF-8 word list, compiled on the
    spot (lines that are no form are skipped; `notes` gets what was skipped)."""
    path = lexicon_path(str(path_or_id), directory)
    if is_built(path):
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:  # 3 M forms compile to a few MB: no lexicon is this large
            raise WordListError(t("lexicon.too_big", SLOVAK, file=path.name, mb=size // 2**20,
                                  max_mb=MAX_FILE_BYTES // 2**20))
        return from_bytes(path.read_bytes(), path.name)
    read = read_word_file(path, strict=False)
    if notes is not None:
        notes.extend(read.notes())
    if not read.forms:
        raise WordListError(t("lexicon.no_forms", SLOVAK, file=path.name))
    return make_lexicon(compile_graph(read.forms), read.label(), standin=bool(read.standin),
                        sources=(read.source(),))


def is_built(path: Path) -> bool:
    """Whether `path` holds a built lexicon (rather than a plain word list); WordListError
    for a file that is meant to be one (named .lex, or starting like one) but whose header is
    damaged: read as a word list it would only be "not UTF-8"."""
    with path.open("rb") as file:
        head = file.read(len(MAGIC))
    if is_artifact(head):
        return True
    if path.suffix.lower() == SUFFIX or head.startswith(MAGIC.split()[0]):  # no form has "-"
        raise WordListError(t("lexicon.damaged_header", SLOVAK, file=path.name))
    return False


def _header_id(path: Path) -> str:
    try:
        with path.open("rb") as file:
            head = file.read(64 * 1024)
        if not is_artifact(head):
            return ""
        at = len(MAGIC)
        size = int.from_bytes(head[at: at + 4], "little")
        return str(json.loads(head[at + 4: at + 4 + size].decode("utf-8")).get("id", ""))
    except (OSError, ValueError):
        return ""


def check_words(words: Iterable[str], lexicon: Lexicon, rules: Admissibility
                ) -> list[WordVerdict]:
    """Each word's verdict; LexiconError (Slovak) on the first query that is no word."""
    return [judge(word, lexicon, rules) for word in words]
