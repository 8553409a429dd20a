"""A player's slip (issue 24 items 2, 5, 9; 003 r. 38–45, 004 §4.3, §8.1).

`submit_slip` records a move as handed in — from Discord (`/tah`, `received_at` = when Discord
received the interaction), typed by the arbiter, or a line of a round's CSV — and answers with
the slip as read ("8H SLOVO, 24 bodov"), NEVER whether it is valid: that is decided at the
close. A later slip of the same player replaces the earlier one; what counts is the profile's
(`slips.several`: the last, 003 r. 41; or none at all, 003 r. 42) — but the arbiter typing the
player's standing slip again (unsure it was taken) gets its receipt again, nothing stored; the
arbiter typing it again differently to mend his own typo says so (`correction`): the new entry
replaces his and a `dup_slip_fixes` row records that the player handed in one slip (003 r. 42
counts slips, not the arbiter's typing) — never for a slip the player sent himself. A
Discord slip received by the deadline that reaches the store after the close is still taken:
the player's round score is judged again with it (003 r. 19: the time of receipt decides).
Refused with one Slovak line and nothing stored: the round not open (closed, not yet opened), a
player not in the event, a coordinate or word that cannot be read, a text of more than
`TEXT_LIMIT` characters, a declared score that is not a number (or missing where the profile
wants one, from Discord), a correction with no typed entry of the player in the round to mend.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.i18n import SLOVAK, t
from bot.services.app import Tx
from bot.services.duplicate.close import rescore_straggler
from bot.services.duplicate.context import (
    Event,
    cited,
    event_of,
    game_of,
    player_by_discord,
    player_by_label,
    round_of,
)
from bot.services.replies import Refusal, reason_of
from bot.store.duplicate import (
    DupRound,
    DupSlip,
    add_slip,
    add_slip_fix,
    game_by_id,
    list_games,
    list_rounds,
    list_slips,
    open_rounds,
)
from bot.store.rows import Player
from rules.duplicate.coords import format_coord
from rules.duplicate.errors import DuplicateError
from rules.duplicate.slip import parse_slip

SOURCES = ("discord", "arbiter", "csv")
TEXT_LIMIT = 60  # the longest move is "15O K " + 15 letters with parentheses: far below
DECLARED_LIMIT = 9999
CSV_LIMIT = 1_000_000  # characters of a round's CSV
#: a correction of the arbiter's typing: the player handed in one slip ("jen jeden lístek")
FIX_RULE = "003 r. 42"
TYPED = ("arbiter", "csv")  # the sources the arbiter types: only these he may correct


@dataclass(frozen=True, slots=True)
class SlipReceipt:
    """What the player (or the arbiter) is told: the slip as read, never its validity."""

    slip_id: int
    game: int
    round: int
    player_id: int
    player: str
    coord: str
    word: str
    declared: int | None
    late: bool  # received after the deadline: it will score 0 (003 r. 19)
    replaced: bool  # it replaces the player's earlier slip of the round
    several_rule: str  # what a second slip does (the profile's 003 r. 41 / 42)
    several: str  # last | none
    corrects: str | None = None  # the arbiter's mistyped entry this one corrects (003 r. 42)

    @property
    def line(self) -> str:
        """"8H SLOVO, 24 bodov" (the declared score only when written)."""
        key = "duplicate.online.slip_line_declared" if self.declared is not None \
            else "duplicate.online.slip_line"
        return t(key, coord=self.coord, word=self.word, n=self.declared or 0)

    @property
    def player_rule(self) -> str:
        """`several_rule` as the player reads it ("003 r. 41"; the arbiter's console shows
        the setting that applied too)."""
        return cited(self.several_rule)


def submit_slip(tx: Tx, slug: str, text: str, *, received_at: datetime,
                round_no: int | None = None, discord_id: int | None = None,
                player: str | None = None, declared: int | str | None = None,
                source: str = "discord", late: bool | None = None,
                correction: bool = False, admin: str | None = None) -> SlipReceipt:
    """Record one slip of the open round (`round_no` None) or of round `round_no` of the
    running game. The player is `discord_id`'s entrant, or `player` as the arbiter names him
    (registration number, name or nick). `late`: the arbiter says the slip came after the
    limit; None = judged by `received_at` against the deadline. `correction`: the arbiter
    typed the player's latest entry wrong and this replaces it (one slip handed in). `admin`:
    who typed it (audited; the CLI's --admin or the OS user)."""
    if source not in SOURCES:
        raise ValueError(f"source: one of {', '.join(SOURCES)}")
    if correction and source not in TYPED:
        raise ValueError("a correction mends the arbiter's typing: source arbiter or csv")
    if len(text) > TEXT_LIMIT:
        raise Refusal("duplicate.online.slip_too_long", n=len(text), limit=TEXT_LIMIT)
    event = event_of(tx.db, slug)
    # a Discord slip received by the deadline may reach us after the close (003 r. 19)
    straggler_at = received_at if source == "discord" else None
    rnd, game_no = _round(tx, event, round_no, straggler_at)
    who = _player(tx, event, discord_id, player)
    number = _declared(declared)
    rule = event.profile.slips
    # typed or sent, a slip without its score is refused where the profile wants one: taken,
    # it would score 0 at the close (003 r. 43) though the player wrote a score
    if number is None and rule.declared == "required":
        raise Refusal("duplicate.online.declared_missing", rule=rule.declared_rule)
    try:
        parsed = parse_slip(text.strip(), event.tiles.blank_letters,
                            event.tiles.blank_letter_rule, event.tiles.blanks)
    except DuplicateError as exc:
        raise Refusal("duplicate.online.slip_unreadable",
                      reason=t(f"duplicate.input.{exc.code}", **exc.params)) from None
    word = text.split()[-1]
    coord = format_coord(parsed.row, parsed.col, parsed.across)
    stamp = _stamp(received_at, rnd, late)
    is_late = stamp > rnd.deadline
    mine = [s for s in list_slips(tx.db, rnd.id) if s.player_id == who.id]
    mistyped = _mistyped(mine, who, rnd) if correction else None
    typed = _typed_again(mine, text.strip(), number, source, is_late, rnd.deadline)
    if typed is not None:  # the arbiter typed it again, unsure it was taken: the same slip
        return SlipReceipt(typed.id, game_no, rnd.number, who.id, who.name, coord, word, number,
                           is_late, any(s.replaced_by == typed.id for s in mine),
                           rule.several_rule, rule.several)
    # the audit's reason: a correction says in Slovak why a second entry is not a second slip
    fixing = t("duplicate.online.fix_reason", SLOVAK, rule=FIX_RULE) if mistyped else None
    by = tx.by_player(who.id, "/tah") if source == "discord" else tx.by_admin(
        admin or "arbiter", fixing or t(f"duplicate.audit.slip_{source}", SLOVAK,
                                        player=who.name))
    earlier = bool(mine)
    slip = add_slip(tx.db, rnd, who.id, by, event.id, text=text.strip(), coord=coord,
                    word=word, declared=number, received_at=stamp, source=source)
    if mistyped is not None and fixing is not None:
        add_slip_fix(tx.db, mistyped, slip, by, event.id, rule=FIX_RULE, reason=fixing)
    if not rnd.is_open:  # the close has run: his score of the round again, with this slip
        rescore_straggler(tx, slug, rnd, who.id)
    return SlipReceipt(slip.id, game_no, rnd.number, who.id, who.name, coord, word, number,
                       is_late, earlier, rule.several_rule, rule.several,
                       mistyped.text if mistyped is not None else None)


def submit_csv(tx: Tx, slug: str, round_no: int, content: str, *,
               received_at: datetime, admin: str | None = None) -> list[SlipReceipt]:
    """A round's slips from CSV text: `hráč,ťah[,body]` a line (a header line whose first cell
    is not a player is skipped). All or nothing: the first bad line refuses the whole file,
    naming its line (`RIADOK n: …`)."""
    if len(content) > CSV_LIMIT:
        raise Refusal("duplicate.online.csv_too_long", n=len(content))
    receipts: list[SlipReceipt] = []
    reader = csv.reader(io.StringIO(content))
    for line_no, cells in enumerate(reader, start=1):
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if line_no == 1 and cells[0].casefold() in ("hráč", "hrac", "player"):
            continue
        if len(cells) not in (2, 3):
            raise Refusal("duplicate.online.csv_line", line=line_no,
                          reason=t("duplicate.online.csv_cells"))
        try:
            receipts.append(submit_slip(
                tx, slug, cells[1], received_at=received_at, round_no=round_no,
                player=cells[0], declared=cells[2] if len(cells) == 3 and cells[2] else None,
                source="csv", late=False, admin=admin))
        except Refusal as refusal:
            raise Refusal("duplicate.online.csv_line", line=line_no,
                          reason=reason_of(refusal.reply)) from None
    return receipts


def _mistyped(mine: list[DupSlip], who: Player, rnd: DupRound) -> DupSlip:
    """The entry a correction mends: the player's latest of the round, typed by the arbiter
    (a slip the player sent himself is his act, never the arbiter's typo)."""
    standing = next((s for s in mine if s.replaced_by is None), None)
    if standing is None:
        raise Refusal("duplicate.online.fix_nothing", player=who.name, round=rnd.number,
                      rule=FIX_RULE)
    if standing.source not in TYPED:
        raise Refusal("duplicate.online.fix_discord", player=who.name, round=rnd.number,
                      text=standing.text, rule=FIX_RULE)
    return standing


def _typed_again(mine: list[DupSlip], text: str, declared: int | None, source: str,
                 late: bool, deadline: datetime) -> DupSlip | None:
    """The player's standing slip when the arbiter (or a round's CSV) types the same one again:
    the same text, declared score, source and lateness. One paper slip typed twice is not two
    slips (a second would replace it, or void both under 003 r. 42). From Discord every
    interaction is the player's own act: never taken for a repeat here."""
    if source == "discord":
        return None
    standing = next((s for s in mine if s.replaced_by is None), None)
    if standing is None or (standing.text, standing.declared, standing.source,
                            standing.received_at > deadline) != (text, declared, source, late):
        return None
    return standing


def _stamp(received_at: datetime, rnd: DupRound, late: bool | None) -> datetime:
    """When the slip counts as handed in: as received, or — the arbiter typing slips he
    collected — at the limit (on time) or just after it (late)."""
    if late is None:
        return received_at
    if late:
        return max(received_at, rnd.deadline + timedelta(microseconds=1))
    return min(received_at, rnd.deadline)


def _round(tx: Tx, event: Event, round_no: int | None, straggler_at: datetime | None
           ) -> tuple[DupRound, int]:
    """The round a slip is for: the open one (or `round_no`). A closed round only for a
    Discord slip received by its deadline (`straggler_at`): the close ran before it arrived."""
    if round_no is None:
        live = open_rounds(tx.db, event.id)
        if live and (straggler_at is None or straggler_at >= live[-1].opened_at):
            return live[-1], game_by_id(tx.db, live[-1].game_id).number
        games = list_games(tx.db, event.id)
        played = list_rounds(tx.db, games[-1].id) if games and straggler_at else []
        sent_in = [r for r in played if straggler_at and r.opened_at <= straggler_at
                   <= r.deadline]
        if not sent_in:
            raise Refusal("duplicate.online.no_open_round")
        return sent_in[-1], games[-1].number
    game = game_of(tx.db, event)
    rnd = round_of(tx.db, game, round_no)
    if not rnd.is_open and (straggler_at is None or straggler_at > rnd.deadline):
        raise Refusal("duplicate.online.round_closed", round=round_no, rule="003 r. 19–20")
    return rnd, game.number


def _player(tx: Tx, event: Event, discord_id: int | None, label: str | None) -> Player:
    if discord_id is not None:
        return player_by_discord(tx.db, event, discord_id)
    if label is None or not label.strip():
        raise Refusal("duplicate.online.no_player")
    return player_by_label(tx.db, event, label)


def _declared(value: int | str | None) -> int | None:
    if value is None or isinstance(value, int):
        number = value
    else:
        text = value.strip()
        if not text.isdecimal() or len(text) > 4:
            raise Refusal("duplicate.online.declared_not_number", value=text[:20])
        number = int(text)
    if number is not None and not 0 <= number <= DECLARED_LIMIT:
        raise Refusal("duplicate.online.declared_not_number", value=str(number))
    return number
