"""The head referee runs an online duplicate event from Discord (issue 24's gap): `/duplikat
koniec`, `poradie`, `start`, and the undecided protests in `/admin poradovnik` decided by their
buttons — through discord.py's real dispatch (the harness), the production wiring, a real SQLite
file (the small event of `duplicate_world`), the same services the hall's CLI calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord.cogs.duplicate import duplicate_cog_factory
from bot.discord.i18n import t
from bot.services.duplicate.game import start_game
from bot.store.audit import list_audit
from bot.store.duplicate import get_game, list_games
from bot.store.outbox import list_outbox

from .conftest import REFUSED, make_env, said
from .duplicate_world import SEED, SLUG, Game
from .harness import HEAD_ADMIN_ROLE_ID, Exchange, FakeUser


def not_named(rule: str) -> str:
    """The admin policy's refusal of a role holder the tournament does not name."""
    return t("policy.not_admin", tournament="Duplikát online", rule=rule)


async def duplikat(game: Game, sub: str, user: FakeUser | None = None) -> Exchange:
    return await game.h.slash("duplikat", user=user or game.h.head_admin, subcommand=sub)


async def posted(game: Game) -> tuple[int, int]:
    """What the bot has put out so far: messages in the channel and rows in the outbox."""
    rows = await game.app.store.read(list_outbox)
    return len(game.channel()), len(rows)


async def protest(game: Game, player: str, round_no: int, word: str) -> Exchange:
    return await game.h.slash("namietka", user=game.players[player], options={
        "dovod": "Slovo v zozname nie je", "kolo": round_no, "sporne_slovo": word,
        "namietane": "wrongly-accepted"})


def role_holder_not_named(game: Game) -> FakeUser:
    """A member with the head admin's role whom the tournament does not name (e-SP 2.5: the
    role is only the first filter; the admin policy decides)."""
    return game.h.member("Zástupca Rozhodcu", roles=[HEAD_ADMIN_ROLE_ID])


async def test_final_results_wait_for_the_game_and_its_protests_then_answer_alike_again(
        game: Game) -> None:
    ex = await duplikat(game, "koniec")
    assert ex.ephemeral and "sa ešte nezačala žiadna partia" in said(ex)

    await game.app.run(start_game, SLUG, seed=SEED)
    ex = await duplikat(game, "koniec")
    assert "1. partia ešte beží" in said(ex)
    _, word, _ = await game.top_of(1)
    await game.to_preliminary()
    assert "Námietka č. 1 podaná" in (await protest(game, "boris", 1, word)).content
    ex = await duplikat(game, "koniec")
    assert "Nerozhodnuté námietky: 1" in said(ex) and "(003 r. 29)" in said(ex)
    assert "Konečné výsledky" not in game.channel_text()

    # only the head referee named by the tournament; nothing is posted for the others
    before = await posted(game)
    for user, refusal in ((game.players["cyril"], REFUSED),
                          (role_holder_not_named(game), not_named("003 r. 29"))):
        ex = await duplikat(game, "koniec", user)
        assert ex.ephemeral and said(ex) == refusal
    assert await posted(game) == before

    ex = await game.h.slash("duplikat", user=game.h.head_admin, subcommand="rozhodnutie",
                            options={"cislo": 1, "uznat": False, "odovodnenie": "Je v PSP"})
    assert "Námietka č. 1 rozhodnutá: zamietnuté" in said(ex)
    seen = len(game.channel())
    first = await duplikat(game, "koniec")
    text = said(first)
    assert first.ephemeral and "Konečné výsledky 1. partie sú vyhlásené" in text
    assert f"`{SEED}`" in text and "(003 r. 25–29)" in text
    final = game.channel_text(seen)
    assert "Konečné výsledky 1. partie" in final and f"`{SEED}`" in final
    game_row = await game.app.store.read(lambda db: list_games(db, game.tournament_id(db))[0])
    assert game_row.state == "final" and f"`{game_row.commitment}`" in text

    # again: the same answer, nothing changed, nothing posted twice (the outbox)
    before = await posted(game)
    again = await duplikat(game, "koniec")
    assert said(again) == text
    assert await posted(game) == before
    finals = await game.app.store.read(lambda db: list_audit(db, action="duplicate.game.final"))
    assert [(row.actor_kind.value, row.actor_id) for row in finals] == [
        ("admin", str(game.h.head_admin.id))]  # once, as his


async def test_the_standings_now_go_to_the_head_referee_alone(game: Game) -> None:
    ex = await duplikat(game, "poradie")
    assert ex.ephemeral and "Poradie ešte nie je" in said(ex) and "(003 r. 46–48)" in said(ex)

    await game.app.run(start_game, SLUG, seed=SEED)
    coord, word, score = await game.top_of(1)
    ana = game.players["ana"]
    await game.h.slash("tah", user=ana, options={"suradnica": coord, "hlavne_slovo": word,
                                                 "body": score})
    await game.to_deadline(1)  # round 1 closed: Ana found the top, the others nothing
    before = await posted(game)
    ex = await duplikat(game, "poradie")
    assert ex.ephemeral and all(m.ephemeral for m in ex.followups)
    header = ex.followups[0]
    assert "Poradie podujatia teraz" in header.content
    assert "partie: 1, z toho s konečnými výsledkami: 0 (003 r. 46–48)" in header.content
    rows = "\n".join(e["description"] for m in ex.followups for e in m.embeds).split("\n")
    assert rows[0] == f"1. Ana Ábelová — {score} bodov z {score} (100 %)"
    # Boris and Cyril level on 0 points and 0 %: the place is shared until a shoot-out
    assert [r.split(" — ")[0] for r in rows[1:]] == ["2. Boris Ďurica", "2. Cyril Čierny"]
    assert all(f"0 bodov z {score} (0 %)" in r for r in rows[1:])
    assert "rozhodol súčet bodov (003 r." in rows[1]
    assert "rovnosť trvá: rozhodne rozstrel (003 r." in rows[2]
    assert await posted(game) == before  # private: nothing in the channel
    ex = await game.h.slash("duplikat", user=game.h.head_admin, subcommand="poradie",
                            locale="en-US")
    assert "The event's standings now" in said(ex) and "still level: a shoot-out" in said(ex)

    ex = await duplikat(game, "poradie", game.players["boris"])
    assert said(ex) == REFUSED


async def test_the_head_referee_starts_the_next_game_once(game: Game) -> None:
    ex = await duplikat(game, "start", game.players["ana"])
    assert said(ex) == REFUSED
    ex = await duplikat(game, "start", role_holder_not_named(game))
    assert said(ex) == not_named("e-SP 2.6")
    assert game.channel() == []

    ex = await duplikat(game, "start")
    text = said(ex)
    started = await game.app.store.read(lambda db: get_game(db, game.tournament_id(db), 1))
    assert started is not None and started.state == "running"
    assert ex.ephemeral and "**1. partia sa začala** (003 r. 11–13)" in text
    assert f"`{started.commitment}`" in text
    deadline = int((await game.round(1)).deadline.timestamp())
    assert f"1. kolo je otvorené, limit <t:{deadline}:T>" in text
    audit = await game.app.store.read(lambda db: list_audit(db, action="duplicate.game.start"))
    assert [(a.actor_kind.value, a.actor_id) for a in audit] == [
        ("admin", str(game.h.head_admin.id))]  # who started it
    opening = game.channel_text()
    assert started.commitment in opening and "**1. partia, 1. kolo**" in opening

    # a repeated click changes nothing: the game runs (the service's line)
    before = await posted(game)
    ex = await duplikat(game, "start")
    assert "1. partia ešte beží" in said(ex)
    assert await posted(game) == before
    await game.to_preliminary()
    ex = await duplikat(game, "start")  # the event has one game
    assert "Všetky partie turnaja sa už začali (spolu: 1)" in said(ex)
    games = await game.app.store.read(lambda db: list_games(db, game.tournament_id(db)))
    assert len(games) == 1


async def test_a_waiting_protest_is_in_the_review_queue_and_decided_by_its_button(
        game: Game) -> None:
    h = game.h
    await game.app.run(start_game, SLUG, seed=SEED)
    _, word, _ = await game.top_of(1)
    await game.to_preliminary()
    await protest(game, "cyril", 1, word)

    ex = await h.slash("admin", user=h.head_admin, subcommand="poradovnik")
    assert "Námietky v duplikáte čakajúce na rozhodnutie: 1 (003 r. 27–29)" in said(ex)
    [item] = [m for m in ex.followups if "Námietka č. 1" in m.text]
    assert item.ephemeral and f"slovo {word}, neprávom schválené" in item.text
    assert "Cyril Čierny" in item.text and "Slovo v zozname nie je" in item.text
    assert [(b["label"], b["custom_id"]) for b in item.buttons] == [
        ("Vyhovieť", "stredisko:dup-namietka:1:ano"), ("Zamietnuť", "stredisko:dup-namietka:1:nie")]

    opened = await h.click(item, h.head_admin, custom_id="stredisko:dup-namietka:1:ano")
    assert opened.modal is not None
    ex = await h.submit_modal("stredisko:dup-rozhodnutie:1:1",
                              {"odovodnenie": "Tvar v PSP chýba"}, h.head_admin)
    assert "Námietka č. 1 rozhodnutá: vyhovené" in said(ex)
    assert any("č. 1" in m.text and "vyhoven" in m.text for m in h.dms(game.players["cyril"]))

    ex = await h.slash("admin", user=h.head_admin, subcommand="poradovnik")
    assert "čakajúce na rozhodnutie: 0" in said(ex) and "Námietka č. 1" not in said(ex)


async def test_in_a_classic_event_the_duplicate_commands_refuse_with_one_line(
        tmp_path: Path) -> None:
    async with make_env(tmp_path, cogs=[duplicate_cog_factory]) as env:
        for sub in ("koniec", "poradie", "start"):
            ex = await env.h.slash("duplikat", user=env.admin, subcommand=sub)
            lines = [m.text for m in ex.followups]
            assert ex.ephemeral and lines == ["Turnaj „kt-test“ nie je duplikátny."], sub
        ex = await env.admin_cmd("poradovnik")  # the classic queue, without a protests line
        assert "Na rozhodnutie čaká" in said(ex) and "duplikáte" not in said(ex)
        rows: Any = await env.app.store.read(list_outbox)
        assert rows == []


async def rozstrel(game: Game, user: FakeUser | None = None, locale: str | None = None,
                   **options: Any) -> Exchange:
    return await game.h.slash("duplikat", user=user or game.h.head_admin, subcommand="rozstrel",
                              options=options, locale=locale)


async def test_the_head_referee_enters_the_shoot_out_and_the_channel_gets_the_order(
        game: Game) -> None:
    """003 r. 49 from Discord: nobody handed in a slip, so all three are level on points and
    the sum of percentages; each result is entered (by name, number or @mention), the order is
    announced once the last is in, a correction needs its reason, nobody else may enter one."""
    ex = await rozstrel(game, hrac="Ana Ábelová", body=20, sekundy=61.5)
    assert ex.ephemeral and said(ex) == (
        "Rozstrel (003 r. 49) sa hrá až po poslednej partii turnaja: skončené partie 0 z 1.")
    await game.app.run(start_game, SLUG, seed=SEED)
    await game.to_preliminary()
    ex = await rozstrel(game, hrac="Ana Ábelová", body=20, sekundy=61.5, tah_rozstrelu="8H KOSA")
    assert ex.ephemeral and said(ex).startswith(
        "Rozstrel zapísaný: Ana Ábelová — slovo 20 b., čas 61,5 s, 8H KOSA (003 r. 49).")
    assert "chýba: Boris Ďurica, Cyril Čierny" in said(ex)
    before = await posted(game)
    ex = await rozstrel(game, role_holder_not_named(game), hrac="2", body=30, sekundy=10.0)
    assert said(ex) == not_named("003 r. 49") and await posted(game) == before
    ex = await rozstrel(game, locale="en-US", hrac="2", body=20, sekundy=70.0)
    assert said(ex).startswith("Shoot-out entered: Boris Ďurica — word 20 pts, time 70 s")
    cyril = game.players["cyril"]
    ex = await rozstrel(game, hrac=f"<@{cyril.id}>", body=15, sekundy=30.0)
    assert "Rozstrel rozhodol poradie medzi: " in said(ex)
    order = game.channel_text(before[0])
    assert "Poradie turnaja po rozstrele" in order
    assert order.index("Ana Ábelová") < order.index("Boris Ďurica") < order.index("Cyril Čierny")
    assert "rozhodol rozstrel (vyššie bodované slovo, potom čas) — slovo 20 b., čas 70 s" in order
    ex = await rozstrel(game, hrac="Cyril Čierny", body=25, sekundy=30.0)
    assert said(ex).startswith("Rozstrel hráča Cyril Čierny je už zapísaný (15 b., 30 s): "
                               "opravu zapíš s dôvodom (možnosť `dovod`)")
    ex = await rozstrel(game, hrac="Cyril Čierny", body=25, sekundy=30.0, dovod="zle sčítané")
    assert said(ex).startswith("Rozstrel opravený (2. zápis, predchádzajúce zostávajú v "
                               "zázname): Cyril Čierny — slovo 25 b.")
