"""FIDE Tournament Report File (TRF-16): the exchange format of Swiss-Manager, chess-results,
JaVaFo, bbpPairings and py4swiss.

Header: `012` name, `022` place (herna.net), `032` SVK, `042`/`052` first and last round's
date (YYYY/MM/DD), `062` players, `072` players with an online screlo, `092` the profile's
title, `122` the tempo (e-SP 4.4), `XXR` the planned rounds (JaVaFo's extension, which
pairing programs read). One `001` line per ranked player in seed order (the starting number,
e-SP 2.4): name surname first, the seed rating in the rating column, points and rank from
stredisko's standings (e-SP 2.4, 3.6), then a cell per paired round: opponent's number, colour,
result. TRF has only chess words, so:

* **colour** = who started (e-SP 4.2): `w` the player who started, `b` his opponent — at a
  forfeit the starter of the pairing; `-` at a bye or an unpaired round.
* **a rated game** (RULES.md 2 rows 1–4, 9, 12 where both moved; time loss and resignation
  included, e-SP 3.5) → `1` / `=` / `0` by the points.
* **a forfeit** — the game was forfeited against someone (rows 4–7, 10, 11; e-SP 4.3, 4.5, 4.6,
  4.8, 4.9) → `+` for the player it was not forfeited against, `-` for the forfeited one; a
  **double forfeit** (0:0, rows 6, 7, 11: both lose) is `-` for both, which TRF allows.
* **an unrated game** that is no forfeit (someone made no move) → `W` / `D` / `L`, TRF's
  "game lasted less than one move, not rated".
* **the bye** (row 8, e-SP 4.9: 1 point, 20:0) → `0000 - U`, TRF's pairing-allocated bye
  (a ½-point bye → `H`, a 0-point one → `Z`).
* **a round without a table** — withdrawn or excluded (e-SP 3.6), a missed round → `0000 - Z`,
  the zero-point bye of a known absence. The points and rank of a withdrawn or excluded player
  are his games' (e-SP 3.6: ranked by the games he played).
* A round still without a result ends the player's cells (as TRF leaves a future round blank).

`102` (Chief Arbiter) is the head administrator (e-SP 2.5) when the propozície name him
(`head_admin = "…"`); without it the line is left out, as an empty field would be.

Every line ends with CR LF: TRF-16's Remark 1 says "Each line shall have a "CR" (carriage
return) as last character"; the LF after it keeps the file a text file of lines for the
readers that split at LF (bbpPairings, JaVaFo, py4swiss, Python's own universal newlines).

No `132` line (round dates). TRF-16 puts round n's date (YY/MM/DD) at the columns of round n
in the `001` lines (92–99, 102–109, …: ten apart); py4swiss 0.3.1 (`TournamentSection`,
`DATES_START_INDEX = 91`, step `Date.LENGTH_SHORT + 1`) reads them nine apart and refuses the
prescribed layout from round 2 on ("Invalid date", even when not strict), and a layout
py4swiss reads would put every later date in the wrong columns for the others.
`042`/`052` carry the first and the last round's date.
"""

from __future__ import annotations

from bot.services.app import App, Tx
from bot.services.exports.games import Line, Seat, Sheet, sheet, surname_first
from bot.services.replies import Reply, done

NAME_WIDTH = 33
HALF = 0.5
LINE_END = "\r\n"  # TRF-16 Remark 1: CR last on every line (see the module docstring)


def _by_points(points: float, win: str, draw: str, loss: str) -> str:
    return win if points == 1 else draw if points == HALF else loss


def result_code(seat: Seat) -> str | None:
    """The TRF result of one round (None = no result yet), by the mapping above."""
    o = seat.outcome
    if not seat.table:
        return "Z"
    if o is None:
        return None
    if seat.opponent is None:
        return _by_points(o.points, "U", "H", "Z")
    if o.rated:
        return _by_points(o.points, "1", "=", "0")
    if o.forfeited or o.opponent_forfeited:
        return "-" if o.forfeited else "+"
    return _by_points(o.points, "W", "D", "L")


def _cell(seat: Seat, code: str) -> str:
    if seat.opponent is None or not seat.table:
        return f"0000 - {code}"
    return f"{seat.opponent:>4} {'w' if seat.started else 'b'} {code}"


def player_line(line: Line) -> str:
    cells = []
    for seat in line.seats:
        code = result_code(seat)
        if code is None:
            break
        cells.append("  " + _cell(seat, code))
    name = surname_first(line.name)[:NAME_WIDTH]
    s = line.standing
    head = (f"001 {line.number:>4} {'':1}{'':>3} {name:<{NAME_WIDTH}} {line.rating:>4} "
            f"{'':<3} {'':>11} {'':<10} {s.points:>4.1f} {s.rank:>4}")
    return (head + "".join(cells)).rstrip()


def _date(s: Sheet, *, last: bool) -> str:
    days = sorted(s.round_dates[n] for n in s.rounds if n in s.round_dates)
    return days[-1 if last else 0].strftime("%Y/%m/%d") if days else ""


def trf_text(s: Sheet) -> str:
    t = s.tournament
    rated = sum(1 for line in s.lines if line.has_screlo)
    header = [
        f"012 {t.name}", "022 herna.net (online)", "032 SVK",
        f"042 {_date(s, last=False)}", f"052 {_date(s, last=True)}",
        f"062 {len(s.lines)}", f"072 {rated}", f"092 {s.profile.title}",
        f"102 {t.settings.get('head_admin') or ''}", f"122 {t.tempo}",
    ]
    rows = [player_line(line) for line in s.lines]
    filled = [h for h in header if h[4:].strip()]  # before round 1 there are no dates
    return LINE_END.join([*filled, *rows, f"XXR {t.rounds_planned}"]) + LINE_END


def _trf(tx: Tx, slug: str) -> Reply:
    s = sheet(tx, slug)
    return done("cli.exported", data=trf_text(s), what="trf", count=len(s.lines))


async def trf_file(app: App, slug: str) -> Reply:
    """The TRF-16 text of tournament `slug`."""
    return await app.run(_trf, slug)
