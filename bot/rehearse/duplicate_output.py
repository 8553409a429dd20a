"""What a duplicate rehearsal shows (issue 24.7): each round (rack, top, how many found it),
the standings after each part, the final results and the revealed seed — read from the event's
rows through the services' own view (`event_view`), never recomputed here — and the same as one
JSON document. Slovak lines from the catalogue (`rehearse.duplicate.*`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.services.app import Tx
from bot.services.duplicate.view import EventView, GameView, RoundView, event_view
from rules.duplicate import RoundScore, duplicate_profile, percent, percent_text, standings
from rules.duplicate.results import Game, RoundResult, game_result


@dataclass(frozen=True, slots=True)
class PartStanding:
    """A player's points and % of the tops' total after a part (003 r. 24: for information;
    the ranks of the final results are the rules' with their tie-break, 003 r. 46–49)."""

    player: str
    points: int
    top: int
    rank: int  # shared only by players no tie-break separates

    @property
    def percent(self) -> str:
        return percent_text(percent(self.points, self.top), 1)


@dataclass(frozen=True, slots=True)
class Summary:
    view: EventView
    refusals: tuple[dict[str, Any], ...] = ()

    def round_lines(self, game: GameView) -> list[str]:
        lines = []
        for rnd in game.rounds:
            if not rnd.tops:
                lines.append(t("rehearse.duplicate.round_none", round=rnd.number, part=rnd.part,
                               rack=rnd.rack))
                continue
            top = rnd.tops[0]
            lines.append(t("rehearse.duplicate.round", round=rnd.number, part=rnd.part,
                           rack=rnd.rack, top=f"{top.coord} {top.word}", score=rnd.top_score,
                           found=found(rnd), players=len(rnd.slips), ties=len(rnd.tops) - 1))
        return lines

    def part_lines(self, game: GameView) -> list[str]:
        lines: list[str] = []
        parts = sorted({r.part for r in game.rounds})
        for part in parts:
            rounds = [r for r in game.rounds if r.part <= part]
            last = max(r.number for r in rounds if r.part == part)
            lines.append(t("rehearse.duplicate.part", part=part, last=last))
            for s in part_standings(rounds, self.view.profile):
                lines.append(t("rehearse.duplicate.part_line", rank=s.rank, player=s.player,
                               points=s.points, percent=float(s.percent)))
        return lines

    def final_lines(self) -> list[str]:
        lines = [t("rehearse.duplicate.final")]
        lines += [t("rehearse.duplicate.final_line", rank=s.rank, player=s.player,
                    points=s.points, top=s.top, percent=float(s.percent),
                    percent_sum=float(s.percent_sum),
                    decided=t(f"duplicate.results.{s.decided_by}"), rule=s.rule)
                  for s in self.view.standings]
        return lines

    def lines(self) -> list[str]:
        out = [t("rehearse.duplicate.head", name=self.view.name, profile=self.view.profile,
                 tiles=self.view.tiles, lexicon=self.view.lexicon_id)]
        for game in self.view.games:
            out += ["", t("rehearse.duplicate.game", game=game.number, rounds=len(game.rounds),
                          state=game.state, commitment=game.commitment)]
            out += self.round_lines(game)
            out += ["", *self.part_lines(game)]
            if game.seed is not None:
                out.append(t("rehearse.duplicate.seed", seed=game.seed))
        return [*out, "", *self.final_lines()]

    def document(self) -> dict[str, Any]:
        v = self.view
        return {
            "event": {"name": v.name, "slug": v.slug, "profile": v.profile, "tiles": v.tiles,
                      "lexicon": v.lexicon_id, "mode": v.mode},
            "games": [{
                "game": g.number, "state": g.state, "commitment": g.commitment, "seed": g.seed,
                "ended_rule": g.ended_rule,
                "rounds": [{
                    "round": r.number, "part": r.part, "rack": r.rack,
                    "tops": [{"coord": m.coord, "word": m.word, "score": m.score}
                             for m in r.tops],
                    "top_score": r.top_score, "found": found(r),
                    "slips": [{"player": s.player, "move": s.move, "points": s.points,
                               "percent": s.percent, "outcome": s.outcome, "rule": s.rule,
                               "reason": s.reason, "corrected": s.corrected}
                              for s in r.slips],
                } for r in g.rounds],
                "parts": {str(part): [{"player": s.player, "points": s.points, "top": s.top,
                                       "percent": s.percent}
                                      for s in part_standings([r for r in g.rounds
                                                               if r.part <= part],
                                                              v.profile)]
                          for part in sorted({r.part for r in g.rounds})},
            } for g in v.games],
            "standings": [{"rank": s.rank, "player": s.player, "points": s.points,
                           "top": s.top, "percent": s.percent, "percent_sum": s.percent_sum,
                           "decided_by": s.decided_by, "rule": s.rule} for s in v.standings],
            "words": [{"round": w.round, "word": w.word, "approved": w.approved}
                      for w in v.words],
            "refusals": list(self.refusals),
        }


def found(rnd: RoundView) -> int:
    """How many players scored the round's top (a top of 0 is found by nobody)."""
    return sum(1 for s in rnd.slips if rnd.top_score and s.points == rnd.top_score)


def part_standings(rounds: list[RoundView], profile: str) -> list[PartStanding]:
    """Points and the tops' total over `rounds`, in the order — and with the ranks — the
    rules give the final results (`rules.duplicate.standings`: the points, then the profile's
    tie-breaks, 003 r. 48's sum of round percentages; issue 44.7: equal points were listed by
    name, unlike the channel's standings and the final's)."""
    players = tuple(sorted({s.player for rnd in rounds for s in rnd.slips}))
    results = []
    for no, rnd in enumerate(rounds, start=1):
        got = {s.player: s for s in rnd.slips}
        results.append(RoundResult(no, rnd.top_score, {
            p: RoundScore(p, no, got[p].points if p in got else 0,
                          got[p].outcome if p in got else "no-slip",
                          got[p].rule if p in got else "")
            for p in players}))
    played = Game("part", players, tuple(r.top_score for r in rounds))
    order = standings([game_result(played, results)], duplicate_profile(profile))
    return [PartStanding(s.player, s.points, s.top, s.rank) for s in order]


def summary_tx(tx: Tx, slug: str) -> Summary:
    return Summary(event_view(tx, slug))
