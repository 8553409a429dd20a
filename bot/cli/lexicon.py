"""Lexicons and word checks (issue 22):

- `stredisko word WORD… [--lexicon FILE|ID] [--rules sss|cas] [--json]`: each word PLATNÉ or
  NEPLATNÉ with the list that decided and the rule. Exit 0 when all are valid, 1 when any is
  not, 2 on bad input (a query that is no word, a lexicon that cannot be read). With `--json`
  the error is a JSON document too, `{"error": "…"}`, on stdout where the verdicts would be
  (a script reads one document whatever happened), exit 2.
  `--lexicon` takes a built lexicon (file or id in `[lexicon] dir`) or a plain word list;
  without it, `[lexicon] default`. The rules default to those the lexicon was built under,
  else `sss`; under `sss` the B2/B3 lists decide 2- and 3-letter words whatever the file says.
- `stredisko lexicon build WORDS --rules sss|cas -o OUT [--short-lists DIR|FILE…] [--title
  NÁZOV]`: the compiled lexicon (the admissible set, the exclusive lists applied). Its verdicts
  name the list by --title, else the file's own `# názov: …` line, else its file name (never
  "the association's list" on the program's word). Exit 0, 2 on bad input: a missing or
  unreadable list, a list without one form, a built lexicon given as the list, an output
  folder that does not exist with its parent (one new folder in an existing one is made).
- `stredisko lexicon standin sk|cs -o FILE`: a stand-in word list from hunspell-sk/-cs
  (bot.services.lexicon.standin), with what each filter left out. Exit 0, 2 when a tool or
  dictionary is missing or the output cannot be written.
- build and standin show their steps and counts on stderr as they go (`bot.progress.Steps`).
- `stredisko lexicon show FILE|ID`: a built lexicon's id, sources and counts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bot.cli.common import Add, config
from bot.cli.word_serve import add_serve_options, serve_command
from bot.config import ConfigError
from bot.i18n import t
from bot.os_errors import os_error
from bot.progress import Steps
from bot.services.lexicon import files as service
from bot.services.lexicon.standin import DICTIONARIES, STANDIN_STEPS, build_standin
from bot.services.lexicon.word_check import load_for_check
from rules.free_text import shown
from rules.lexicon import Lexicon, LexiconError
from rules.lexicon.admissibility import admissibility_names
from rules.lexicon.judge import normalize

INPUT_ERROR = 2
PROGRESS = "stredisko:"  # the progress lines' label, as `stredisko sync`'s


def _fail(message: str, as_json: bool = False) -> int:
    if as_json:
        print(json.dumps({"error": message}, ensure_ascii=False))
    else:
        print(shown(message), file=sys.stderr)  # a file's name or title may hold an ESC
    return INPUT_ERROR


def _input_error(exc: LexiconError | OSError) -> int:
    """Every input error of `lexicon` — a list that is missing or unreadable, an output that
    cannot be written, a list that is no list — one line (or a list's problems), exit 2, as
    `word` does (issue 42: a missing list was exit 1 with the generic "chyba:" prefix)."""
    return _fail(os_error(exc) if isinstance(exc, OSError) else str(exc))


def _steps(count: int) -> Steps | None:
    """A job's progress on stderr, when it is a terminal (as git shows its own): a log or a
    pipe gets the result and any error alone."""
    return Steps(PROGRESS, count, sys.stderr) if sys.stderr.isatty() else None


def _directory(args: argparse.Namespace) -> tuple[Path, str]:
    settings = config(args).lexicon
    return Path(settings.dir), settings.default


def word_command(args: argparse.Namespace) -> int:
    if not args.words and not args.serve:
        return _fail(t("input.cli_required", names="SLOVO"), args.json)
    try:
        words = [normalize(word) for word in args.words]  # a bad query costs no loading
        directory, default = _directory(args)
        notes: list[str] = []
        lexicon, rules = load_for_check(args.lexicon or default, directory, args.rules, notes)
        rules_name = rules.name
        verdicts = service.check_words(words, lexicon, rules)
    except (LexiconError, ConfigError) as exc:
        return _fail(str(exc), args.json)
    except OSError as exc:  # a lexicon the system refused to read
        return _fail(os_error(exc), args.json)
    for note in notes:
        print(note, file=sys.stderr)
    if args.serve:  # the hall's page (bot.cli.word_serve); words given too are checked first
        return serve_command(args, lexicon, rules)
    if args.json:
        document = {
            "lexicon": {"id": lexicon.id, "title": lexicon.title, "forms": lexicon.forms,
                        "rules": lexicon.rules, "standin": lexicon.standin},
            "rules": rules_name,
            "verdicts": [verdict.as_dict() for verdict in verdicts],
        }
        json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print(t("lexicon.header", id=lexicon.id, title=lexicon.title, forms=lexicon.forms,
                rules=rules_name))
        for verdict in verdicts:
            answer = t("lexicon.valid" if verdict.valid else "lexicon.invalid")
            print(t("lexicon.verdict", word=verdict.word, answer=answer, source=verdict.source,
                    rule=verdict.rule, reason=verdict.reason))
    return 0 if all(verdict.valid for verdict in verdicts) else 1


def build_command(args: argparse.Namespace) -> int:
    started = time.monotonic()
    steps = _steps(service.BUILD_STEPS)
    try:
        report = service.build(Path(args.words), args.rules, Path(args.out),
                               [Path(p) for p in args.short_lists or ()], args.title,
                               strict=not args.skip_invalid, steps=steps)
    except (LexiconError, OSError) as exc:
        if steps is not None:
            steps.stop()
        return _input_error(exc)
    for note in report.notes:
        print(note, file=sys.stderr)
    _describe(report.lexicon, report.path, report.bytes, time.monotonic() - started)
    return 0


def _describe(lexicon: Lexicon, path: Path, size: int, seconds: float,
              message: str = "lexicon.built") -> None:
    graph = lexicon.graph
    print(t(message, id=lexicon.id, path=str(path), forms=lexicon.forms,
            nodes=getattr(graph, "node_count", "?"), arcs=getattr(graph, "arc_count", "?"),
            size=size // 1024, seconds=round(seconds, 1)))
    print(f"  {shown(lexicon.title)}")
    for source in lexicon.sources:
        print(t("lexicon.built_source", name=source.name, lines=source.lines,
                forms=source.forms, sha256=source.sha256 or "—"))
    for length, title in sorted(lexicon.exclusive.items()):
        print(t("lexicon.built_exclusive", length=length, title=title))


def show_command(args: argparse.Namespace) -> int:
    try:
        directory, _ = _directory(args)
        path = service.lexicon_path(args.lexicon, directory)
        started = time.monotonic()
        lexicon = service.load(path, directory)
    except (LexiconError, OSError) as exc:
        return _input_error(exc)
    _describe(lexicon, path, path.stat().st_size, time.monotonic() - started, "lexicon.shown")
    return 0


def standin_command(args: argparse.Namespace) -> int:
    folders = [Path(args.dict_dir)] if args.dict_dir else None
    steps = _steps(STANDIN_STEPS)
    try:
        report = (build_standin(args.language, Path(args.out), folders, steps) if folders
                  else build_standin(args.language, Path(args.out), steps=steps))
    except (LexiconError, OSError) as exc:
        if steps is not None:
            steps.stop()
        return _input_error(exc)
    print(t("lexicon.standin_done", dictionary=report.dictionary, path=str(report.path),
            forms=report.forms, expanded=report.expanded, candidates=report.candidates,
            accepted=report.accepted, seconds=report.seconds))
    for name, count in report.filters:  # what each filter left out (issue 42)
        print(t("lexicon.standin_filter", name=name, n=count))
    if report.sp_b1:
        print(t("lexicon.standin_added", n=report.ruled_in))
    return 0


def _lexicon_command(args: argparse.Namespace) -> int:
    run = {"build": build_command, "standin": standin_command, "show": show_command}
    return run[args.lexicon_action](args)


def add_commands(add: Add) -> None:
    """Add `word` and `lexicon build|standin|show` to the `stredisko` parser."""
    rules = admissibility_names()
    word = add("word", "overiť slová: PLATNÉ / NEPLATNÉ, zdroj a pravidlo", word_command)
    word.add_argument("words", nargs="*", metavar="SLOVO", help="slovo na overenie")
    word.add_argument("--lexicon", metavar="SÚBOR|ID", default="",
                      help="zostavený lexikón (súbor alebo id v [lexicon] dir) alebo zoznam slov")
    word.add_argument("--rules", choices=rules, default="",
                      help="pravidlá prípustnosti (predvolene tie, podľa ktorých je lexikón "
                      "zostavený, inak sss)")
    word.add_argument("--json", action="store_true", help="výsledok ako JSON")
    add_serve_options(word)

    group = add("lexicon", "lexikóny: zostaviť, náhradný zoznam z hunspell, popis",
                _lexicon_command)
    actions = group.add_subparsers(dest="lexicon_action", metavar="AKCIA", required=True)
    build = actions.add_parser("build", help="zostaviť lexikón zo zoznamu slov")
    build.add_argument("words", metavar="SLOVÁ", help="zoznam slov (UTF-8, tvar na riadok)")
    build.add_argument("--rules", choices=rules, required=True, help="pravidlá prípustnosti")
    build.add_argument("-o", "--out", metavar="SÚBOR", required=True, help="kam zapísať lexikón")
    build.add_argument("--short-lists", nargs="+", metavar="PRIEČINOK|SÚBOR",
                       help="vlastné zoznamy spolku (b2.txt, b3.txt, b5.txt, b6.txt, b7.txt) "
                       "namiesto pribalených")
    build.add_argument("--title", default="", metavar="NÁZOV",
                       help="názov zoznamu vo verdiktoch (predvolene riadok „# názov: …“ "
                       "v hlavičke súboru, inak názov súboru)")
    build.add_argument("--skip-invalid", action="store_true",
                       help="riadky, ktoré nie sú tvarom slova, vynechať (inak zoznam odmietne)")
    standin = actions.add_parser("standin", help="náhradný zoznam slov z hunspell-sk/-cs")
    standin.add_argument("language", choices=sorted(DICTIONARIES), metavar="JAZYK",
                         help="sk alebo cs")
    standin.add_argument("-o", "--out", metavar="SÚBOR", required=True, help="kam ho zapísať")
    standin.add_argument("--dict-dir", metavar="PRIEČINOK", default="",
                         help="priečinok so slovníkom .dic/.aff (predvolene /usr/share/hunspell)")
    show = actions.add_parser("show", help="popis zostaveného lexikónu")
    show.add_argument("lexicon", metavar="SÚBOR|ID", help="lexikón")
    for sub in (build, standin, show):
        sub.add_argument("--config", default=argparse.SUPPRESS, help="konfiguračný súbor")
