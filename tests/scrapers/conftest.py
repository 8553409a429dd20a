"""Shared helpers for the scraper tests: saved pages and the sample records they show."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).parent


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_scraper_tests_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE_PAGES = _load("make_pages")


@pytest.fixture
def samples() -> dict:
    """name -> the GameRecord its saved page shows."""
    return MAKE_PAGES.SAMPLES


@pytest.fixture
def saved() -> Callable[[str], bytes]:
    """saved(name) -> the bytes of tests/scrapers/pages/NAME.html."""

    def read(name: str) -> bytes:
        return (HERE / "pages" / f"{name}.html").read_bytes()

    return read
