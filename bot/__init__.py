"""stredisko's application: the Discord bot, the CLI, their services and the store."""

from __future__ import annotations

import importlib
import sys


def _sqlite_utils_without_numpy() -> None:
    """Import sqlite-utils with numpy hidden from it.

    sqlite-utils imports numpy whenever it is installed (rustworkx brings it into the venv),
    only to map numpy's number types to column types. The store never writes such values.
    That import was 0.2 s of every process's start: each `stredisko` command, the bot, the
    hall's page (issue 21). numpy stays importable for whoever needs it afterwards.
    """
    if "sqlite_utils" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` → ImportError
    try:
        importlib.import_module("sqlite_utils")
    finally:
        del sys.modules["numpy"]


_sqlite_utils_without_numpy()
