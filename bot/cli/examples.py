"""The bundled examples (issue 43.3): an installed stredisko carries the repository's
`examples/` (propozície, the CSV templates, the seasons and the rehearsal scenarios, in the
package as `bot/examples`), so a newcomer without the repository can follow the quick start:
`stredisko examples DIR` copies them out, `stredisko rehearse NAME` runs a bundled scenario."""

from __future__ import annotations

import argparse
import shutil
import sys
from importlib import resources
from pathlib import Path

from bot.cli.common import Add
from bot.i18n import t

REHEARSALS = "rehearsal"


def bundled() -> Path:
    """The examples' folder inside the installed package."""
    return Path(str(resources.files("bot") / "examples"))


def scenario_names() -> list[str]:
    """The bundled rehearsal scenarios, by name (the file's name without `.toml`)."""
    folder = bundled() / REHEARSALS
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


def scenario_path(text: str) -> str:
    """A scenario as the user gave it: a file that exists, else a bundled scenario's name
    (with or without `.toml`) — which keeps its siblings (word list, season) beside it."""
    if Path(text).exists() or "/" in text or "\\" in text:
        return text
    name = text.removesuffix(".toml")
    return str(bundled() / REHEARSALS / f"{name}.toml") if name in scenario_names() else text


def _files() -> list[Path]:
    root = bundled()
    return sorted(p.relative_to(root) for p in root.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def _copy(args: argparse.Namespace) -> int:
    """Copy every bundled example into the folder (made if only it is missing); a file
    already there is kept, never overwritten, and named."""
    target = Path(args.folder)
    if not target.exists() and not target.parent.is_dir():
        print(t("cli.error", reason=t("cli.examples_no_parent", folder=str(target),
                                      parent=str(target.parent))), file=sys.stderr)
        return 2
    written, kept = [], []
    for relative in _files():
        destination = target / relative
        if destination.exists():
            kept.append(str(relative))
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundled() / relative, destination)
        written.append(str(relative))
    print(t("cli.examples_written", count=len(written), folder=str(target)))
    if kept:
        print(t("cli.examples_kept", files=", ".join(kept)))
    print(t("cli.examples_next", folder=str(target),
            scenarios=", ".join(scenario_names())))
    return 0


def add_command(add: Add) -> None:
    sub = add("examples", "skopírovať pribalené ukážky (propozície, CSV, sezóny, scenáre "
              "skúšok) do priečinka", _copy)
    sub.add_argument("folder", metavar="PRIEČINOK",
                     help="kam (vytvorí sa, ak chýba len on; existujúce súbory sa neprepíšu)")
