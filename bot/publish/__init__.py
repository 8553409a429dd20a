"""Publishing: the static results page of a tournament."""

from bot.publish.html import render, write_results_page
from bot.publish.report import (
    Player,
    ReportError,
    ResultStatus,
    ScreloChange,
    TableResult,
    TournamentReport,
    criteria_for,
)

__all__ = [
    "Player",
    "ReportError",
    "ResultStatus",
    "ScreloChange",
    "TableResult",
    "TournamentReport",
    "criteria_for",
    "render",
    "write_results_page",
]
