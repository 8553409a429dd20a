"""The compiled lexicon on the stand-in word lists (issue 22): build time, load time, lookups/s,
memory (RSS), against the issue's targets, with a verdict.

For each stand-in list found (Slovak, Czech; build them first with
`stredisko lexicon standin sk -o lexicons/sk-standin.txt`, likewise `cs`), in fresh processes:
- build: `bot.services.lexicon.files.build` under the language's rules (sss / cas) — wall and CPU
  time, peak RSS, the artifact's size; no target in the issue (reported);
- load: `bot.services.lexicon.files.load` of the built file — wall time and the RSS it adds (process
  RSS after the imports vs. after the load); target < 1 s and < 100 MB for 3 M forms;
- lookups: `word in lexicon.graph` for 100,000 forms of the list and 100,000 non-forms (a form
  with one letter changed), and `judge()` on 20,000 of them — per CPU second (the machine is
  shared: wall time would measure the neighbours);
- walk: every node's `arcs()` once (what a move generator ends up caching) — CPU time and the
  RSS the cache adds.
A list that is not there is skipped with the reason printed.

    .venv/bin/python bench/lexicon.py [--sk FILE] [--cs FILE] [--work DIR [--reuse]]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verdicts import Verdicts  # noqa: E402

LOAD_SECONDS = 1.0  # issue 22 item 1: load < 1 s …
LOAD_MB = 100.0  # … and < 100 MB for 3 M forms
SAMPLE = 100_000
JUDGED = 20_000
RULES = {"sk": "sss", "cs": "cas"}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child_build(words: str, rules: str, out: str) -> dict:
    from bot.services.lexicon import files as service

    wall, cpu = time.perf_counter(), _cpu()
    report = service.build(Path(words), rules, Path(out))
    return {"seconds": time.perf_counter() - wall, "cpu": _cpu() - cpu, "peak_mb": _peak_mb(),
            "bytes": report.bytes, "forms": report.lexicon.forms, "id": report.lexicon.id,
            "nodes": report.lexicon.graph.node_count, "arcs": report.lexicon.graph.arc_count}


def child_load(built: str, words: str, rules: str) -> dict:
    from bot.services.lexicon import files as service
    from rules.lexicon import admissibility, judge

    sss = admissibility(rules)
    before = _rss_mb()
    wall, cpu = time.perf_counter(), _cpu()
    lexicon = service.load(Path(built))
    loaded = {"seconds": time.perf_counter() - wall, "cpu": _cpu() - cpu,
              "rss_added_mb": _rss_mb() - before, "rss_mb": _rss_mb()}
    forms = [line.strip() for line in Path(words).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    pick = random.Random(22)
    present = pick.sample(forms, min(SAMPLE, len(forms)))
    letters = sorted({ch for form in present for ch in form})
    absent = []
    for form in present:
        at = pick.randrange(len(form))
        absent.append(form[:at] + pick.choice(letters) + form[at + 1:])
    del forms
    queries = present + absent
    graph = lexicon.graph
    start = _cpu()
    found = sum(1 for word in queries if word in graph)
    lookups = len(queries) / (_cpu() - start)
    judged = queries[:JUDGED // 2] + queries[-JUDGED // 2:]
    start = _cpu()
    for word in judged:
        judge(word, lexicon, sss)
    judges = len(judged) / (_cpu() - start)
    before, start = _rss_mb(), _cpu()
    for node in range(graph.node_count):
        graph.arcs(node)
    walk = _cpu() - start
    return {**loaded, "lookups_per_s": lookups, "found": found, "queries": len(queries),
            "present": len(present), "judge_per_s": judges, "walk_seconds": walk,
            "walk_added_mb": _rss_mb() - before}


def child_count(built: str) -> dict:
    from bot.services.lexicon import files as service

    return {"forms": service.load(Path(built)).forms}


def _child(*argv: str) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", *argv], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"child {argv[0]} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def run(language: str, words: Path, work: Path, reuse: bool, verdicts: Verdicts) -> None:
    print(f"== {language}: {words}")
    if not words.is_file():
        print(f"   vynechané: {words} neexistuje (stredisko lexicon standin {language} -o {words})")
        return
    rules = RULES[language]
    out = work / f"{language}.lex"
    if reuse and out.is_file():
        built = {"forms": _child("count", str(out))["forms"]}
        print(f"   build: vynechaný (--reuse), {out}: {built['forms']:,} tvarov")
    else:
        built = _child("build", str(words), rules, str(out))
        print(f"   build: {built['forms']:,} tvarov -> {built['nodes']:,} uzlov, "
              f"{built['arcs']:,} hrán, {built['bytes'] / 2**20:.1f} MB; {built['seconds']:.1f} s "
              f"(CPU {built['cpu']:.1f} s), špička RSS {built['peak_mb']:.0f} MB [cieľ: žiadny]")
    loaded = _child("load", str(out), str(words), rules)
    scale = 3_000_000 / max(built["forms"], 1)
    print(f"   load: {loaded['seconds'] * 1000:.0f} ms (CPU {loaded['cpu'] * 1000:.0f} ms) "
          f"[cieľ < {LOAD_SECONDS:.0f} s pre 3 M tvarov]")
    print(f"   pamäť: lexikón pridal {loaded['rss_added_mb']:.1f} MB RSS, proces "
          f"{loaded['rss_mb']:.0f} MB [cieľ < {LOAD_MB:.0f} MB pre 3 M tvarov]")
    # a list smaller than 3 M forms is judged as if scaled up to 3 M
    grown = max(scale, 1)
    verdicts.add(f"{language}: load < {LOAD_SECONDS:.0f} s for 3 M forms",
                 loaded["seconds"] * grown < LOAD_SECONDS,
                 f"{loaded['seconds'] * 1000:.0f} ms for {built['forms']:,} forms")
    verdicts.add(f"{language}: RSS added < {LOAD_MB:.0f} MB for 3 M forms",
                 loaded["rss_added_mb"] * grown < LOAD_MB,
                 f"{loaded['rss_added_mb']:.1f} MB for {built['forms']:,} forms")
    print(f"   lookups: {loaded['lookups_per_s']:,.0f}/s CPU (`in`; {loaded['present']:,} tvarov "
          f"zoznamu a toľko zmenených, nájdených {loaded['found']:,}); "
          f"judge(): {loaded['judge_per_s']:,.0f}/s CPU [cieľ: žiadny]")
    print(f"   arcs() každého uzla: {loaded['walk_seconds']:.2f} s CPU, pridalo "
          f"{loaded['walk_added_mb']:.0f} MB RSS [cieľ: žiadny]")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        task, *args = sys.argv[2:]
        tasks = {"build": child_build, "load": child_load, "count": child_count}
        result = tasks[task](*args)
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sk", default="lexicons/sk-standin.txt")
    parser.add_argument("--cs", default="lexicons/cs-standin.txt")
    parser.add_argument("--work", default="", help="kam zapísať zostavené lexikóny")
    parser.add_argument("--reuse", action="store_true",
                        help="lexikón, ktorý už je v --work, nezostavovať znova")
    args = parser.parse_args()
    verdicts = Verdicts()
    with tempfile.TemporaryDirectory(prefix="bench-lexicon-") as scratch:
        work = Path(args.work or scratch)
        for language in ("sk", "cs"):
            run(language, Path(getattr(args, language)), work, args.reuse, verdicts)
    if not verdicts.lines:  # nothing measured is no verdict of "met"
        verdicts.add("a stand-in word list to measure", False, "none found (see above)")
    verdicts.print("a list that is not there has no line")


if __name__ == "__main__":
    main()
