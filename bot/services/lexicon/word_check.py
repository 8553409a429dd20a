"""A word check asked in the chat (`/slovo`, issue 22 item 5): the verdict, the audit, and the
policy that keeps the lexicon from helping a player in a duplicate round he plays.

One use case, `check_word`, in one store transaction:
1. while the bot's tournament is running, a player with an open duplicate round is refused
   with the reason (`[lexicon] block_during_duplicate`, default on) — the lexicon would find
   his move for him;
2. the word is judged (`rules.lexicon.judge`: which list decided, its rule, the lexicon id);
   a query that is no word (spaces, digits, 10,000 characters) is refused with one sentence;
3. while the tournament is running, the check is written to the audit log: who (the player, or
   the Discord account when it is nobody's), which word, the verdict and the lexicon's id.

Who may be in a duplicate round is asked through `DuplicateRoundLookup`; the default,
`open_duplicate_round`, asks the duplicate tables (issue 24).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.config import LexiconConfig
from bot.i18n import t
from bot.services.app import App, Tx
from bot.services.lexicon import files as lexicon_files
from bot.services.replies import Refusal, Reply
from bot.store import ActorKind, Change, NotFoundError, TournamentStatus
from bot.store.audit import record
from bot.store.duplicate import game_by_id, open_rounds
from bot.store.entries import get_entry
from bot.store.players import find_player_by_discord
from bot.store.tournaments import get_tournament_by_slug
from rules.lexicon import Admissibility, Lexicon, LexiconError, WordVerdict, admissibility, judge

AUDIT_ACTION = "word.check"
#: the rule a refusal during a duplicate round cites: "Hráči během hry nesmějí používat žádné
#: pomůcky, které jim neposkytne pořadatel" (seed 003 r. 30). In an ordinary online game the
#: check is allowed: "Používanie programu El Siño, slovníkov … je povolené" (e-SP 3.4).
DUPLICATE_RULE = "003 r. 30"


@dataclass(frozen=True, slots=True)
class WordCheckPolicy:
    """config.toml `[lexicon] block_during_duplicate`: refuse a player in an open duplicate
    round (True, the default) or answer him anyway."""

    block_during_duplicate: bool = True


DEFAULT_POLICY = WordCheckPolicy()

#: (tx, tournament id, Discord id of the asker) -> the open duplicate round's label, or None
DuplicateRoundLookup = Callable[[Tx, int, int], str | None]


def open_duplicate_round(tx: Tx, tournament_id: int, discord_id: int) -> str | None:
    """The duplicate round the asker plays that is open now, if any: `discord_id`'s player is
    an entrant (not withdrawn or excluded) of `tournament_id`, which has an open duplicate
    round. Returns its label ("2. partia, 7. kolo")."""
    player = find_player_by_discord(tx.db, discord_id)
    if player is None:
        return None
    entry = get_entry(tx.db, tournament_id, player.id)
    if entry is None or entry.out is not None:
        return None
    for rnd in open_rounds(tx.db, tournament_id):
        game = game_by_id(tx.db, rnd.game_id)
        return t("word.duplicate_round", game=game.number, round=rnd.number)
    return None


def load_for_check(name: str, directory: Path, rules_name: str = "",
                   notes: list[str] | None = None) -> tuple[Lexicon, Admissibility]:
    """The lexicon `name` (built, by path or id in `directory`, or a plain word list) and the
    rules it is judged by: `rules_name`, else those it was built under, else sss. LexiconError
    (one Slovak sentence) when no lexicon is named or the rules differ from its build's."""
    if not name:
        raise LexiconError(t("lexicon.no_lexicon"))
    lexicon = lexicon_files.load(name, directory, notes)
    rules = rules_name or lexicon.rules or "sss"
    if lexicon.rules and rules != lexicon.rules:
        raise LexiconError(t("lexicon.rules_differ", id=lexicon.id, built=lexicon.rules,
                             asked=rules))
    return lexicon, admissibility(rules)


def configured(settings: LexiconConfig) -> tuple[Lexicon, Admissibility] | None:
    """The bot's lexicon: config.toml's `[lexicon] default` under `[lexicon] rules`; None when
    no lexicon is configured."""
    if not settings.default:
        return None
    return load_for_check(settings.default, Path(settings.dir), settings.rules)


def policy_of(settings: LexiconConfig) -> WordCheckPolicy:
    return WordCheckPolicy(block_during_duplicate=settings.block_during_duplicate)


def check_word(tx: Tx, word: str, discord_id: int, slug: str, lexicon: Lexicon,
               rules: Admissibility, policy: WordCheckPolicy = DEFAULT_POLICY,
               open_round: DuplicateRoundLookup = open_duplicate_round) -> WordVerdict:
    """The use case (see the module's docstring). `slug` is the bot's tournament ("" = none):
    only while it runs are checks refused for an open duplicate round and audited."""
    tournament = _running(tx, slug)
    if tournament is not None and policy.block_during_duplicate:
        label = open_round(tx, tournament, discord_id)
        if label is not None:
            raise Refusal("word.duplicate_open", rule=DUPLICATE_RULE, round=label)
    try:
        verdict = judge(word, lexicon, rules)
    except LexiconError as exc:
        raise Refusal("word.not_a_word", reason=str(exc)) from None
    if tournament is not None:
        record(tx.db, _asker(tx, discord_id), AUDIT_ACTION, tournament_id=tournament,
               subject=verdict.word, data={**verdict.as_dict(), "discord_id": discord_id})
    return verdict


async def check(app: App, word: str, discord_id: int, slug: str, lexicon: Lexicon,
                rules: Admissibility, policy: WordCheckPolicy = DEFAULT_POLICY,
                open_round: DuplicateRoundLookup = open_duplicate_round
                ) -> WordVerdict | Reply:
    """`check_word` in its own transaction: the verdict, or the refusal's Reply."""
    return await app.run(check_word, word, discord_id, slug, lexicon, rules, policy, open_round)


def verdict_lines(verdict: WordVerdict, locale: object = "sk") -> tuple[str, str]:
    """What every face of the check shows: the headline ("PLATNÉ: slovo") and the details
    (the reason, which list decided, its rule, the lexicon's id)."""
    label = t("lexicon.valid" if verdict.valid else "lexicon.invalid", locale)
    headline = t("word.verdict", locale, verdict=label, word=verdict.word)
    details = t("word.details", locale, reason=verdict.reason, source=verdict.source,
                rule=verdict.rule, lexicon=verdict.lexicon)
    return headline, details


def makeshift(verdict: WordVerdict, lexicon: Lexicon, rules: Admissibility,
              locale: object = "sk") -> str:
    """Why the list that decided `verdict` is not the association's own, in one line ("" when
    it is): the lexicon is a stand-in (hunspell), or the list is the copy bundled with the
    rules, reconstructed from their OCR'd text (B2, B3, B5) — an arbiter must know (issue 35)."""
    if verdict.source == lexicon.title:
        return t("word.page.standin", locale) if lexicon.standin else ""
    spec = next((spec for spec in rules.specs.values() if spec.title == verdict.source), None)
    if spec is None:  # the rules themselves decided (letters, length)
        return ""
    if lexicon.rules:  # built: the sources say whether the association's list was applied
        names = {source.name for source in lexicon.sources}
        bundled = lexicon_files.bundled_source_name(spec) in names
    else:
        word_list = rules.lists.get(spec.id)
        bundled = word_list is not None and word_list.bundled
    return t("word.page.reconstructed", locale, list=spec.id.upper()) if bundled else ""


def _running(tx: Tx, slug: str) -> int | None:
    if not slug:
        return None
    try:
        tournament = get_tournament_by_slug(tx.db, slug)
    except NotFoundError:
        return None
    return tournament.id if tournament.status == TournamentStatus.RUNNING else None


def _asker(tx: Tx, discord_id: int) -> Change:
    """The player who asked, or — for an account no player uses — the account itself."""
    player = find_player_by_discord(tx.db, discord_id)
    if player is not None:
        return tx.by_player(player.id, "/slovo")
    return Change(ActorKind.PLAYER, f"discord:{discord_id}", tx.now, "/slovo")
