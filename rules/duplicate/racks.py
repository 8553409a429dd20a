"""Fair, auditable racks (issue 23 item 4): seeded draws under the vowel/consonant rule
(003 r. 11–13; 004 §5A, §8.2), the commitment to the seed, the replay of a whole game, and the
check of a rack an arbiter typed in (a live hall draws physically, 003 r. 11).

THE RANDOM SOURCE (a published contract: anyone can replay a game in a few lines of any
language once the seed is revealed):

- The seed is a hex string of at least 16 bytes; its bytes are `S`. Before round 1 the
  commitment `SHA-256(S)` (hex) is published; after the last round `S` is revealed.
- Draw attempt `a` (0, then 1, 2 … after each redraw) of round `r` reads the stream of
  32-bit big-endian words of the blocks `SHA-256(S || ":r:a:k")` for k = 0, 1, 2 …, the
  suffix in ASCII decimal (e.g. `S || b":12:0:0"`), eight words a block.
- The tiles to draw from are listed in code-point order of their letters (the blank '?'
  included, sorting first among the letters), each letter as many times as it is there. To
  pick one of `n` tiles: take the next word `w`; if `w >= 2**32 - 2**32 % n` discard it and
  take the next (no modulo bias); otherwise the tile at index `w % n` is drawn and removed
  from the list. A draw makes its picks one after another from one attempt's stream.
- Attempt 0 keeps the leave (the tiles the top left on the rack) and draws the rest from
  the bag. A failed attempt returns to the bag all its tiles, or only the ones just drawn
  (a profile setting); the next attempt draws from that bag, keeping what was not returned.

Tiles are plain strings (upper-case letters, '?' the blank); a bag is a `Mapping[str, int]`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from rules.duplicate.profile import DuplicateProfile, RackPhase, RacksRule

BLANK = "?"
MIN_SEED_BYTES = 16
_WORD = 1 << 32

#: what a draw came to: "drawn" — the rack meets the rule (or no rule asks anything);
#: "waived" — it does not, and the bag could not give a rack that does (003 r. 13);
#: "one-kind" — only vowels or only consonants are left: the game ends (004 §8.2);
#: "empty" — no tile is left: the game ends (the profile's `end.empty_rule`: 003 r. 3, 004 §5B.1)
OUTCOMES = ("drawn", "waived", "one-kind", "empty")
#: reasons an arbiter's rack is refused (catalogue: duplicate.racks.<code>)
RACK_PROBLEMS = ("unknown-letter", "not-in-bag", "too-long", "too-short", "leave-missing",
                 "leave-dropped", "rule-broken")


class SeedError(ValueError):
    """A seed that is not hex or too short to commit to."""


@dataclass(frozen=True, slots=True)
class Draw:
    round: int
    rack: tuple[str, ...]  # in code-point order; () when the game ended
    rejected: tuple[tuple[str, ...], ...]  # each rack drawn and returned under the rule
    bag: Mapping[str, int]  # what is left in the bag
    outcome: str  # OUTCOMES
    rule: str  # the rule the outcome rests on

    @property
    def ended(self) -> bool:
        return self.outcome in ("one-kind", "empty")


@dataclass(frozen=True, slots=True)
class RackProblem:
    code: str  # RACK_PROBLEMS
    rule: str
    params: Mapping[str, str | int]  # what the reason's words name (letter, counts)


@dataclass(frozen=True, slots=True)
class RackCheck:
    rack: tuple[str, ...]  # as typed, in code-point order
    problems: tuple[RackProblem, ...]
    bag: Mapping[str, int]  # the bag after taking the rack (when it is accepted)

    @property
    def ok(self) -> bool:
        return not self.problems


# -- the seed ---------------------------------------------------------------------------------


def seed_bytes(seed: str) -> bytes:
    try:
        raw = bytes.fromhex(seed)
    except ValueError:
        raise SeedError("the seed must be hexadecimal") from None
    if len(raw) < MIN_SEED_BYTES:
        raise SeedError(f"the seed must have at least {MIN_SEED_BYTES} bytes")
    return raw


def commit(seed: str) -> str:
    """The commitment published before round 1: SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def verify(seed: str, commitment: str) -> bool:
    """Whether a revealed seed is the one committed to."""
    return commit(seed) == commitment.strip().lower()


def stream(seed: bytes, round_no: int, attempt: int) -> Iterator[int]:
    """The 32-bit words of one draw attempt (see the module's contract)."""
    k = 0
    while True:
        block = hashlib.sha256(seed + f":{round_no}:{attempt}:{k}".encode("ascii")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i:i + 4], "big")
        k += 1


def pick(words: Iterator[int], n: int) -> int:
    """A uniform index below `n` (rejection of the words above the last multiple of n)."""
    limit = _WORD - _WORD % n
    for w in words:
        if w < limit:
            return w % n
    raise AssertionError("the stream is endless")  # pragma: no cover


# -- counting --------------------------------------------------------------------------------


def tiles_of(counts: Mapping[str, int]) -> list[str]:
    """A bag's tiles in the contract's order."""
    out: list[str] = []
    for t in sorted(counts):
        out += [t] * counts[t]
    return out


def kinds(tiles: Iterable[str], vowels: Collection[str], blank_both: bool) -> tuple[int, int]:
    """(vowels, consonants) among the tiles; a blank counts as both or as neither."""
    v = c = 0
    for t in tiles:
        if t == BLANK:
            v += blank_both
            c += blank_both
        elif t in vowels:
            v += 1
        else:
            c += 1
    return v, c


def meets(rack: Iterable[str], phase: RackPhase, vowels: Collection[str],
          blank_both: bool) -> bool:
    v, c = kinds(rack, vowels, blank_both)
    return v >= phase.vowels and c >= phase.consonants


def can_meet(kept: Sequence[str], pool: Sequence[str], size: int, phase: RackPhase,
             vowels: Collection[str], blank_both: bool) -> bool:
    """Whether keeping `kept` and drawing up to `size` tiles in all from `pool` can give a
    rack that meets the phase (exact: blanks first, then the letters still needed)."""
    k = min(size - len(kept), len(pool))
    v0, c0 = kinds(kept, vowels, blank_both)
    need_v, need_c = max(0, phase.vowels - v0), max(0, phase.consonants - c0)
    blanks = sum(t == BLANK for t in pool)
    x, y = kinds((t for t in pool if t != BLANK), vowels, False)
    used = min(blanks, k, max(need_v, need_c)) if blank_both else 0
    need_v, need_c = max(0, need_v - used), max(0, need_c - used)
    return need_v <= x and need_c <= y and used + need_v + need_c <= k


# -- drawing ---------------------------------------------------------------------------------


def draw_rack(seed: str, round_no: int, bag: Mapping[str, int], leave: Sequence[str],
              vowels: Collection[str], profile: DuplicateProfile) -> Draw:
    """Round `round_no`'s rack: the leave kept, the rest drawn from `bag`, redrawn under the
    profile's rule (003 r. 11–13; 004 §8.2) until it is met or can no longer be."""
    if round_no < 1 or any(n < 0 for n in bag.values()):
        raise ValueError("rounds count from 1; a bag holds no negative number of tiles")
    rule, phase = profile.racks, profile.phase(round_no)
    raw = seed_bytes(seed)
    kept, pool = list(leave), tiles_of(bag)
    if not kept and not pool:
        return Draw(round_no, (), (), _counts(pool), "empty", profile.end_rule("empty"))
    if rule.end_when_one_kind and 0 in kinds(kept + pool, vowels, rule.blank_counts_as_both):
        return Draw(round_no, (), (), _counts(pool), "one-kind", rule.end_rule)
    rejected: list[tuple[str, ...]] = []
    for attempt in range(1_000_000):
        words = stream(raw, round_no, attempt)
        drawn = [pool.pop(pick(words, len(pool))) for _ in range(min(rule.size - len(kept),
                                                                    len(pool)))]
        rack = tuple(sorted(kept + drawn))
        if meets(rack, phase, vowels, rule.blank_counts_as_both):
            return Draw(round_no, rack, tuple(rejected), _left(bag, leave, rack), "drawn",
                        phase.rule)
        returned = list(rack) if rule.return_leave else drawn
        kept = [] if rule.return_leave else kept
        again = sorted(pool + returned)  # the bag a redraw would draw from
        judged = again if rule.counts_returned else pool
        if not (_bag_holds(kept + judged, phase, vowels, rule)
                and can_meet(kept, again, rule.size, phase, vowels, rule.blank_counts_as_both)):
            # 003 r. 13: "V opačném případě se nové losování neprovádí" — the rack stands
            return Draw(round_no, rack, tuple(rejected), _left(bag, leave, rack), "waived",
                        rule.counts_rule)
        rejected.append(rack)
        pool = again
    raise AssertionError("a rack that can be met is met long before")  # pragma: no cover


def _bag_holds(tiles: Sequence[str], phase: RackPhase, vowels: Collection[str],
               rule: RacksRule) -> bool:
    """003 r. 13: the bag (with what stays on the rack) still holds the required number of
    vowels resp. consonants."""
    v, c = kinds(tiles, vowels, rule.blank_counts_as_both)
    return v >= phase.vowels and c >= phase.consonants


def _left(bag: Mapping[str, int], leave: Sequence[str], rack: Sequence[str]) -> dict[str, int]:
    """The bag after the draw: what it held and the leave, less the rack."""
    left = dict(bag)
    for t in leave:
        left[t] = left.get(t, 0) + 1
    for t in rack:
        left[t] -= 1
    return {t: n for t, n in left.items() if n}


def _counts(tiles: Iterable[str]) -> dict[str, int]:
    return dict(sorted(Counter(tiles).items()))


def _minus_list(tiles: list[str], taken: Iterable[str]) -> list[str]:
    left = Counter(tiles)
    left.subtract(taken)
    return tiles_of(+left)


def replay(seed: str, tile_set: Mapping[str, int], vowels: Collection[str],
           profile: DuplicateProfile, played: Sequence[Sequence[str]],
           typed: Mapping[int, Sequence[str]] | None = None) -> list[Draw]:
    """Every rack of a game from its revealed seed: round 1 from the full `tile_set`, then
    after each round the tiles its top took from the rack (`played[i]`, '?' for a blank) leave
    the rack and the next rack is drawn; up to the rack after the last top, or the game's end.
    `typed`: rounds whose rack an arbiter typed in (checked, refused with ValueError)."""
    draws: list[Draw] = []
    bag, leave = dict(tile_set), ()
    for round_no in range(1, len(played) + 2):
        if typed and round_no in typed:
            draw = typed_draw(round_no, typed[round_no], tile_set, bag, leave, vowels, profile)
        else:
            draw = draw_rack(seed, round_no, bag, leave, vowels, profile)
        draws.append(draw)
        if draw.ended or round_no > len(played):
            break
        leave = tuple(_minus_list(list(draw.rack), played[round_no - 1]))
        if len(leave) + len(played[round_no - 1]) != len(draw.rack):
            raise ValueError(f"round {round_no}: the top played tiles not on the rack")
        bag = dict(draw.bag)
    return draws


def typed_draw(round_no: int, rack: Sequence[str], tile_set: Mapping[str, int],
               bag: Mapping[str, int], leave: Sequence[str], vowels: Collection[str],
               profile: DuplicateProfile) -> Draw:
    """An arbiter's rack as a `Draw`; ValueError naming the first problem when refused."""
    check = check_rack(rack, tile_set, bag, leave, vowels, profile, round_no)
    if not check.ok:
        raise ValueError(f"round {round_no}: {check.problems[0].code}")
    return Draw(round_no, check.rack, (), check.bag, "drawn", profile.racks.rule)


def redraw_possible(leave: Sequence[str], bag: Mapping[str, int], phase: RackPhase,
                    vowels: Collection[str], rule: RacksRule) -> bool:
    """Whether a round's first draw (the leave kept, the rest from `bag`) can fail the phase's
    vowel/consonant rule while the bag still allows a redraw (003 r. 12–13; the same test as
    `draw_rack`'s). Only then can a rack lack letters of the leave (`return_leave`). Exact: the
    outcome depends only on how many vowels, consonants and blanks are drawn."""
    pool = tiles_of(bag)
    k = min(rule.size - len(leave), len(pool))
    groups = {"v": [t for t in pool if t != BLANK and t in vowels],
              "c": [t for t in pool if t != BLANK and t not in vowels],
              "b": [t for t in pool if t == BLANK]}
    for nv in range(min(k, len(groups["v"])) + 1):
        for nb in range(min(k - nv, len(groups["b"])) + 1):
            nc = k - nv - nb
            if nc > len(groups["c"]):
                continue
            drawn = groups["v"][:nv] + groups["b"][:nb] + groups["c"][:nc]
            rack = [*leave, *drawn]
            if meets(rack, phase, vowels, rule.blank_counts_as_both):
                continue
            kept = [] if rule.return_leave else list(leave)
            left = _minus_list(pool, drawn)
            again = sorted(left + (rack if rule.return_leave else drawn))
            judged = again if rule.counts_returned else left
            if (_bag_holds(kept + judged, phase, vowels, rule)
                    and can_meet(kept, again, rule.size, phase, vowels,
                                 rule.blank_counts_as_both)):
                return True
    return False


def check_rack(rack: str | Sequence[str], tile_set: Mapping[str, int],
               bag: Mapping[str, int], leave: Sequence[str], vowels: Collection[str],
               profile: DuplicateProfile, round_no: int) -> RackCheck:
    """A rack an arbiter typed in (003 r. 11: drawn physically) instead of a drawn one, checked
    against the tiles it can come from: the bag and the leave (all of them go back on a redraw,
    003 r. 12). It holds the leave unless a redraw could have happened (`redraw_possible`,
    003 r. 12–13; with `return_leave` false, always). Every problem found is listed, each with
    its rule."""
    if round_no < 1:
        raise ValueError("rounds count from 1")
    rule, phase = profile.racks, profile.phase(round_no)
    tiles = tuple(sorted(t.upper() for t in rack if not t.isspace()))
    source = Counter(bag) + Counter(leave)
    pool_size = sum(source.values())
    problems: list[RackProblem] = []
    counted = Counter(tiles)
    for letter in sorted(counted):
        if letter not in tile_set:
            problems.append(RackProblem("unknown-letter", profile.tiles_rule,
                                        {"letter": letter}))
        elif counted[letter] > source[letter]:
            problems.append(RackProblem("not-in-bag", rule.rule, {
                "letter": letter, "typed": counted[letter], "left": source[letter]}))
    if len(tiles) > rule.size:
        problems.append(RackProblem("too-long", rule.rule, {"size": rule.size}))
    elif len(tiles) < min(rule.size, pool_size):
        problems.append(RackProblem("too-short", rule.rule, {"size": min(rule.size,
                                                                         pool_size)}))
    missing = Counter(leave) - counted
    named = {"leave": "".join(sorted(leave)), "missing": "".join(sorted(missing.elements()))}
    if missing and not rule.return_leave:
        problems.append(RackProblem("leave-missing", rule.return_rule, named))
    elif missing and not redraw_possible(leave, bag, phase, vowels, rule):
        # the leave goes back only with a redraw (003 r. 12), and none could have happened:
        # a rack without it is a typing slip, not a draw
        problems.append(RackProblem("leave-dropped", rule.rule, named))
    if not problems and not meets(tiles, phase, vowels, rule.blank_counts_as_both):
        everything = tiles_of(source)
        if (_bag_holds(everything, phase, vowels, rule)
                and can_meet([] if rule.return_leave else list(leave), _minus_list(
                    everything, [] if rule.return_leave else leave), rule.size, phase,
                    vowels, rule.blank_counts_as_both)):
            problems.append(RackProblem("rule-broken", phase.rule, {
                "vowels": phase.vowels, "consonants": phase.consonants}))
    left = _counts(_minus_list(tiles_of(source), tiles)) if not problems else dict(bag)
    return RackCheck(tiles, tuple(problems), left)
