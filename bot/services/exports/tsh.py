"""A TSH division file (`.t`) and its `config.tsh`, written so that John Chew's tsh computes
exactly stredisko's points and wins.

What tsh does with a `.t` file (read in its source, tsh 3.x: `lib/perl/TFile.pm`,
`TSH/Division.pm` `Synch`, `TSH/Player.pm`, `TSH/Config.pm` `Read` and `RealmDefaults`; and
its manual, tsh.poslfit.com/doc — `config.html`, the data entry section of `all.html`):

* A line is `Name rating opp1 opp2 …; score1 score2 …` followed by `; tag value …` fields;
  the line number is the player's number. Opponent `0` is a bye; the scores are the player's
  own. A round with no score yet ends the score list (tsh reads it as not yet entered).
* A game against an opponent is decided **only by comparing the two scores**: the higher
  wins, equal is a draw (½ each), and it counts as a rated game. A bye (opponent 0) is a win
  if its score is positive, a loss if negative and **neither** if it is 0 (without
  `config zero_byes_tie`); byes are never rated. The manual's data entry section: "If you
  want to enter a bye, just enter one player number and one score (usually 50, or -50 for a
  forfeit)" — tsh's own forfeit convention. tsh's "wins" count a draw as ½: they are
  stredisko's points.
* `; p12 …` says who started: 1 first, 2 second, 0 a bye; `; off 0` marks a player inactive
  (`Player.pm`: "off exists if player is inactive, single value indicates type of byes
  (-50/0/50) to be assigned").
  Other `; tag …` fields are kept by tsh as they are (`TFile::ParseLine`, `FormatLine`).
* tsh reads `.t` files as ISO-8859-1 unless `config tfile_encoding = 'utf8'`, and
  `config.tsh` itself as ISO-8859-1 unless it starts with `encoding utf8` (or a UTF-8 BOM).

So each round of a player is written by this convention (the rule decides the points, the
scores only carry them to tsh):

1. A **rated game** (RULES.md 2: rows 1–4, 9, 12 where both moved) stays a game against its
   opponent with the scores as played — except where the scores contradict the result (a
   **time loss** or a **resignation** of the player who was ahead, e-SP 3.5): the loser's
   score is written one point below the winner's, a draw gets both the lower score (as
   RULES.md 2 row 12 does). tsh then rates it as stredisko does.
2. An **unrated result** between two players — a forfeit (rows 4–7, 10, 11, e-SP 4.3–4.9) or a
   game someone made no move in — is written in tsh's forfeit convention: both players get
   opponent 0, the winner `+d`, the loser `−d`, d = the written score difference or 50 when
   there is none. A **double forfeit** (0:0, rows 6, 7, 11) is `−50` for both: both lose,
   nothing is rated. An unrated ½:½ (row 1 when nobody moved: the server ended the game
   after two rounds without a valid move) has no form as a bye — a 0 bye counts neither way —
   so it stays a game with equal scores: tsh's points are right, but tsh rates it; the one
   result whose ratedness tsh gets wrong.
3. The **bye** (row 8, e-SP 4.9) is opponent 0 with its score, `+20`: a win, unrated. (A
   ½-point bye — ČAS, not e-SP — has no tsh form: it is written 0 and tsh loses the ½.)
4. A round a player was **not paired** in (withdrawn, excluded, e-SP 3.6) is opponent 0 with
   score 0 — neither won nor lost — and his line gets `; off 0`.
5. `; paired …` lists the opponent stredisko paired him with in every round (0 = none), so a
   forfeit written as a bye still says whom it was against; `; recorded …` (only where the
   written scores differ) keeps the scores stredisko recorded.
6. A name tsh cannot hold (digits, `;`: `tsh_name`) keeps its original in `; original …`, and
   the export lists every name it changed (issue 20.11).

tsh has one notion of a win (any result above the opponent's): a profile that does not count
forfeit wins or the bye among the wins (ČAS) gets tsh's points right but not that tiebreak.

`config.tsh` beside the `.t` declares the division, `max_rounds`, the encodings (UTF-8,
"Ďurica" stays "Ďurica"), `track_firsts`, `pairing_system = 'manual'` (tsh must not re-pair a
finished or running event) and `bye_spread` = the profile's bye score (e-SP 4.9: 20) for a
bye tsh would add itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.app import App, Tx
from bot.services.exports.games import Line, Seat, Sheet, sheet, surname_first
from bot.services.replies import Reply, done

#: tsh's default bye spread and the manual's forfeit score: a forfeit without a score difference
FORFEIT_SPREAD = 50
HALF = 0.5
ENCODING = "utf8"  # tsh's (Perl's) name for UTF-8


@dataclass(frozen=True, slots=True)
class Cell:
    """One round of a player's line: opponent number (0 = bye / forfeit / not paired), the
    score to write (None = no result yet) and who started (1, 2; 0 without a game)."""

    opponent: int
    score: int | None
    p12: int


def _forfeit_score(points: float, spread: int) -> int:
    """tsh's forfeit convention (a bye scored ±): positive wins, negative loses; 0 counts
    neither (the only way tsh has to write a half point without a game: it is lost)."""
    size = abs(spread) or FORFEIT_SPREAD
    return size if points == 1 else -size if points == 0 else 0


def game_score(score: int, opponent_score: int, points: float, opponent_points: float) -> int:
    """The score to write at a game so that tsh's score comparison gives stredisko's result:
    as recorded, unless it contradicts the result (rule 1 of the module docstring)."""
    if points > opponent_points:
        return score
    if points < opponent_points:
        return min(score, opponent_score - 1)
    return min(score, opponent_score)


def cell(seat: Seat) -> Cell:
    """One round by the convention of the module docstring."""
    o = seat.outcome
    if not seat.table:
        return Cell(0, 0, 0)
    starts = 1 if seat.started else 2
    if o is None:  # not played yet: who will start is known
        return Cell(seat.opponent or 0, None, starts if seat.opponent else 0)
    if seat.opponent is None:  # the bye
        return Cell(0, _forfeit_score(o.points, o.score), 0)
    if not o.rated and o.points != HALF:
        return Cell(0, _forfeit_score(o.points, o.score - o.opponent_score), 0)
    written = game_score(o.score, o.opponent_score, o.points, o.opponent_points)
    return Cell(seat.opponent, written, starts)


def tsh_line(line: Line) -> str:
    cells = [cell(s) for s in line.seats]
    scores: list[int] = []
    for c in cells:
        if c.score is None:
            break  # tsh reads the rest as not yet entered
        scores.append(c.score)
    recorded = [s.outcome.score if s.outcome else 0 for s in line.seats][:len(scores)]
    name = tsh_name(line.name)
    fields = [f"{name} {line.rating} {' '.join(str(c.opponent) for c in cells)}".rstrip(),
              " ".join(map(str, scores)),
              "p12 " + " ".join(str(c.p12) for c in cells),
              "paired " + " ".join(str(s.opponent or 0) for s in line.seats)]
    if recorded != scores:
        fields.append("recorded " + " ".join(str(r) for r in recorded))
    if line.out:
        fields.append("off 0")
    if renamed(line.name):
        fields.append(f"original {original_field(line.name)}")
    return "; ".join(f.strip() for f in fields)


#: what a `.t` line cannot hold in a name: `;` ends a field, `#` starts a comment (tsh's files
#: and config.tsh share the "#" comment; issue 36.6: "Ján #2" cut the line at "#")
_NOT_IN_NAMES = frozenset(";#")


def tsh_name(name: str) -> str:
    """The name as a `.t` line can hold it, surname first: tsh reads the first number on the
    line as the rating ("Don't use numbers in people's names", tsh's QuickStart), `;` as a
    field break and `#` as a comment, so digits, `;` and `#` go, and with them any word left
    without a letter ("Ján 2. Druhý" → "Druhý, Ján"; "007" → "?")."""
    kept = "".join(ch for ch in name if not ch.isdigit() and ch not in _NOT_IN_NAMES)
    return surname_first(" ".join(w for w in kept.split() if any(ch.isalpha() for ch in w)))


def renamed(name: str) -> bool:
    """Whether the export had to change the name (beyond putting the surname first)."""
    return tsh_name(name) != surname_first(name)


def original_field(name: str) -> str:
    """The name as written, for the `; original …` field (tsh keeps unknown `; tag value`
    fields as they are): `%`, `;` and `#` percent-escaped, since `;` would end the field and
    `#` the line — the name's digits and `#` are kept here, whole (issue 36.6)."""
    escaped = name.replace("%", "%25").replace(";", "%3B").replace("#", "%23")
    return " ".join(escaped.split())


def _perl_text(value: str) -> str:
    """A single-quoted Perl string: config.tsh values are Perl expressions."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


@dataclass(frozen=True, slots=True)
class TshExport:
    """The `.t` text and what `config.tsh` needs to point at it."""

    text: str
    event_name: str
    event_date: str
    max_rounds: int
    count: int
    bye_spread: int  # the profile's bye score (e-SP 4.9: 20), for a bye tsh adds itself
    changed: tuple[tuple[str, str], ...] = ()  # (the name, as the .t writes it)

    def config(self, t_file: str) -> str:
        return "\n".join([
            "# tsh configuration written by stredisko (README: Exports for other programs)",
            f"encoding {ENCODING}",
            f"config tfile_encoding = '{ENCODING}'",
            f"division A {t_file}",
            f"config event_name = {_perl_text(self.event_name)}",
            f"config event_date = '{self.event_date}'",
            f"config max_rounds = {self.max_rounds}",
            "config track_firsts = 1",
            "config pairing_system = 'manual'",
            f"config bye_spread = {self.bye_spread}",
            "",
        ])


def _export(s: Sheet) -> TshExport:
    first = min(s.round_dates.values(), default=s.tournament.created_at.date())
    return TshExport(
        text="".join(tsh_line(line) + "\n" for line in s.lines),
        event_name=s.tournament.name, event_date=first.isoformat(),
        max_rounds=max(s.tournament.rounds_planned, len(s.rounds)), count=len(s.lines),
        bye_spread=s.profile.bye.score - s.profile.bye.opponent_score,
        changed=tuple((line.name, tsh_name(line.name)) for line in s.lines
                      if renamed(line.name)),
    )


def _tsh(tx: Tx, slug: str) -> Reply:
    files = _export(sheet(tx, slug))
    rows = [{"key": "export.tsh_renamed", "name": name, "written": written}
            for name, written in files.changed]
    return done("cli.exported", data=files, what="tsh", count=files.count, rows=rows)


async def tsh_files(app: App, slug: str) -> Reply:
    """The `.t` file of tournament `slug` (`data.text`) and its `config.tsh` (`data.config`)."""
    return await app.run(_tsh, slug)
