"""Duplicate Scrabble's rows (issue 24; migrations 0006_duplicate, 0007_duplicate_shoot_out,
0009_dup_slip_fixes): an event's settings, its games, rounds, slips and the arbiter's
corrections of his own typing of them, round scores (append-only versions), protests and
corrections, and the shoot-outs of players level at the end (003 r. 49, versioned too).

Every write here audits itself (as the rest of the store). What a round holds is plain text
and JSON the services read back: the boards as 15-line text (`rules.duplicate.board`), the
rack as written ("AEK?RSÝ" → sorted, '?' a blank), the tops as
`{"lexicon": ID, "count": N, "top_score": S, "tops": [{"word", "coord", "score",
"tiles": [[row, col, letter, blank]…]}…]}`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from bot.store.audit import record
from bot.store.rows import ActorKind, Change
from bot.store.sql import first_value, insert_row, must, one, rows, to_db


@dataclass(frozen=True, slots=True)
class DupEvent:
    """A duplicate event's settings (propozície `[duplicate]`)."""

    tournament_id: int
    profile: str  # a duplicate game profile: cas-duplicate | greek-duplicate
    lexicon: str  # where the lexicon is read from (a built lexicon's path or id)
    lexicon_id: str  # its id when the event was created (checked again at every close)
    tiles: str  # the tile set
    move_seconds: int
    warning_seconds: int
    part_rounds: list[int]  # rounds of each part but the last (the last runs to the end)
    games: int
    mode: str  # online | hall
    pause_seconds: int  # online: between a round's close and the next one's opening
    starts: list[str]  # each game's start time (UTC text), may be empty (started by hand)
    created_at: datetime

    def part_of(self, round_no: int) -> int:
        """The part a round belongs to (003 r. 3): the listed parts, then the last one."""
        end = 0
        for part, size in enumerate(self.part_rounds, start=1):
            end += size
            if round_no <= end:
                return part
        return len(self.part_rounds) + 1

    def last_of_part(self, round_no: int) -> bool:
        """Whether `round_no` ends one of the listed parts (the last part ends with the game)."""
        end = 0
        for size in self.part_rounds:
            end += size
            if round_no == end:
                return True
        return False


@dataclass(frozen=True, slots=True)
class DupGame:
    id: int
    tournament_id: int
    number: int
    seed: str  # secret until the game is final (then revealed, 004/issue 24.3)
    commitment: str  # SHA-256 of the seed, announced before round 1
    state: str  # running | preliminary | final
    started_at: datetime
    ended_at: datetime | None
    ended_rule: str | None
    final_at: datetime | None


@dataclass(frozen=True, slots=True)
class DupRound:
    id: int
    game_id: int
    number: int
    part: int
    rack: str
    source: str  # seed | arbiter
    draw: dict[str, Any]  # the draw's outcome, rule, rejected racks
    bag: dict[str, int]  # the bag after the rack was taken
    opened_at: datetime
    deadline: datetime
    closed_at: datetime | None
    board_before: str
    board_after: str | None
    tops: dict[str, Any]  # {} until the round is closed

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True, slots=True)
class DupSlip:
    id: int
    round_id: int
    player_id: int
    text: str  # the move as handed in ("8H SLOVO")
    coord: str  # as parsed and normalised ("8H", "H8")
    word: str  # the main word as written
    declared: int | None
    received_at: datetime  # when it reached us (Discord: the interaction's creation time)
    recorded_at: datetime
    source: str  # discord | arbiter | csv
    actor_kind: ActorKind
    actor_id: str | None
    replaced_by: int | None


@dataclass(frozen=True, slots=True)
class DupSlipFix:
    """The arbiter's correction of his own typing (003 r. 42): `slip_id` was typed wrong,
    `fixed_by` is the same paper slip typed again — one slip handed in, not two."""

    id: int
    slip_id: int
    fixed_by: int
    rule: str
    reason: str
    at: datetime
    actor_kind: ActorKind
    actor_id: str | None


@dataclass(frozen=True, slots=True)
class DupScore:
    id: int
    round_id: int
    player_id: int
    version: int  # 1 at the close; a correction adds the next (004 §5D)
    slip_id: int | None
    outcome: str  # rules.duplicate.OUTCOMES
    points: int
    rule: str
    reason: str | None
    verdict: dict[str, Any]  # the engine's findings: score, words, rejected, fault
    at: datetime
    actor_kind: ActorKind
    actor_id: str | None


@dataclass(frozen=True, slots=True)
class DupProtest:
    id: int
    game_id: int
    round_no: int
    player_id: int
    word: str
    claim: str  # wrongly-accepted | wrongly-rejected
    reason: str
    filed_at: datetime
    status: str  # pending | upheld | rejected
    decided_at: datetime | None
    decided_by: str | None
    decision: str | None


@dataclass(frozen=True, slots=True)
class DupCorrection:
    id: int
    game_id: int
    round_no: int | None  # None: every round of the game
    word: str
    accepted: bool
    reason: str
    rule: str
    protest_id: int | None
    at: datetime
    actor_kind: ActorKind
    actor_id: str | None


@dataclass(frozen=True, slots=True)
class DupShootOut:
    """One player's shoot-out result (003 r. 49) as the arbiter entered it; a later version
    corrects it (the earlier ones stay)."""

    id: int
    tournament_id: int
    player_id: int
    version: int
    score: int  # the points of his word
    seconds: float  # how long he took
    word: str | None  # the move as written ("8H SLOVO"), if given
    rule: str
    reason: str | None  # why a version was entered again
    at: datetime
    actor_kind: ActorKind
    actor_id: str | None


# -- events and games --------------------------------------------------------------------


def add_event(db: Database, tournament_id: int, by: Change, **settings: Any) -> DupEvent:
    """The duplicate settings of a tournament (once)."""
    event = insert_row(db, DupEvent, "dup_events",
                       {"tournament_id": tournament_id, **settings, "created_at": by.at})
    record(db, by, "duplicate.event", tournament_id=tournament_id,
           data={k: to_db(v) for k, v in settings.items()})
    return event


def get_event(db: Database, tournament_id: int) -> DupEvent | None:
    return one(db, DupEvent, "SELECT * FROM dup_events WHERE tournament_id = ?", [tournament_id])


def add_game(db: Database, tournament_id: int, number: int, seed: str, commitment: str,
             by: Change) -> DupGame:
    game = insert_row(db, DupGame, "dup_games", {
        "tournament_id": tournament_id, "number": number, "seed": seed,
        "commitment": commitment, "started_at": by.at})
    record(db, by, "duplicate.game.start", tournament_id=tournament_id, subject=str(number),
           data={"commitment": commitment})  # never the seed: it is secret until revealed
    return game


def get_game(db: Database, tournament_id: int, number: int) -> DupGame | None:
    return one(db, DupGame, "SELECT * FROM dup_games WHERE tournament_id = ? AND number = ?",
               [tournament_id, number])


def game_by_id(db: Database, game_id: int) -> DupGame:
    return must(one(db, DupGame, "SELECT * FROM dup_games WHERE id = ?", [game_id]),
                f"duplicate game {game_id}")


def list_games(db: Database, tournament_id: int) -> list[DupGame]:
    return rows(db, DupGame, "SELECT * FROM dup_games WHERE tournament_id = ? ORDER BY number",
                [tournament_id])


def set_game_state(db: Database, game: DupGame, state: str, by: Change, *,
                   ended_rule: str | None = None) -> DupGame | None:
    """Move a game on (running → preliminary → final), guarded by its current state: None
    when another change got there first (nothing written)."""
    column = "ended_at" if state == "preliminary" else "final_at"
    cursor = db.execute(
        f"UPDATE dup_games SET state = ?, {column} = ?, ended_rule = COALESCE(?, ended_rule) "
        "WHERE id = ? AND state = ?", [state, to_db(by.at), ended_rule, game.id, game.state])
    if cursor.rowcount != 1:
        return None
    record(db, by, f"duplicate.game.{state}", tournament_id=game.tournament_id,
           subject=str(game.number), data={"rule": ended_rule})
    return game_by_id(db, game.id)


# -- rounds ------------------------------------------------------------------------------


def add_round(db: Database, game: DupGame, by: Change, **values: Any) -> DupRound:
    """Open a round: number, part, rack, source, draw, bag, deadline, board_before."""
    rnd = insert_row(db, DupRound, "dup_rounds",
                     {"game_id": game.id, **values, "opened_at": by.at})
    record(db, by, "duplicate.round.open", tournament_id=game.tournament_id,
           subject=f"{game.number}/{rnd.number}",
           data={"rack": rnd.rack, "source": rnd.source, "deadline": rnd.deadline})
    return rnd


def correct_rack(db: Database, rnd: DupRound, by: Change, tournament_id: int, *, rack: str,
                 bag: dict[str, int], draw: dict[str, Any], deadline: datetime) -> bool:
    """The arbiter's correction of an open round's mistyped rack (issue 41.3), guarded by "still
    open with the rack it was read with": True only for the call that changed it. Audited with
    both racks; the reason is the arbiter's."""
    cursor = db.execute(
        """UPDATE dup_rounds SET rack = ?, bag = ?, draw = ?, deadline = ?
           WHERE id = ? AND closed_at IS NULL AND rack = ?""",
        [rack, to_db(bag), to_db(draw), to_db(deadline), rnd.id, rnd.rack])
    if cursor.rowcount != 1:
        return False
    record(db, by, "duplicate.round.rack_fix", tournament_id=tournament_id,
           subject=str(rnd.id), data={"was": rnd.rack, "rack": rack, "deadline": deadline})
    return True


def get_round(db: Database, game_id: int, number: int) -> DupRound | None:
    return one(db, DupRound, "SELECT * FROM dup_rounds WHERE game_id = ? AND number = ?",
               [game_id, number])


def round_by_id(db: Database, round_id: int) -> DupRound:
    return must(one(db, DupRound, "SELECT * FROM dup_rounds WHERE id = ?", [round_id]),
                f"duplicate round {round_id}")


def list_rounds(db: Database, game_id: int) -> list[DupRound]:
    return rows(db, DupRound, "SELECT * FROM dup_rounds WHERE game_id = ? ORDER BY number",
                [game_id])


def close_round_row(db: Database, rnd: DupRound, board_after: str, tops: dict[str, Any],
                    by: Change, tournament_id: int) -> bool:
    """Close a round, guarded by "still open and the board it was read with": True only for
    the one call that closed it (a repeat, or a replay after a crash, writes nothing)."""
    cursor = db.execute(
        """UPDATE dup_rounds SET closed_at = ?, board_after = ?, tops = ?
           WHERE id = ? AND closed_at IS NULL AND board_before = ?""",
        [to_db(by.at), board_after, to_db(tops), rnd.id, rnd.board_before])
    if cursor.rowcount != 1:
        return False
    record(db, by, "duplicate.round.close", tournament_id=tournament_id,
           subject=str(rnd.id), data={"top_score": tops.get("top_score"),
                                      "lexicon": tops.get("lexicon")})
    return True


def open_rounds(db: Database, tournament_id: int) -> list[DupRound]:
    """The rounds of a tournament open now (at most one in a well-run event)."""
    return rows(db, DupRound, """SELECT r.* FROM dup_rounds r JOIN dup_games g ON g.id = r.game_id
                                 WHERE g.tournament_id = ? AND r.closed_at IS NULL
                                 ORDER BY r.id""", [tournament_id])


# -- slips -------------------------------------------------------------------------------


def add_slip(db: Database, rnd: DupRound, player_id: int, by: Change, tournament_id: int,
             **values: Any) -> DupSlip:
    """Record a slip (text, coord, word, declared, received_at, source); the player's earlier
    slip of the round, if any, is marked replaced by it (both stay: 003 r. 41–42 may need
    them all)."""
    earlier = one(db, DupSlip, """SELECT * FROM dup_slips WHERE round_id = ? AND player_id = ?
                                  AND replaced_by IS NULL ORDER BY id DESC LIMIT 1""",
                  [rnd.id, player_id])
    slip = insert_row(db, DupSlip, "dup_slips", {
        "round_id": rnd.id, "player_id": player_id, **values, "recorded_at": by.at,
        "actor_kind": by.actor, "actor_id": by.actor_id})
    if earlier is not None:
        db.execute("UPDATE dup_slips SET replaced_by = ? WHERE id = ?", [slip.id, earlier.id])
    record(db, by, "duplicate.slip", tournament_id=tournament_id, subject=str(rnd.id),
           data={"player_id": player_id, "text": slip.text, "declared": slip.declared,
                 "received_at": slip.received_at, "replaces": earlier.id if earlier else None})
    return slip


def list_slips(db: Database, round_id: int) -> list[DupSlip]:
    """Every slip of a round in the order handed in (received, then recorded)."""
    return rows(db, DupSlip, """SELECT * FROM dup_slips WHERE round_id = ?
                                ORDER BY received_at, id""", [round_id])


def add_slip_fix(db: Database, wrong: DupSlip, fixed: DupSlip, by: Change, tournament_id: int,
                 *, rule: str, reason: str) -> DupSlipFix:
    """Record that `fixed` (just added: it replaced `wrong`) corrects the arbiter's typing of
    `wrong`; the database refuses it for a Discord slip or any but the entry `fixed`
    replaced, in an open round."""
    fix = insert_row(db, DupSlipFix, "dup_slip_fixes", {
        "slip_id": wrong.id, "fixed_by": fixed.id, "rule": rule, "reason": reason,
        "at": by.at, "actor_kind": by.actor, "actor_id": by.actor_id})
    record(db, by, "duplicate.slip_fix", tournament_id=tournament_id,
           subject=str(wrong.round_id), data={"player_id": wrong.player_id, "slip_id": wrong.id,
                                              "text": wrong.text, "fixed_by": fixed.id,
                                              "fixed_text": fixed.text, "rule": rule})
    return fix


def superseded_slips(db: Database, round_id: int) -> frozenset[int]:
    """The round's slips the arbiter typed wrong and corrected (not slips handed in)."""
    return frozenset(r[0] for r in db.execute(
        "SELECT f.slip_id FROM dup_slip_fixes AS f JOIN dup_slips AS s ON s.id = f.slip_id "
        "WHERE s.round_id = ?", [round_id]).fetchall())


# -- scores ------------------------------------------------------------------------------


def add_score(db: Database, rnd: DupRound, player_id: int, by: Change, **values: Any
              ) -> DupScore:
    """A player's round score as the next version (1 at the close; a correction adds one)."""
    version = db.execute("SELECT COALESCE(MAX(version), 0) + 1 FROM dup_scores "
                         "WHERE round_id = ? AND player_id = ?",
                         [rnd.id, player_id]).fetchone()[0]
    return insert_row(db, DupScore, "dup_scores", {
        "round_id": rnd.id, "player_id": player_id, "version": version, **values,
        "at": by.at, "actor_kind": by.actor, "actor_id": by.actor_id})


def current_scores(db: Database, round_id: int) -> list[DupScore]:
    """Each player's latest score version in a round."""
    return rows(db, DupScore, """SELECT s.* FROM dup_scores s WHERE s.round_id = ? AND
                                 s.version = (SELECT MAX(version) FROM dup_scores t
                                   WHERE t.round_id = s.round_id AND t.player_id = s.player_id)
                                 ORDER BY s.player_id""", [round_id])


def corrected_scores(db: Database, game_id: int, round_no: int, at: datetime,
                     actor_id: str | None) -> int:
    """How many later score versions (a correction's, 004 §5D) of a round were written at `at`
    by `actor_id`: what one decision changed."""
    return int(db.execute(
        """SELECT COUNT(*) FROM dup_scores s JOIN dup_rounds r ON r.id = s.round_id
           WHERE r.game_id = ? AND r.number = ? AND s.version > 1 AND s.at = ?
           AND s.actor_id IS ?""", [game_id, round_no, to_db(at), actor_id]).fetchone()[0])


# -- protests and corrections -------------------------------------------------------------


def add_protest(db: Database, game: DupGame, player_id: int, by: Change, **values: Any
                ) -> DupProtest:
    """File a protest (round_no, word, claim, reason; 003 r. 27)."""
    protest = insert_row(db, DupProtest, "dup_protests", {
        "game_id": game.id, "player_id": player_id, **values, "filed_at": by.at})
    record(db, by, "duplicate.protest", tournament_id=game.tournament_id,
           subject=str(protest.id), data=dict(values))
    return protest


def get_protest(db: Database, protest_id: int) -> DupProtest | None:
    return one(db, DupProtest, "SELECT * FROM dup_protests WHERE id = ?", [protest_id])


def protest_event_id(db: Database, protest_id: int) -> int | None:
    """The tournament a protest was filed in (its decision buttons carry only the protest)."""
    found = first_value(db, "SELECT g.tournament_id FROM dup_protests p JOIN dup_games g "
                            "ON g.id = p.game_id WHERE p.id = ?", [protest_id])
    return None if found is None else int(found)


def list_protests(db: Database, game_id: int, status: str | None = None) -> list[DupProtest]:
    where, params = ("AND status = ?", [game_id, status]) if status else ("", [game_id])
    return rows(db, DupProtest, f"SELECT * FROM dup_protests WHERE game_id = ? {where} "
                "ORDER BY id", params)


def decide_protest_row(db: Database, protest: DupProtest, upheld: bool, decision: str,
                       by: Change, tournament_id: int) -> DupProtest | None:
    """Decide a pending protest once; None when it was already decided."""
    cursor = db.execute(
        """UPDATE dup_protests SET status = ?, decided_at = ?, decided_by = ?, decision = ?
           WHERE id = ? AND status = 'pending'""",
        ["upheld" if upheld else "rejected", to_db(by.at), by.actor_id, decision, protest.id])
    if cursor.rowcount != 1:
        return None
    record(db, by, "duplicate.protest.decide", tournament_id=tournament_id,
           subject=str(protest.id), data={"upheld": upheld, "decision": decision})
    return get_protest(db, protest.id)


def add_correction(db: Database, game: DupGame, by: Change, **values: Any) -> DupCorrection:
    """A word ruled on again after the game (round_no, word, accepted, reason, rule,
    protest_id; 004 §5D)."""
    correction = insert_row(db, DupCorrection, "dup_corrections", {
        "game_id": game.id, **values, "at": by.at, "actor_kind": by.actor,
        "actor_id": by.actor_id})
    record(db, by, "duplicate.correction", tournament_id=game.tournament_id,
           subject=correction.word, data={k: to_db(v) for k, v in values.items()})
    return correction


def list_corrections(db: Database, game_id: int) -> list[DupCorrection]:
    return rows(db, DupCorrection, "SELECT * FROM dup_corrections WHERE game_id = ? ORDER BY id",
                [game_id])


# -- the shoot-out (003 r. 49) ------------------------------------------------------------


def add_shoot_out(db: Database, tournament_id: int, player_id: int, by: Change, *, score: int,
                  seconds: float, word: str | None, rule: str) -> DupShootOut:
    """A player's shoot-out result as the next version (1 the first time; `by.reason` says
    why a correction was entered)."""
    version = db.execute("SELECT COALESCE(MAX(version), 0) + 1 FROM dup_shoot_outs "
                         "WHERE tournament_id = ? AND player_id = ?",
                         [tournament_id, player_id]).fetchone()[0]
    values = {"score": score, "seconds": float(seconds), "word": word, "rule": rule}
    entered = insert_row(db, DupShootOut, "dup_shoot_outs", {
        "tournament_id": tournament_id, "player_id": player_id, "version": version, **values,
        "reason": by.reason, "at": by.at, "actor_kind": by.actor, "actor_id": by.actor_id})
    record(db, by, "duplicate.shoot_out", tournament_id=tournament_id, subject=str(player_id),
           data={**values, "version": version})
    return entered


def current_shoot_outs(db: Database, tournament_id: int) -> list[DupShootOut]:
    """Each player's latest shoot-out version in the event, by player."""
    return rows(db, DupShootOut, """SELECT s.* FROM dup_shoot_outs s WHERE tournament_id = ?
                                    AND version = (SELECT MAX(version) FROM dup_shoot_outs t
                                      WHERE t.tournament_id = s.tournament_id
                                        AND t.player_id = s.player_id)
                                    ORDER BY player_id""", [tournament_id])


def shoot_out_history(db: Database, tournament_id: int) -> list[DupShootOut]:
    """Every version ever entered, in the order entered."""
    return rows(db, DupShootOut, "SELECT * FROM dup_shoot_outs WHERE tournament_id = ? "
                "ORDER BY id", [tournament_id])
