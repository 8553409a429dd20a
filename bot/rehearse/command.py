"""`stredisko rehearse SCENARIO.toml [--json] [--db FILE] [--html DIR]`: check the scenario,
run it, print the transcript and the standings (or one JSON document). A scenario whose
[tournament] says `format = "duplicate"` is a duplicate game (`bot.rehearse.duplicate`); one
that names its [[part]]s is a season — several events in one bot (`bot.rehearse.season`).

Exit codes: 0 it ran; 2 a scenario error ("SÚBOR:RIADOK: dôvod", nothing ran — or, found
only at run time, a [[round]] that does not fit who is still playing); 1 an internal failure.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any, TextIO

from bot.i18n import t
from bot.os_errors import os_error
from bot.rehearse.duplicate import Outcome as DuplicateOutcome
from bot.rehearse.duplicate import rehearse_duplicate
from bot.rehearse.duplicate_scenario import (
    DuplicateScenario,
    is_duplicate_file,
    load_duplicate_scenario,
)
from bot.rehearse.engine import Outcome, rehearse
from bot.rehearse.scenario import load_scenario
from bot.rehearse.season import SeasonOutcome, rehearse_season
from bot.rehearse.season_scenario import SeasonScenario, is_season_file, load_season_scenario
from bot.services.replies import Refusal
from bot.services.tournament.propozicie import SetupError

SCENARIO_ERROR = 2
FAILED = 1
DB_NAME = "skuska.db"


def run_command(scenario_path: str, out: TextIO, err: TextIO, *, as_json: bool = False,
                db: str | None = None, html: str | None = None) -> int:
    try:
        scenario: Any = (load_season_scenario if is_season_file(scenario_path)
                         else load_duplicate_scenario if is_duplicate_file(scenario_path)
                         else load_scenario)(scenario_path)
    except SetupError as error:
        print(f"{scenario_path}:{error.line}: {error.reason}", file=err)
        return SCENARIO_ERROR
    except OSError as error:
        print(t("cli.error", reason=f"{scenario_path}: {error}"), file=err)
        return SCENARIO_ERROR
    except Refusal as refusal:  # not UTF-8
        print(t(refusal.reply.key, **refusal.reply.params), file=err)
        return SCENARIO_ERROR
    with tempfile.TemporaryDirectory(prefix="stredisko-skuska-") as folder:
        store = Path(db) if db else Path(folder) / DB_NAME
        try:
            if isinstance(scenario, SeasonScenario):
                outcome: Outcome | DuplicateOutcome | SeasonOutcome = asyncio.run(
                    rehearse_season(scenario, store, html=html))
            elif isinstance(scenario, DuplicateScenario):
                outcome = asyncio.run(
                    rehearse_duplicate(scenario, store, html=Path(html) if html else None))
            else:
                outcome = asyncio.run(rehearse(scenario, store,
                                               html=Path(html) if html else None))
        except SetupError as error:
            print(f"{scenario_path}:{error.line}: {error.reason}", file=err)
            return SCENARIO_ERROR
        except OSError as error:  # e.g. --html into a folder it may not write: path, uid
            print(t("cli.error", reason=f"skúška zlyhala: {os_error(error)}"), file=err)
            return FAILED
        except Exception as error:  # any failure: one clear line, the exit code says it
            print(t("cli.error", reason=f"skúška zlyhala: {type(error).__name__}: {error}"),
                  file=err)
            return FAILED
    print_outcome(outcome, out, as_json)
    return 0


def print_outcome(outcome: Outcome | DuplicateOutcome | SeasonOutcome, out: TextIO,
                  as_json: bool) -> None:
    """What `rehearse` prints: one JSON document, or the transcript and the standings."""
    if as_json:
        json.dump(outcome.document, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return
    for line in [*outcome.transcript, "", *outcome.standings]:
        print(line, file=out)
    if outcome.page is not None:  # a season's page is its ladder, not an event's results
        key = "season.page_file_written" if isinstance(outcome, SeasonOutcome) else (
            "cli.page_written")
        print(t(key, file=str(outcome.page)), file=out)
