"""A duplicate game's results from its rows (issue 24 item 3; 003 r. 24–29, 46–49; 004 §5D, §7).

Everything is recomputed by `rules.duplicate.score_game` from what the rows hold — each round's
top score, every slip's findings as judged at the close (`dup_scores.verdict`), who left, the
corrections — so the standings, the percentages and the word list are the rules' and agree
with the stored round scores. Announcements: the standings after a part (003 r. 24), the
preliminary results when the game ends (each player's moves and evaluations by DM, r. 25; the
approved and rejected words per round, r. 26; the protest window, r. 27), the final results
and the seed's reveal once the protests are decided (r. 29). The standings take 003 r. 49's
shoot-out as the arbiter entered it (`shootout.enter_shoot_out`, rows `dup_shoot_outs`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from bot.i18n import CatalogueError, t
from bot.services.app import Tx
from bot.services.duplicate.context import (
    Event,
    announce,
    direct,
    event_of,
    game_of,
    players_of,
    to_discord,
)
from bot.services.replies import Refusal
from bot.store import TournamentStatus
from bot.store.duplicate import (
    DupGame,
    current_scores,
    current_shoot_outs,
    list_corrections,
    list_games,
    list_protests,
    list_rounds,
    set_game_state,
)
from bot.store.tournaments import set_status
from rules.duplicate import (
    Correction,
    Game,
    GameResult,
    RoundScore,
    ShootOut,
    Slip,
    Standing,
    percent_text,
    replay,
    score_game,
    standings,
    verify,
)


@dataclass(frozen=True, slots=True)
class Revealed:
    game: int
    seed: str
    commitment: str


def game_result(db: Database, event: Event, game: DupGame) -> GameResult:
    """The game's result over its closed rounds (player ids as text in the rules' data)."""
    rounds = [r for r in list_rounds(db, game.id) if not r.is_open]
    slips: list[Slip] = []
    players: set[str] = set()
    left: dict[str, int] = {}
    for rnd in rounds:
        for score in current_scores(db, rnd.id):
            player = str(score.player_id)
            players.add(player)
            if score.outcome == "left":
                left.setdefault(player, rnd.number)
            for found in score.verdict.get("slips", []):
                # "superseded": the arbiter's corrected typo (absent from older verdicts)
                slips.append(Slip(player, rnd.number, str(found["move"]), int(found["score"]),
                                  tuple(found["words"]), frozenset(found["rejected"]),
                                  found["fault"], found["declared"], bool(found["late"]),
                                  bool(found.get("superseded", False))))
    order = [str(p.id) for _, p in players_of(db, event) if str(p.id) in players]
    corrections = tuple(Correction(c.word, c.accepted, c.reason, c.round_no, c.rule)
                        for c in list_corrections(db, game.id))
    played = Game(str(game.number), tuple(order),
                  tuple(int(r.tops.get("top_score", 0)) for r in rounds),
                  tuple(slips), left, corrections)
    return score_game(played, event.profile)


def event_standings(db: Database, event: Event, *, final_only: bool = False
                    ) -> list[Standing]:
    """The event's order over its games (003 r. 46–49): points, then the sum of per-round
    percentages, then the shoot-out the arbiter entered (`shootout.enter_shoot_out`) for a
    group level on both once all of it has a result; players still level share the rank."""
    games = [g for g in list_games(db, event.id) if not final_only or g.state == "final"]
    return standings([game_result(db, event, g) for g in games], event.profile,
                     shoot_outs_of(db, event))


def shoot_outs_of(db: Database, event: Event) -> dict[str, ShootOut]:
    """Each player's current shoot-out result (003 r. 49), by rules id."""
    return {str(s.player_id): ShootOut(s.score, s.seconds, s.word)
            for s in current_shoot_outs(db, event.id)}


def seconds_text(value: float) -> str:
    """Seconds as people read them: "95,5", "170"."""
    return f"{value:g}".replace(".", ",")


def shoot_out_text(s: Standing, rule: str) -> str | None:
    """What the shoot-out did for a player whose place it decided, with its score, time and
    rule: "rozhodol rozstrel … — slovo 24 b., čas 95,5 s, 8H SLOVO (003 r. 49)"; None when
    no shoot-out counted for him."""
    if s.shoot_out is None:
        return None
    code = s.decided_by if s.decided_by == "tied-after-shoot-out" else "shoot-out"
    word = f", {s.shoot_out.word}" if s.shoot_out.word else ""
    return t("duplicate.shoot_out.text", decided=t(f"duplicate.results.{code}"),
             score=s.shoot_out.score, seconds=seconds_text(s.shoot_out.seconds), word=word,
             rule=rule)


def standing_lines(db: Database, event: Event, rows: list[Standing], *,
                   shoot_out_due: bool = False) -> list[dict[str, Any]]:
    """Plain rows for messages: rank, name, points, the top's sum, %, what decided and its
    rule; `shoot_out` (score, seconds, word) and `note` (its words, " — …") when 003 r. 49's
    shoot-out decided the place, else None and "". `shoot_out_due` (the event's final
    results): players sharing a rank no shoot-out has yet separated are told one is pending."""
    names = {str(p.id): p.name for _, p in players_of(db, event)}
    rule = event.profile.results.shoot_out_rule
    shared = Counter(s.rank for s in rows)
    lines = []
    for s in rows:
        shot = s.shoot_out
        note = shoot_out_text(s, rule)
        if shoot_out_due and shared[s.rank] > 1 and s.decided_by != "tied-after-shoot-out":
            note = t("duplicate.online.shoot_out_pending", rule=rule)
        lines.append({"rank": s.rank, "name": names.get(s.player, s.player),
                      "points": s.points, "top": s.top,
                      "percent": float(percent_text(s.percent, 1)),
                      "decided_by": s.decided_by, "rule": s.rule,
                      "shoot_out": None if shot is None else {
                          "score": shot.score, "seconds": shot.seconds, "word": shot.word},
                      "note": f" — {note}" if note else ""})
    return lines


def lines_text(key: str, lines: list[dict[str, Any]]) -> str:
    """A list for a message's `{text}`, one catalogue line each (Slovak; the structured
    `lines` go with it for an adapter that renders them itself)."""
    return "\n".join(t(f"duplicate.online.{key}", **line) for line in lines)


def why_text(outcome: str, reason: str | None, finding: dict[str, Any] | None = None) -> str:
    """A round outcome in words (`duplicate.slip.<outcome>`), with the engine's reason for a
    void move (`duplicate.reason.<code>` / `duplicate.input.<code>`) or the rejected word."""
    text = t(f"duplicate.slip.{outcome}")
    if outcome == "word-rejected" and reason:
        return f"{text} — {reason}"
    if outcome == "invalid" and reason and finding is not None:
        kind = finding.get("fault_kind", "reason")
        try:
            return f"{text} — {t(f'duplicate.{kind}.{reason}', **finding.get('params', {}))}"
        except CatalogueError:
            return f"{text} — {reason}"
    return text


def announce_standings(tx: Tx, event: Event, game: DupGame, *, part: int) -> None:
    """The evaluated results after a part, for information (003 r. 24)."""
    lines = standing_lines(tx.db, event, event_standings(tx.db, event))
    announce(tx, event, "duplicate.online.standings", game=game.number, part=part,
             lines=lines, text=lines_text("standing_line", lines), rule="003 r. 24")


def announce_preliminary(tx: Tx, event: Event, game: DupGame, reason: str, rule: str) -> None:
    """The game is over: the preliminary results, each player's moves and evaluations by DM
    (003 r. 25), the approved and rejected words of each round (r. 26), the protest window
    (r. 27)."""
    result = game_result(tx.db, event, game)
    announce(tx, event, "duplicate.online.game_over", game=game.number, reason=reason,
             why=t(f"duplicate.online.why_{reason}"), rule=rule)
    lines = standing_lines(tx.db, event, event_standings(tx.db, event))
    announce(tx, event, "duplicate.online.preliminary", game=game.number, lines=lines,
             text=lines_text("standing_line", lines), rule="003 r. 25")
    words = [{"round": w.round, "word": w.word, "approved": w.approved,
              "verdict": t("duplicate.online.word_approved" if w.approved
                           else "duplicate.online.word_rejected")} for w in result.words]
    announce(tx, event, "duplicate.online.words", game=game.number, words=words,
             text=lines_text("word_line", words), rule="003 r. 26")
    for player in result.game.players:
        moves = [_move_line(r.round, r.top, r.scores[player]) for r in result.rounds]
        direct(tx, event, int(player), "duplicate.online.my_moves", game=game.number, moves=moves,
               text=lines_text("my_move_line", moves), rule="003 r. 25, 27")
    # a hall without Discord: no /namietka to point to — protests go to the arbiter (r. 27)
    window = "duplicate.online.protest_window"
    announce(tx, event, window if to_discord(event, window) else f"{window}_hall",
             game=game.number, rule="003 r. 27–29")


def _move_line(round_no: int, top: int, score: RoundScore) -> dict[str, Any]:
    return {"round": round_no, "move": score.slip.move if score.slip else t(
        "duplicate.online.no_move"), "points": score.points, "top": top,
        "outcome": score.outcome, "rule": score.rule, "why": why_text(score.outcome,
                                                                       score.reason)}


def finalize_game(tx: Tx, slug: str, game: int | None = None, *,
                  admin: int | str = "arbiter") -> Revealed:
    """The final results once every protest is decided (003 r. 29), and the seed revealed so
    anyone can replay the racks (`rules.duplicate.replay`). Refused while the game runs or a
    protest waits; a finalised game answers its reveal again (nothing said twice). `admin`:
    who announces them (audited with the game's new state; the hall's arbiter by default)."""
    event = event_of(tx.db, slug)
    dup_game = game_of(tx.db, event, game)
    if dup_game.state == "running":
        raise Refusal("duplicate.online.game_running", game=dup_game.number)
    if dup_game.state == "final":
        return Revealed(dup_game.number, dup_game.seed, dup_game.commitment)
    waiting = list_protests(tx.db, dup_game.id, "pending")
    if waiting:
        raise Refusal("duplicate.online.protests_pending", n=len(waiting), rule="003 r. 29")
    moved = set_game_state(tx.db, dup_game, "final", tx.by_admin(admin, "final results"))
    if moved is None:
        raise Refusal("duplicate.online.game_running", game=dup_game.number)
    lines = standing_lines(tx.db, event, event_standings(tx.db, event),
                           shoot_out_due=dup_game.number >= event.settings.games)
    announce(tx, event, "duplicate.online.final", game=dup_game.number, lines=lines,
             text=lines_text("standing_line", lines), rule="003 r. 29, 46–49")
    rounds = list_rounds(tx.db, dup_game.id)
    typed = [r.number for r in rounds if r.source == "arbiter"]
    if typed:  # the seed checks only what it drew: say which racks were the hall's (issue 41.3)
        drawn = [r.number for r in rounds if r.source != "arbiter"]
        announce(tx, event, "duplicate.online.seed_hall", game=dup_game.number,
                 seed=dup_game.seed, commitment=dup_game.commitment, typed=rounds_text(typed),
                 drawn=rounds_text(drawn), rule="003 r. 29")
    else:
        announce(tx, event, "duplicate.online.seed", game=dup_game.number, seed=dup_game.seed,
                 commitment=dup_game.commitment, rule="003 r. 29")
    games = list_games(tx.db, event.id)
    if len(games) >= event.settings.games and all(g.state == "final" for g in games) \
            and event.tournament.status is not TournamentStatus.FINISHED:
        set_status(tx.db, event.id, TournamentStatus.FINISHED, tx.by_admin(admin))
    return Revealed(dup_game.number, dup_game.seed, dup_game.commitment)


def reveal(tx: Tx, slug: str, game: int | None = None) -> Revealed:
    """The seed of a final game (refused before: it stays secret while it can matter)."""
    event = event_of(tx.db, slug)
    dup_game = game_of(tx.db, event, game)
    if dup_game.state != "final":
        raise Refusal("duplicate.online.seed_secret", game=dup_game.number)
    return Revealed(dup_game.number, dup_game.seed, dup_game.commitment)


def rounds_text(numbers: list[int]) -> str:
    """"1–3, 5": round numbers as ranges ("—" for none)."""
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans) or "—"


def replay_game(tx: Tx, slug: str, game: int | None = None
                ) -> tuple[bool, list[tuple[int, str, str, str]]]:
    """Anyone's check of a final game: the seed matches the commitment, and every rack drawn
    from it again (`rules.duplicate.replay`; racks the arbiter typed are taken as typed, and
    so never checked) equals the one played. Returns (commitment verified, [(round, played,
    re-drawn, source)…]); source "arbiter" marks a rack typed in the hall."""
    event = event_of(tx.db, slug)
    dup_game = game_of(tx.db, event, game)
    if dup_game.state != "final":
        raise Refusal("duplicate.online.seed_secret", game=dup_game.number)
    rounds = list_rounds(tx.db, dup_game.id)
    played = [["?" if blank else str(letter).upper() for _, _, letter, blank
               in (r.tops.get("tops") or [{"tiles": []}])[0]["tiles"]] for r in rounds[:-1]]
    typed = {r.number: tuple(r.rack) for r in rounds if r.source == "arbiter"}
    tiles = event.tiles
    draws = replay(dup_game.seed, tiles.bag, tiles.rack_vowels, event.profile, played, typed)
    return (verify(dup_game.seed, dup_game.commitment),
            [(r.number, r.rack, "".join(d.rack), r.source)
             for r, d in zip(rounds, draws, strict=False)])
