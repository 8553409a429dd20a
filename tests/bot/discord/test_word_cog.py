"""`/slovo` through discord.py's real dispatch over a real store (issue 22 item 5): the
ephemeral verdict with its source, rule and lexicon id; the rate limit; the audit while the
tournament runs; the refusal for a player in an open duplicate round (through the policy's
seam, which the store cannot answer yet); a missing or broken lexicon said in one line."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.cogs.word import WordCog
from bot.discord.ratelimit import RateLimiter
from bot.services.app import Tx
from bot.services.lexicon.word_check import AUDIT_ACTION, WordCheckPolicy
from bot.store.audit import list_audit
from rules.lexicon import (
    Admissibility,
    Lexicon,
    LexiconError,
    admissibility,
    compile_graph,
    judge,
    make_lexicon,
)

from ..conftest import SLUG
from .conftest import said

MAIN = ["kamarát", "mesto", "stolík"]  # 5+ letters: the main list decides (no B6, B7)


def lexicon() -> Lexicon:
    return make_lexicon(compile_graph(sorted(MAIN)), "testovací zoznam")


def loaded() -> tuple[Lexicon, Admissibility]:
    return lexicon(), admissibility("sss")


async def with_cog(env: Any, *, slug: str = SLUG, load: Any = loaded, **options: Any) -> None:
    await env.h.bot.add_cog(WordCog(env.h.bot, env.app, slug, load, **options))


async def audit(env: Any) -> list[Any]:
    return await env.app.store.read(list_audit, action=AUDIT_ACTION)


async def test_a_valid_word_is_answered_to_the_asker_and_audited(env: Any) -> None:
    await with_cog(env)
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "Úž"})
    lx = lexicon().id
    reason = judge("úž", lexicon(), admissibility("sss")).reason  # the rules' own sentence
    assert ex.ephemeral and said(ex) == (
        f"PLATNÉ: úž\n{reason}\n"
        f"zdroj: B2 (zoznam platných 2-písmenových slov) · pravidlo: SP B1 10.1 bod 3 · "
        f"lexikón: {lx}")
    assert env.h.channel_messages == []  # nothing public
    [row] = await audit(env)
    assert (row.actor_kind, row.actor_id, row.subject) == (
        "player", str(env.world.players[0].id), "úž")
    assert row.tournament_id == env.world.tournament.id
    assert row.data["valid"] is True and row.data["lexicon"] == lx
    assert row.data["discord_id"] == env.players[0].id and row.reason == "/slovo"


@pytest.mark.parametrize(("word", "headline", "rule"), [
    ("ou", "NEPLATNÉ: ou", "SP B1 10.1 bod 3"),  # hunspell knows it, B2 does not
    ("stolík", "PLATNÉ: stolík", "SP B1 10.1"),  # 6 letters: the main list
    ("stolíky", "NEPLATNÉ: stolíky", "SP B1 10.1"),
    ("dysprózium", "PLATNÉ: dysprózium", "SP B1 10.1 bod 5"),  # B5, always valid
])
async def test_the_verdict_names_its_rule(env: Any, word: str, headline: str, rule: str) -> None:
    await with_cog(env)
    text = said(await env.h.slash("slovo", user=env.players[1], options={"tvar": word}))
    assert text.splitlines()[0] == headline
    assert f"· pravidlo: {rule} ·" in text


async def test_a_query_that_is_no_word_is_one_line_and_not_audited(env: Any) -> None:
    await with_cog(env)
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "dve slová"})
    assert ex.ephemeral and said(ex) == (
        "Slovo „dve slová“ obsahuje medzeru: overiť sa dá len jedno slovo z písmen.")
    long = await env.h.slash("slovo", user=env.players[0], options={"tvar": "a" * 10_000})
    assert said(long).count("\n") == 0 and "10000 znakov" in said(long)
    assert await audit(env) == []


async def test_too_many_checks_are_refused_politely(env: Any) -> None:
    await with_cog(env, limiter=RateLimiter(limit=2, per=60))
    for _ in range(2):
        await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert ex.ephemeral and said(ex).startswith("Pomalšie, prosím")
    other = await env.h.slash("slovo", user=env.players[1], options={"tvar": "mesto"})
    assert said(other).startswith("PLATNÉ")  # the limit is per user
    assert len(await audit(env)) == 3


def playing(tx: Tx, tournament_id: int, discord_id: int) -> str | None:
    """A stand-in for the duplicate tables: the first player is in round 7 of game 2."""
    return "2. hra, 7. kolo" if discord_id == 1001 else None


async def test_a_player_in_an_open_duplicate_round_is_refused_with_the_reason(env: Any) -> None:
    assert env.players[0].id == 1001 and env.players[1].id != 1001
    await with_cog(env, open_round=playing)
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert ex.ephemeral and said(ex) == (
        "Slovo ti teraz neoverím: hráš duplikátne kolo 2. hra, 7. kolo, ktoré je otvorené, a "
        "počas hry sa nesmú používať pomôcky, ktoré neposkytne organizátor (003 r. 30).")
    assert await audit(env) == []  # a refusal checks nothing
    other = await env.h.slash("slovo", user=env.players[1], options={"tvar": "mesto"})
    assert said(other).startswith("PLATNÉ: mesto")


async def test_the_block_can_be_switched_off(env: Any) -> None:
    await with_cog(env, open_round=playing,
                   policy=WordCheckPolicy(block_during_duplicate=False))
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert said(ex).startswith("PLATNÉ: mesto")


async def test_without_a_running_tournament_nothing_is_audited(env: Any) -> None:
    await with_cog(env, slug="", open_round=playing)  # a bot without a tournament
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert said(ex).startswith("PLATNÉ: mesto")  # and no duplicate round can be open
    assert await audit(env) == []


async def test_an_account_of_no_player_is_audited_as_the_account(env: Any) -> None:
    await with_cog(env)
    await env.h.slash("slovo", user=env.admin, options={"tvar": "mesto"})
    [row] = await audit(env)
    assert row.actor_id == f"discord:{env.admin.id}"


async def test_in_english_the_labels_change(env: Any) -> None:
    await with_cog(env)
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "ou"},
                           locale="en-US")
    assert said(ex).splitlines()[0] == "INVALID: ou"
    assert "· rule: SP B1 10.1 bod 3 · lexicon: lx-" in said(ex)


async def test_a_missing_or_broken_lexicon_is_said_and_retried(env: Any) -> None:
    calls: list[str] = []

    def broken() -> tuple[Lexicon, Admissibility]:
        calls.append("load")
        if len(calls) == 1:
            raise LexiconError("slova.txt, riadok 3: znak „1“ nie je písmeno.")
        return loaded()

    await with_cog(env, load=broken)
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert said(ex) == "Zoznam slov sa nedá použiť: slova.txt, riadok 3: znak „1“ nie je písmeno."
    again = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert said(again).startswith("PLATNÉ") and calls == ["load", "load"]


async def test_no_lexicon_configured(env: Any) -> None:
    await with_cog(env, load=lambda: None)
    ex = await env.h.slash("slovo", user=env.players[0], options={"tvar": "mesto"})
    assert said(ex) == ("Overovanie slov nie je nastavené: v config.toml chýba [lexicon] "
                        "default = „…“ (zoznam slov alebo zostavený lexikón).")
