"""What a `stredisko` command loads before it starts (issue 21: the head admin waits for it on
every command). Libraries only some commands use are imported by those commands: numpy
(sqlite-utils would load it for nothing), aiohttp (the hall's page), httpx and lxml (the
scraper), discord.py (the bot)."""

from __future__ import annotations

import json
import subprocess
import sys

LOADED_BY_SOME = ("numpy", "aiohttp", "httpx", "lxml", "discord", "PIL", "apscheduler")


def _modules_after(code: str) -> dict[str, object]:
    """Run `code` in a fresh interpreter; it prints a JSON object."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_command_line_loads_no_library_only_some_commands_use() -> None:
    found = _modules_after(
        "import json, sys, bot.cli\n"
        f"print(json.dumps({{'loaded': [m for m in {LOADED_BY_SOME!r} if m in sys.modules]}}))")
    assert found == {"loaded": []}


def test_numpy_stays_importable_and_sqlite_utils_works_without_it() -> None:
    found = _modules_after(
        "import json, bot, sqlite_utils, sqlite_utils.db\n"
        "import numpy\n"
        "db = sqlite_utils.Database(memory=True)\n"
        "db['t'].insert({'a': 1, 'b': 'x'})\n"
        "print(json.dumps({'np': sqlite_utils.db.np is None, 'numpy': numpy.__name__,\n"
        "                  'rows': list(db['t'].rows)}))")
    assert found == {"np": True, "numpy": "numpy", "rows": [{"a": 1, "b": "x"}]}
