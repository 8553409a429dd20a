"""Reconciliation: the evidence of one pairing → a verdict (DESIGN.md section 3, RULES.md 2–4).

Pure: `now` and the round's clock are parameters. Only evidence known at `now` is used (items
dated later are ignored and a game that ended after `now` is seen as still running), so any
past verdict can be recomputed. The rules, in order:

1. the latest ruling of the head administrator decides (e-SP 2.6, 5);
2. of the platform records between the pair, the last game FINISHED by the limit counts
   (e-SP 4.5); a later game still unfinished at the limit does not cancel it; a wrong-starter
   draw is no result and is superseded by the rematch (e-SP 4.2); a flagged record goes to the
   admin; when no game was finished by the limit the pairing is OVER_LIMIT (profile
   `over_limit`); a player reported absent who came after the waiting period and then
   played: the e-SP 4.3 forfeit stays proposed and the admin is told the game's score
   (`Decided.tell_admin`, e-SP 4.9);
3. a platform draw is an agreed draw only with both players' confirmations made between the
   game's start and the limit; otherwise the game stands as played (e-SP 3.5, rows 12–13);
4. finished / passes / resigned / time loss / disconnection as recorded — a disconnection is a
   forfeit the admin alone rules (proposal, e-SP 4.8, 4.9);
5. a player's score report (his latest since the game started) that contradicts the record is a
   conflict for the admin, never a silent overwrite;
6. no record: absence (e-SP 4.3) first; before the limit wait; after it the players' reports
   decide a save-failed outcome (e-SP 4.6; two "draw" reports with different scores go to
   the admin, e-SP 5), and if nobody did anything, BOTH_NO_SHOW.

Forfeits and save-failed outcomes are `Decided(proposal=True)`: the head admin alone rules them
(e-SP 2.5, 4.9). Disputes are the lifecycle's business (they move a provisional result to
"disputed"); here they are only listed in `NeedsAdmin.rests_on` so the admin sees them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from rules.evidence import (
    EvidenceError,
    PairingEvidence,
    PlatformEnd,
    PlatformGame,
    RoundClock,
    Ruling,
    ScoreReport,
)
from rules.model import ENDS_WITH_LOSER, Case, End
from rules.profile import Profile

WRONG_STARTER_RULE = "e-SP 4.2"
ADMIN_RULES = ("e-SP 2.6", "e-SP 5")  # the admin's word prevails; unforeseen cases are his
UNFORESEEN_RULE = "e-SP 5"

#: What a caller-set flag on a platform record means, in Slovak, with the rule it touches.
FLAG_TEXTS = {
    "wrong_settings": "nesprávne nastavenie stola (e-SP 4.1)",
    "unknown_nick": "neznáma prezývka hráča na herna.net (e-SP 2.3)",
    "started_before_round": "partia začala pred oficiálnym začiatkom kola (e-SP 2.2)",
}


@dataclass(frozen=True, slots=True)
class Decided:
    """The pairing's case. `proposal` = a forfeit or save-failed outcome the head admin alone
    rules (e-SP 2.5, 4.9): the lifecycle shows it to him before it is recorded."""

    case: Case
    rests_on: tuple[int, ...]
    rules: tuple[str, ...]
    proposal: bool
    note: str
    code: str
    # a fact the head admin must hear although the case is decided (Slovak, cited), e.g. a
    # player reported absent arrived after the waiting period and the game was played
    tell_admin: str = ""


@dataclass(frozen=True, slots=True)
class NeedsAdmin:
    """A conflict the rules do not settle: what it is (Slovak, cited) and what he may rule."""

    conflict: str
    allowed: tuple[End, ...]
    rests_on: tuple[int, ...]
    rules: tuple[str, ...]
    code: str


@dataclass(frozen=True, slots=True)
class Pending:
    """Nothing to decide yet; look again at `until` (None = when new evidence arrives)."""

    until: datetime | None
    why: str
    code: str


Verdict = Decided | NeedsAdmin | Pending

_PLAYED_ENDS = (End.FINISHED, End.RESIGNED, End.TIME_LOSS, End.DISCONNECTED, End.AGREED_DRAW)
_AS_PLAYED = {
    PlatformEnd.FINISHED: (End.FINISHED,),
    PlatformEnd.PASSES: (End.FINISHED,),
    PlatformEnd.RESIGNED: (End.RESIGNED,),
    PlatformEnd.TIME_LOSS: (End.TIME_LOSS,),
    PlatformEnd.DISCONNECTED: (End.DISCONNECTED,),
    PlatformEnd.DRAW: (End.AGREED_DRAW, End.FINISHED),
    PlatformEnd.UNFINISHED: (End.OVER_LIMIT,),
}


def allowed_rulings(evidence: PairingEvidence, profile: Profile) -> tuple[End, ...]:
    """What the head admin may rule for this pairing, most relevant first.

    Permissive, because the admin keeps e-SP 5 authority for what no rule foresees: every end
    of a two-player game is allowed, except that an unflagged platform record proves both
    players sat down and pressed "HRAJEM!" (e-SP 4.2), so NO_SHOW and BOTH_NO_SHOW are then
    excluded — except NO_SHOW after one player reported the other absent: he may have come
    only after the waiting period, and 4.3 forfeits even a game then played (e-SP 4.9). BYE
    only for a pairing without an opponent. The order puts first what the evidence points
    to: the last record's outcome as played, then OVER_LIMIT; without a record,
    SAVE_FAILED if results were reported and NO_SHOW if an absence was reported. Ends the
    profile does not know (`profile.ends`) are left out.
    """
    return tuple(e for e in _allowed(evidence) if e.value in profile.ends)


def _allowed(evidence: PairingEvidence) -> tuple[End, ...]:
    if evidence.second is None:
        return (End.BYE,)
    if evidence.games:
        last = max(evidence.games, key=_game_order)
        order = [*_AS_PLAYED[last.end], End.OVER_LIMIT]
        if len({a.reporter for a in evidence.absences}) == 1:
            order.append(End.NO_SHOW)  # e-SP 4.3, 4.9: a late arrival who then played
        if evidence.reports:
            order.append(End.SAVE_FAILED)
        order += [*_PLAYED_ENDS, End.SAVE_FAILED]
        if all(g.flags for g in evidence.games):
            order += [End.NO_SHOW, End.BOTH_NO_SHOW]
        return _unique(order)
    order = []
    if evidence.reports:
        order.append(End.SAVE_FAILED)
    if evidence.absences:
        order.append(End.NO_SHOW)
    order += [End.BOTH_NO_SHOW, End.NO_SHOW, End.SAVE_FAILED, End.OVER_LIMIT, *_PLAYED_ENDS]
    return _unique(order)


def reconcile(
    evidence: PairingEvidence, clock: RoundClock, now: datetime, profile: Profile
) -> Verdict:
    """The verdict on one pairing at `now` (see the module docstring for the rules)."""
    if not isinstance(now, datetime) or now.utcoffset() is None:
        raise EvidenceError("čas vyhodnotenia musí mať časové pásmo (UTC)")
    return _Reconciler(evidence_at(evidence, now), clock, now, profile).verdict()


def evidence_at(ev: PairingEvidence, now: datetime) -> PairingEvidence:
    """The evidence as it stood at `now`: later items dropped, a game that ended after `now`
    seen as still running. `reconcile` and its `NeedsAdmin.allowed` use this view."""
    games = []
    for g in ev.games:
        if g.started > now:
            continue
        if g.ended is not None and g.ended > now:
            g = replace(g, end=PlatformEnd.UNFINISHED, ended=None, on=None)
        games.append(g)
    dated = {
        name: tuple(i for i in getattr(ev, name) if i.at <= now)
        for name in ("reports", "absences", "arrivals", "confirmations", "disputes", "rulings")
    }
    return replace(ev, games=tuple(games), **dated)


@dataclass(frozen=True, slots=True)
class _Reconciler:
    ev: PairingEvidence
    clock: RoundClock
    now: datetime
    profile: Profile

    # -- the order of the rules -------------------------------------------------------------

    def verdict(self) -> Verdict:
        if self.ev.rulings:
            return self._ruled(_latest(self.ev.rulings))
        if self.ev.second is None:
            rule = self.profile.bye.rule
            case = Case(End.BYE, self.ev.first, None, round=self.ev.round)
            return Decided(case, (), (rule,), False, f"Hráč nemá súpera – voľno ({rule})", "bye")
        if self.ev.games:
            return self._told_of_late_arrival(self._from_games())
        return self._without_record()

    def _ruled(self, ruling: Ruling) -> Decided:
        case = ruling.case if ruling.case.round else replace(ruling.case, round=self.ev.round)
        note = f"Rozhodnutie hlavného administrátora: {ruling.reason}"
        return Decided(case, (ruling.id,), ADMIN_RULES, False, note, "ruling")

    # -- platform records -------------------------------------------------------------------

    def _from_games(self) -> Verdict:
        p, limit = self.profile, self.clock.limit
        games = sorted(self.ev.games, key=_game_order)
        in_time = [g for g in games if g.started <= limit]
        if not in_time:  # they sat down only after the limit: it cannot have been kept
            late = games[0]
            why = f"Partia začala až po uplynutí časového limitu ({p.over_limit.rule})"
            return self._over_limit(late, [late], why, p.over_limit.unfinished_at_limit)
        game = self._counting_game(in_time)
        basis = [*(g for g in in_time if g is not game), game]
        if game.flags:
            return self._flagged(game, basis)
        if game.first != self.ev.first:
            return self._wrong_starter(game, basis)
        if game.ended is None:
            if self.now < limit:
                return self._pending_game()
            why = f"Partia nebola ukončená do časového limitu ({p.over_limit.rule})"
            return self._over_limit(game, basis, why, p.over_limit.unfinished_at_limit)
        if game.ended > limit and p.over_limit.ended_after_limit:
            why = f"Partia nebola ukončená do časového limitu ({p.over_limit.rule})"
            return self._over_limit(game, basis, why, True)
        if game.end is PlatformEnd.DRAW:
            return self._draw(game, basis)
        return self._played(game, basis)

    def _counting_game(self, in_time: Sequence[PlatformGame]) -> PlatformGame:
        """e-SP 4.5: of the games finished by the limit, the last one counts ("ak hráči
        odohrajú viac ako jednu vzájomnú partiu do stanoveného limitu, … posledná z nich"); a
        later game still unfinished at the limit does not cancel it. Before the limit a running
        game is awaited (it may finish and count). A wrong-starter draw is no result (e-SP
        4.2). With no game finished by the limit the last one started stands for the pairing
        (row 7). Profile `over_limit.counting_game = "last_started"` keeps the older reading."""
        last, limit = in_time[-1], self.clock.limit
        if self.profile.over_limit.counting_game != "last_finished":
            return last
        if last.ended is None and self.now < limit:
            return last
        finished = [
            g for g in in_time
            if g.ended is not None and g.ended <= limit
            and not (g.end is PlatformEnd.DRAW and g.first != self.ev.first)
        ]
        if not finished:
            return last
        return max(finished, key=lambda g: (g.ended, g.started, g.id))

    def _told_of_late_arrival(self, verdict: Verdict) -> Verdict:
        """e-SP 4.3 + 4.9 (RULES.md 3): a player reported absent who came only after the
        waiting period and then played. 4.3 makes no exception ("partia bude kontumovaná"
        when he did not come within the waiting period and the opponent followed the
        procedure) and only the head admin decides forfeits (4.9): the NO_SHOW stays proposed
        and he is told that the game was played and how it ended, to rule either way. A
        conflict (NeedsAdmin) stays one; NO_SHOW is among its allowed rulings."""
        late = self._late_arrival()
        if late is None or isinstance(verdict, NeedsAdmin):
            return verdict
        reporter, absent = late
        name, rule = self.ev.name, self.profile.timing.waiting_rule
        if isinstance(verdict, Decided):
            c = verdict.case
            played = (
                f"partia sa napriek tomu odohrala: {name(c.first)}–{name(c.second)} "
                f"{c.first_score}:{c.second_score} — {verdict.note}"
            )
        else:
            played = "partia sa napriek tomu hrá (ešte nie je ukončená)"
        told = (
            f"Príchod až po uplynutí čakacej lehoty: {name(absent)} (neprítomnosť hlási "
            f"{name(reporter)}); {played}. Kontumácia podľa {rule} je navrhnutá; hlavný "
            f"administrátor rozhodne, či platí kontumácia, alebo odohraná partia "
            f"({self.profile.no_show.rule})"
        )
        games = [g.id for g in self.ev.games]
        return replace(self._no_show(reporter, absent, games), tell_admin=told)

    def _late_arrival(self) -> tuple[str, str] | None:
        """(reporter, absent) when exactly one player reported the other absent, the absent
        one did not arrive within the waiting period and no game began within it."""
        reporters = {a.reporter for a in self.ev.absences}
        if len(reporters) != 1:
            return None
        (reporter,) = reporters
        absent = self.ev.opponent(reporter)
        waiting_ends = self.clock.waiting_ends
        if any(a.player == absent and a.at <= waiting_ends for a in self.ev.arrivals):
            return None
        if min(g.started for g in self.ev.games) <= waiting_ends:
            return None
        return reporter, absent

    def _base_rules(self, basis: Sequence[PlatformGame]) -> list[str]:
        """Citations for choosing the counting game out of several."""
        rules = [self.profile.timing.rule] if len(basis) > 1 else []
        if any(g.end is PlatformEnd.DRAW and g.first != self.ev.first for g in basis[:-1]):
            rules.append(WRONG_STARTER_RULE)
        return rules

    def _flagged(self, game: PlatformGame, basis: Sequence[PlatformGame]) -> NeedsAdmin:
        named = ", ".join(FLAG_TEXTS.get(f, f) for f in game.flags)
        conflict = (
            f"Záznam partie {game.game_id} má príznak: {named}; bez rozhodnutia hlavného "
            f"administrátora sa nezapočíta ({UNFORESEEN_RULE})"
        )
        return self._needs_admin(
            "flagged_record", conflict, [g.id for g in basis], [UNFORESEEN_RULE]
        )

    def _wrong_starter(self, game: PlatformGame, basis: Sequence[PlatformGame]) -> Verdict:
        name = self.ev.name  # how the texts call the players
        limit = self.clock.limit
        rules = [*self._base_rules(basis), WRONG_STARTER_RULE]
        ids = [g.id for g in basis]
        if game.end is PlatformEnd.DRAW:
            if self.now < limit:
                why = (
                    f"Partiu začal nesprávny hráč a skončila remízou; čaká sa na odvetu so "
                    f"správnym začínajúcim hráčom ({WRONG_STARTER_RULE})"
                )
                return Pending(limit, why, "wrong_starter_rematch")
            conflict = (
                f"Partiu {game.game_id} začal nesprávny hráč ({name(game.first)}) a skončila "
                f"remízou, ale odveta do časového limitu neexistuje ({WRONG_STARTER_RULE}, "
                f"{self.profile.timing.rule})"
            )
            return self._needs_admin(
                "wrong_starter_no_rematch",
                conflict,
                ids,
                [*rules, self.profile.timing.rule],
                prefer=(End.OVER_LIMIT,),  # no game was played out by the limit
            )
        if game.ended is None and self.now < limit:
            return self._pending_game()
        conflict = (
            f"Partiu {game.game_id} začal nesprávny hráč ({name(game.first)}), podľa párovania "
            f"začína {name(self.ev.first)}; partia nebola ukončená remízou a zopakovaná "
            f"({WRONG_STARTER_RULE})"
        )
        return self._needs_admin("wrong_starter_played", conflict, ids, rules)

    def _pending_game(self) -> Pending:
        why = f"Partia ešte prebieha; rozhodne sa po jej skončení ({self.profile.timing.rule})"
        return Pending(self.clock.limit, why, "game_in_progress")

    def _over_limit(
        self, game: PlatformGame, basis: Sequence[PlatformGame], why: str, applies: bool
    ) -> Verdict:
        rules = [*self._base_rules(basis), self.profile.over_limit.rule]
        ids = [g.id for g in basis]
        if not applies:  # the profile's interpretation leaves this case to the admin
            conflict = (
                f"{why}; profil turnaja pre tento prípad kontumáciu neurčuje ({UNFORESEEN_RULE})"
            )
            return self._needs_admin(
                "over_limit_not_ruled", conflict, ids, [*rules, UNFORESEEN_RULE]
            )
        case = self._case(End.OVER_LIMIT, game)
        return self._checked_against_reports(game, basis, case, rules, why, "over_limit", True)

    def _draw(self, game: PlatformGame, basis: Sequence[PlatformGame]) -> Verdict:
        rule, limit = self.profile.agreed_draw.rule, self.clock.limit
        confirmations = [c for c in self.ev.confirmations if game.started <= c.at <= limit]
        confirmed_by = {c.player for c in confirmations}
        rules = [*self._base_rules(basis), rule]
        if len(confirmed_by) >= self.profile.agreed_draw.confirmations_required:
            note = f"Remíza dohodou, písomne potvrdená hráčmi do časového limitu ({rule})"
            case = self._case(End.AGREED_DRAW, game)
            extra = [c.id for c in confirmations]
            return self._checked_against_reports(
                game, basis, case, rules, note, "agreed_draw", False, extra
            )
        if self.now < limit:
            why = f"Remízu musia obaja hráči písomne potvrdiť do časového limitu ({rule})"
            return Pending(limit, why, "draw_awaiting_confirmation")
        note = (
            f"Remíza nebola potvrdená oboma hráčmi do časového limitu; platí výsledok partie "
            f"tak, ako bola odohraná ({rule})"
        )
        case = self._case(End.FINISHED, game)
        extra = [c.id for c in confirmations]
        return self._checked_against_reports(
            game, basis, case, rules, note, "draw_unconfirmed", False, extra
        )

    def _played(self, game: PlatformGame, basis: Sequence[PlatformGame]) -> Verdict:
        name = self.ev.name  # how the texts call the players
        p = self.profile
        texts: dict[PlatformEnd, tuple[End, str, str, bool]] = {
            PlatformEnd.FINISHED: (End.FINISHED, p.finished.rule, "Partia riadne skončila", False),
            PlatformEnd.PASSES: (
                End.FINISHED,
                p.finished.passes_rule,
                "Server ukončil partiu po dvoch kolách bez platného ťahu; platí momentálne skóre",
                False,
            ),
            PlatformEnd.RESIGNED: (
                End.RESIGNED, p.resigned.rule, f"Vzdanie partie: {name(game.on)}", False
            ),
            PlatformEnd.TIME_LOSS: (
                End.TIME_LOSS,
                p.time_loss.rule,
                f"Prehra na čas: {name(game.on)}",
                False,
            ),
            PlatformEnd.DISCONNECTED: (
                End.DISCONNECTED,
                p.disconnect.rule,
                f"Odpojenie: {name(game.on)}; kontumáciu potvrdzuje hlavný administrátor",
                True,
            ),
        }
        end, rule, text, proposal = texts[game.end]
        case = self._case(end, game)
        rules = [*self._base_rules(basis), rule]
        code = str(game.end)
        return self._checked_against_reports(
            game, basis, case, rules, f"{text} ({rule})", code, proposal
        )

    def _case(self, end: End, game: PlatformGame) -> Case:
        """The counting game as a Case, oriented by who actually started it."""
        return Case(
            end,
            game.first,
            game.second,
            game.first_score,
            game.second_score,
            loser=game.on if end in ENDS_WITH_LOSER else None,
            moved=game.moved,
            round=self.ev.round,
        )

    def _checked_against_reports(
        self,
        game: PlatformGame,
        basis: Sequence[PlatformGame],
        case: Case,
        rules: list[str],
        note: str,
        code: str,
        proposal: bool,
        extra: Iterable[int] = (),
    ) -> Verdict:
        """Decide `case`, unless a player's report contradicts the record (rule 5)."""
        name = self.ev.name  # how the texts call the players
        reports = [
            _latest(rs) for rs in _by_player(r for r in self.ev.reports if r.at >= game.started)
        ]
        wrong = [r for r in reports if not _report_matches(r, game, case.end)]
        ids = [*(g.id for g in basis), *extra]
        if wrong:
            recorded = (
                f"{game.first_score}:{game.second_score}" if game.ended else "neukončená partia"
            )
            said = "; ".join(f"{name(r.player)} hlási {r.own}:{r.opponent}" for r in wrong)
            rule = self.profile.timing.dispute_rule
            conflict = (
                f"Hlásenie nezodpovedá záznamu partie {game.game_id} "
                f"({name(game.first)}–{name(game.second)} {recorded}): {said} ({rule})"
            )
            return self._needs_admin(
                "report_conflicts_record",
                conflict,
                [*ids, *(r.id for r in wrong)],
                [*rules, rule],
                prefer=(case.end,),
            )
        ids += [r.id for r in reports]
        return Decided(case, _ids(ids), _unique(rules), proposal, note, code)

    # -- no platform record -----------------------------------------------------------------

    def _without_record(self) -> Verdict:
        name = self.ev.name  # how the texts call the players
        if self.ev.absences:
            verdict = self._absence()
            if verdict is not None:
                return verdict
        limit = self.clock.limit
        if self.now < limit:
            why = (
                f"Záznam partie zatiaľ nie je; partia sa môže hrať do časového limitu "
                f"({self.profile.timing.rule})"
            )
            return Pending(limit, why, "no_record_yet")
        if not self._platform_checked(limit):
            return self._awaiting_sync()
        reports = [_latest(rs) for rs in _by_player(self.ev.reports)]
        if len(reports) == 2:
            return self._save_failed(reports)
        rule = self.profile.save_failed.agreed_rule
        if reports:
            (r,) = reports
            conflict = (
                f"Záznam partie chýba a výsledok ({r.own}:{r.opponent}) hlási len "
                f"{name(r.player)}; hlavný administrátor vyzve oboch hráčov na oznámenie "
                f"výsledku ({rule})"
            )
            return self._needs_admin("single_report", conflict, [r.id], [rule], (End.SAVE_FAILED,))
        signs = [*self.ev.arrivals, *self.ev.absences, *self.ev.confirmations]
        if signs:
            conflict = (
                f"Záznam partie chýba, hoci sa hráči ozvali, a výsledok nikto nenahlásil "
                f"({rule}, {UNFORESEEN_RULE})"
            )
            return self._needs_admin(
                "no_game_no_reports", conflict, [s.id for s in signs], [rule, UNFORESEEN_RULE]
            )
        rule = self.profile.both_no_show.rule
        case = Case(End.BOTH_NO_SHOW, self.ev.first, self.ev.second, round=self.ev.round)
        note = f"Ani jeden z hráčov nenastúpil na partiu ({rule})"
        return Decided(case, (), (rule,), True, note, "both_no_show")

    def _absence(self) -> Verdict | None:
        """e-SP 4.3; None when the absent player came in time (the game is then awaited)."""
        name = self.ev.name  # how the texts call the players
        waiting_ends = self.clock.waiting_ends
        rule = self.profile.timing.waiting_rule
        reporters = {a.reporter for a in self.ev.absences}
        ids = [a.id for a in self.ev.absences]
        if len(reporters) == 2:
            if self.now < waiting_ends:
                return self._waiting(f"Obaja hráči hlásia neprítomnosť súpera ({rule})")
            if not self._platform_checked(waiting_ends):
                return self._awaiting_sync()
            conflict = f"Obaja hráči nahlásili neprítomnosť súpera ({rule})"
            return self._needs_admin("absence_both", conflict, ids, [rule], (End.BOTH_NO_SHOW,))
        (reporter,) = reporters
        absent = self.ev.opponent(reporter)
        arrivals = [a for a in self.ev.arrivals if a.player == absent]
        if any(a.at <= waiting_ends for a in arrivals):
            return None
        if self.now < waiting_ends:
            return self._waiting(
                f"{name(reporter)} hlási neprítomnosť súpera ({name(absent)}); posúdi sa po "
                f"uplynutí čakacej lehoty ({rule})"
            )
        if not self._platform_checked(waiting_ends):
            return self._awaiting_sync()
        claims = [c for c in (*self.ev.reports, *self.ev.confirmations) if c.player == absent]
        if claims:
            conflict = (
                f"{name(reporter)} hlási neprítomnosť súpera ({name(absent)}), no súper hlási "
                f"výsledok partie, ktorej záznam chýba ({rule})"
            )
            return self._needs_admin(
                "absence_contradicted",
                conflict,
                [*ids, *(c.id for c in claims)],
                [rule],
                (End.NO_SHOW, End.SAVE_FAILED),
            )
        return self._no_show(reporter, absent, [])

    def _no_show(self, reporter: str, absent: str, played: Iterable[int]) -> Decided:
        """The e-SP 4.3 forfeit, proposed (4.9); late arrivals and games played after the
        waiting period are shown among the evidence, they do not undo it."""
        name = self.ev.name  # how the texts call the players
        no_show = self.profile.no_show.rule
        case = Case(End.NO_SHOW, self.ev.first, self.ev.second, loser=absent, round=self.ev.round)
        note = (
            f"Neprítomnosť v čakacej lehote: {name(absent)}; postup pri absencii súpera dodržaný "
            f"({name(reporter)}); kontumáciu potvrdzuje hlavný administrátor ({no_show})"
        )
        rests = [a.id for a in self.ev.absences if a.reporter == reporter]
        rests += [a.id for a in self.ev.arrivals if a.player == absent]
        return Decided(case, _ids([*rests, *played]), (no_show,), True, note, "no_show")

    def _save_failed(self, reports: list[ScoreReport]) -> Verdict:
        """e-SP 4.6, rows 9–11: both players reported; the server saved nothing."""
        name = self.ev.name  # how the texts call the players
        first, second = self.ev.first, self.ev.second
        by = {r.player: r for r in reports}
        a = (by[first].own, by[first].opponent)  # both claims oriented first:second
        b = (by[second].opponent, by[second].own)
        # a player surely moved if both reports credit him with a positive score
        moved = frozenset(who for who, i in ((first, 0), (second, 1)) if a[i] > 0 and b[i] > 0)
        ids = _ids(r.id for r in reports)
        sf = self.profile.save_failed
        base = Case(End.SAVE_FAILED, first, second, moved=moved, round=self.ev.round)
        if a == b:
            case = replace(
                base,
                first_score=a[0],
                second_score=a[1],
                winner=_winner(a, first, second),
                agreed=True,
            )
            note = (
                f"Záznam partie chýba; obaja hráči zhodne hlásia {a[0]}:{a[1]} ({sf.agreed_rule})"
            )
            return Decided(case, ids, (sf.agreed_rule,), True, note, "save_failed_agreed")
        winner = _winner(a, first, second)
        if winner is None and _winner(b, first, second) is None:
            # Interpretation: e-SP 4.6 covers disagreement on WHO WON; both say "draw" but
            # differ on the score — no rule foresees it, the head admin decides (e-SP 5)
            conflict = (
                f"Záznam partie chýba; obaja hráči hlásia remízu, ale rôzne skóre "
                f"({a[0]}:{a[1]} a {b[0]}:{b[1]}); e-SP 4.6 rieši len nezhodu v tom, kto "
                f"vyhral — rozhodne hlavný administrátor ({UNFORESEEN_RULE})"
            )
            return self._needs_admin(
                "save_failed_draw_scores", conflict, ids, [sf.rule, UNFORESEEN_RULE],
                (End.SAVE_FAILED,),
            )
        if winner is not None and winner == _winner(b, first, second):
            note = (f"Záznam partie chýba; hráči sa zhodujú len na víťazovi ({name(winner)}) "
                    f"({sf.rule})")
            case = replace(base, winner=winner)
            return Decided(case, ids, (sf.rule,), True, note, "save_failed_winner")
        note = f"Záznam partie chýba a hráči sa nezhodujú ani na víťazovi ({sf.rule})"
        return Decided(base, ids, (sf.rule,), True, note, "save_failed_no_agreement")

    # -- helpers ----------------------------------------------------------------------------

    def _platform_checked(self, deadline: datetime) -> bool:
        checked = self.ev.platform_checked
        return checked is None or checked >= deadline

    def _awaiting_sync(self) -> Pending:
        why = (
            "Záznamy z herna.net ešte neboli skontrolované po rozhodujúcom čase; bez nich "
            f"nemožno rozhodnúť ({self.profile.timing.rule})"
        )
        return Pending(None, why, "awaiting_sync")

    def _waiting(self, why: str) -> Pending:
        return Pending(self.clock.waiting_ends, why, "waiting_period")

    def _needs_admin(
        self,
        code: str,
        conflict: str,
        ids: Iterable[int],
        rules: Iterable[str],
        prefer: Sequence[End] = (),
    ) -> NeedsAdmin:
        allowed = allowed_rulings(self.ev, self.profile)
        ordered = _unique([e for e in prefer if e in allowed] + list(allowed))
        rests = _ids([*ids, *(d.id for d in self.ev.disputes)])
        return NeedsAdmin(conflict, ordered, rests, _unique(rules), code)


def _game_order(g: PlatformGame) -> tuple[datetime, int]:
    return (g.started, g.id)


def _latest(items: Iterable[Any]) -> Any:
    return max(items, key=lambda i: (i.at, i.id))


def _by_player(reports: Iterable[ScoreReport]) -> list[list[ScoreReport]]:
    groups: dict[str, list[ScoreReport]] = {}
    for r in reports:
        groups.setdefault(r.player, []).append(r)
    return [groups[p] for p in sorted(groups)]


def _report_matches(report: ScoreReport, game: PlatformGame, end: End) -> bool:
    """A report matches the record's scores (or, for an agreed draw, the lower score written
    for both, e-SP 3.5). A final score reported for a game the record shows unfinished does
    not match."""
    if game.ended is None:
        return False
    own = game.score_of(report.player)
    other = game.second_score if report.player == game.first else game.first_score
    said = (report.own, report.opponent)
    if said == (own, other):
        return True
    low = min(own, other)
    return end is End.AGREED_DRAW and said == (low, low)


def _winner(scores: tuple[int, int], first: str, second: str | None) -> str | None:
    if scores[0] == scores[1]:
        return None
    return first if scores[0] > scores[1] else second


def _ids(ids: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(set(ids)))


def _unique(items: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(items))
