"""Slovak labels and number/time formats of the results page."""

from __future__ import annotations

from datetime import datetime

from bot.clock import BRATISLAVA
from bot.i18n import SLOVAK, format_datetime
from bot.publish.report import ResultStatus
from rules.model import End, Result

END_LABELS: dict[End, str] = {
    End.FINISHED: "dohrané",
    End.TIME_LOSS: "prehra na čas",
    End.RESIGNED: "vzdanie",
    End.DISCONNECTED: "odpojenie",
    End.NO_SHOW: "nedostavenie sa",
    End.BOTH_NO_SHOW: "nedostavenie sa oboch hráčov",
    End.OVER_LIMIT: "nedodržanie časového limitu",
    End.BYE: "voľno",
    End.SAVE_FAILED: "zápis sa neuložil",
    End.AGREED_DRAW: "remíza dohodou",
    End.MISSED_ROUND: "vynechané kolo",
}

STATUS_LABELS: dict[ResultStatus, str] = {
    ResultStatus.PENDING: "čaká",
    ResultStatus.PROPOSED: "návrh pre hl. administrátora",
    ResultStatus.PROVISIONAL: "predbežný",
    ResultStatus.CONFIRMED: "potvrdený",
    ResultStatus.DISPUTED: "sporný",
}

#: Standings columns: (header, tooltip) per criterion name of the profile.
CRITERION_LABELS: dict[str, tuple[str, str]] = {
    "points": ("Body", "body za partie (1 / ½ / 0)"),
    "wins": ("Výhry", "počet výhier (aj kontumačných a BYE)"),
    "median_buchholz": (
        "Medián Buch.",
        "medián Buchholz: body súperov bez najlepšieho a najhoršieho",
    ),
    "buchholz": ("Buchholz", "súčet bodov všetkých súperov"),
    "score": ("Skóre (Dal)", "aktívne skóre: súčet vlastných skóre"),
    "spread": ("Rozdiel", "rozdiel skóre (Dal − Dostal)"),
    "neustadtl": ("Neustadtl (SB)", "súčet bodov porazených súperov + polovica remizujúcich"),
}


def number(x: float, decimals: int = 1) -> str:
    """A Slovak number: decimal comma, no needless zeros ("12,5", "7", "−3,2")."""
    text = f"{x:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return text.replace(".", ",").replace("-", "−")


def signed(x: float, decimals: int = 1) -> str:
    """A change with its sign ("+6,2", "−24,6", "0")."""
    text = number(x, decimals)
    return text if text.startswith("−") or text == "0" else f"+{text}"


def game_points(points: float) -> str:
    """The points of one game: "1", "½", "0"."""
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, number(points))


def local_time(when: datetime) -> str:
    """A moment in Bratislava time, Slovak style: "7. 3. 2025 9:05 SEČ"."""
    # the chat's own formatter, so the page and the chat show a moment the same way; the page
    # adds the zone because its readers are not all in Bratislava
    zone = "SELČ" if when.astimezone(BRATISLAVA).dst() else "SEČ"  # summer / winter time
    return f"{format_datetime(when, SLOVAK)} {zone}"


def how_it_ended(result: Result, name_of: dict[str, str]) -> str:
    """How a game ended, in Slovak, naming the player it ended on where there is one."""
    case = result.case
    label = END_LABELS[case.end]
    if case.loser is not None:
        label = f"{label} ({name_of.get(case.loser, case.loser)})"
    if case.end is End.SAVE_FAILED:
        if case.agreed:
            label += " — výsledok podľa dohody hráčov"
        elif case.winner is not None:
            label += f" — hráči sa zhodli na víťazovi ({name_of.get(case.winner, case.winner)})"
        else:
            label += " — hráči sa nezhodli na víťazovi"
    return label


def forfeit_note(result: Result, name_of: dict[str, str]) -> str:
    """Whom the game was forfeited against ("" when it was not a forfeit)."""
    against = result.forfeited
    if not against:
        return ""
    if len(result.case.players) > 1 and against >= set(result.case.players):
        return "kontumácia proti obom"
    names = sorted(name_of.get(p, p) for p in against)
    return "kontumácia proti: " + ", ".join(names)
