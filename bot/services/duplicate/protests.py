"""Protests after a duplicate game and the corrections they lead to (issue 24 item 3;
003 r. 27–29, 004 §5D).

A protest says a word was wrongly accepted or wrongly rejected in a round; it may be filed
while the game's preliminary results stand (the protest window, r. 27). The head admin decides
each once (r. 29: final). An upheld protest is a correction: the word is ruled on again in that
round, every player's score of the round is re-judged (a new score version, 004 §5D) — scores
and ranks change, the board and the tops never do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlite_utils import Database

from bot.i18n import Term, t
from bot.services import bounds
from bot.services.app import Tx
from bot.services.duplicate.context import (
    Event,
    direct,
    event_of,
    game_of,
    player_by_discord,
    player_by_label,
    round_of,
    to_discord,
)
from bot.services.duplicate.results import game_result
from bot.services.replies import Refusal, Reply, done
from bot.store import Change
from bot.store.duplicate import (
    DupGame,
    DupProtest,
    DupRound,
    add_correction,
    add_protest,
    add_score,
    corrected_scores,
    current_scores,
    decide_protest_row,
    game_by_id,
    get_protest,
    list_games,
    list_protests,
    list_slips,
)
from bot.store.players import get_player
from bot.store.schema import DUP_CLAIMS

CLAIMS = DUP_CLAIMS  # the store's CHECK names them
DECISION_RULE = "003 r. 29; 004 §5D"
#: the claims and the decisions as an arbiter writes them (the hall CLI, a rehearsal scenario)
CLAIM_WORDS = {"prijaté": "wrongly-accepted", "odmietnuté": "wrongly-rejected"}
VERDICT_WORDS = {"vyhovieť": True, "zamietnuť": False}
WORD_LIMIT = 40
REASON_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class Decided:
    protest: DupProtest
    changed: int  # round scores that changed


def file_protest(tx: Tx, slug: str, round_no: int, word: str, claim: str, reason: str, *,
                 discord_id: int | None = None, player: str | None = None,
                 game: int | None = None) -> DupProtest:
    """File a protest (003 r. 27) by an entrant (Discord account or named by the arbiter).
    Refused: a reason holding a control or direction character (the one rule of
    `rules.free_text`, issue 36.2), outside the protest window, an unknown round, a claim that
    is neither, a word or reason too long. The same protest again (player, round, word, claim,
    reason) is the one filed: answered with it, nothing stored or said twice."""
    reason = bounds.clean(reason, bounds.field_name("reason"), lines=True)  # before all else
    event = event_of(tx.db, slug)
    dup_game = game_of(tx.db, event, game)
    if dup_game.state != "preliminary":
        raise Refusal("duplicate.online.protest_closed", game=dup_game.number,
                      rule="003 r. 27–29")
    rnd = round_of(tx.db, dup_game, round_no)
    if claim not in CLAIMS:
        raise Refusal("duplicate.online.protest_claim")
    text = word.strip().upper()
    if not text or len(text) > WORD_LIMIT or not text.isalpha():
        raise Refusal("duplicate.online.protest_word", n=len(word))
    if len(reason) > REASON_LIMIT:
        raise Refusal("duplicate.online.protest_reason", n=len(reason), limit=REASON_LIMIT)
    if text not in round_words(tx.db, event, dup_game, rnd):
        raise Refusal("duplicate.online.protest_word_not_played", word=text, round=round_no,
                      rule="003 r. 26–27")
    # one who left the game may still protest its results (003 r. 27)
    who = (player_by_discord(tx.db, event, discord_id, playing=False) if discord_id is not None
           else player_by_label(tx.db, event, player or "", playing=False))
    same = (who.id, round_no, text, claim, reason)
    for filed in list_protests(tx.db, dup_game.id):
        if (filed.player_id, filed.round_no, filed.word, filed.claim, filed.reason) == same:
            return filed  # typed (or sent) again: the protest already filed, nothing said
    protest = add_protest(tx.db, dup_game, who.id, tx.by_player(who.id, "protest"),
                          round_no=round_no, word=text, claim=claim, reason=reason)
    filed = "duplicate.online.protest_filed"
    tx.to_admin(event.id, filed, local=not to_discord(event, filed), id=protest.id,
                game=dup_game.number, round=round_no, word=text,
                claim=t(f"duplicate.online.claim_{claim}"), player=who.name,
                reason=protest.reason, rule="003 r. 27–29")
    return protest


def round_words(db: Database, event: Event, game: DupGame, rnd: DupRound) -> set[str]:
    """The words a protest may be about (003 r. 27 speaks of the round's list, r. 26): the
    words the round's slips formed (approved or rejected), their main words as written, and
    the words of the round's top moves; upper case."""
    words = {w.word.upper() for w in game_result(db, event, game).words
             if w.round == rnd.number}
    words |= {"".join(ch for ch in s.word if ch.isalpha()).upper()
              for s in list_slips(db, rnd.id)}
    for top in rnd.tops.get("tops") or []:
        words.add(str(top.get("word", "")).upper())
        words |= {str(w).upper() for w in top.get("words", [])}
    return words


def decide_protest(tx: Tx, slug: str, protest_id: int, upheld: bool, decision: str,
                   admin: int | str) -> Decided:
    """The head admin's decision (003 r. 29, final). Upheld: the correction (004 §5D) and the
    round's scores re-judged; the player is told either way. The same decision again (verdict
    and reason) answers as the first did and changes nothing; another one is refused, and so
    is a reason with a control or direction character (`rules.free_text`)."""
    decision = bounds.clean(decision, bounds.field_name("reason"), lines=True)
    event = event_of(tx.db, slug)
    protest = get_protest(tx.db, protest_id)
    if protest is None or game_by_id(tx.db, protest.game_id).tournament_id != event.id:
        raise Refusal("duplicate.online.no_protest", id=protest_id)
    game = game_by_id(tx.db, protest.game_id)
    if game.state != "preliminary":
        raise Refusal("duplicate.online.protest_closed", game=game.number, rule="003 r. 29")
    if protest.status != "pending" and (protest.status == "upheld", protest.decision) == (
            upheld, decision):  # the same decision typed again: answered as the first time
        return Decided(protest, _changed_by(tx.db, protest))
    by = tx.by_admin(admin, decision)
    decided = decide_protest_row(tx.db, protest, upheld, decision, by, event.id)
    if decided is None:
        raise Refusal("duplicate.online.protest_decided", id=protest_id, rule="003 r. 29")
    changed = 0
    if upheld:
        add_correction(tx.db, game, by, round_no=protest.round_no, word=protest.word,
                       accepted=protest.claim == "wrongly-rejected", reason=decision,
                       rule="004 §5D", protest_id=protest.id)
        changed = _rescore(tx, slug, game.number, protest.round_no, by)
    direct(tx, event, protest.player_id, "duplicate.online.protest_decided_dm", id=protest.id,
           word=protest.word, round=protest.round_no, upheld=upheld, decision=decision,
           verdict=t("duplicate.online.protest_upheld" if upheld
                     else "duplicate.online.protest_rejected"),
           changed=changed, rule=DECISION_RULE)
    return Decided(decided, changed)


def decided_reply(protest_id: int, upheld: bool, changed: int) -> Reply:
    """What the head referee is told of his decision (the chat, a rehearsal), the verdict in
    the reader's language."""
    verdict = Term("chat.duplicate.upheld" if upheld else "chat.duplicate.rejected")
    return done("chat.duplicate.decided", id=protest_id, verdict=verdict, changed=changed,
                rule=DECISION_RULE)


def _changed_by(db: Database, protest: DupProtest) -> int:
    """The round scores a decided protest changed: the versions its correction added."""
    if protest.status != "upheld" or protest.decided_at is None:
        return 0
    return corrected_scores(db, protest.game_id, protest.round_no, protest.decided_at,
                            protest.decided_by)


def _rescore(tx: Tx, slug: str, game_no: int, round_no: int, by: Change) -> int:
    """Each player's score of the round again under the game's corrections: a new version
    where it changed (the rules' `score_game` is the one judge)."""
    event = event_of(tx.db, slug)
    game = game_of(tx.db, event, game_no)
    rnd = round_of(tx.db, game, round_no)
    result = game_result(tx.db, event, game)
    now = {s.player_id: s for s in current_scores(tx.db, rnd.id)}
    changed = 0
    for player, score in result.rounds[round_no - 1].scores.items():
        stored = now[int(player)]
        if stored.points == score.points and stored.outcome == score.outcome:
            continue
        add_score(tx.db, rnd, int(player), by, slip_id=stored.slip_id, outcome=score.outcome,
                  points=score.points, rule=score.rule, reason=score.reason,
                  verdict={**stored.verdict, "corrected": [
                      c.word for c in score.corrected]})
        direct(tx, event, int(player), "duplicate.online.corrected", game=game.number,
               round=round_no, before=stored.points, after=score.points,
               rule="004 §5D")
        changed += 1
    return changed


@dataclass(frozen=True, slots=True)
class PendingProtest:
    """A protest waiting for the head admin (the review queue shows these)."""

    id: int
    game: int
    round: int
    player: str
    word: str
    claim: str  # wrongly-accepted | wrongly-rejected (catalogue duplicate.online.claim_<…>)
    reason: str
    filed_at: datetime


def pending_protests(db: Database, slug: str) -> list[PendingProtest]:
    """Every undecided protest of the event's games, oldest first (003 r. 29)."""
    event = event_of(db, slug)
    out: list[PendingProtest] = []
    for game in list_games(db, event.id):
        for p in list_protests(db, game.id, "pending"):
            out.append(PendingProtest(p.id, game.number, p.round_no,
                                      get_player(db, p.player_id).name, p.word, p.claim,
                                      p.reason, p.filed_at))
    return out
