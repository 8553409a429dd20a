"""What players and the head admin read: Slovak plural forms after counts, signed screlo
changes, a bye's own result line, and each rule cited once — rendered through `bot.i18n.t`,
in exact Slovak and English."""

from __future__ import annotations

import re

import pytest

from bot.i18n import (
    ENGLISH,
    SLOVAK,
    cited_rules,
    default_catalogue,
    format_signed,
    one_citation,
    t,
)

# -- plural forms ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "sk", "en"), [
    (1, "1 hráč", "1 player"), (2, "2 hráči", "2 players"), (4, "4 hráči", "4 players"),
    (5, "5 hráčov", "5 players"), (0, "0 hráčov", "0 players"),
])
def test_players_not_checked_in(n: int, sk: str, en: str) -> None:
    params = {"tournament": "Online KT", "count": n, "names": "Uršuľa Ondrejková"}
    assert t("setup.not_checked_in", SLOVAK, **params) == (
        f"Turnaj Online KT — bez prezentácie: {sk} — Uršuľa Ondrejková. O účasti rozhoduje "
        "hlavný administrátor.")
    assert t("setup.not_checked_in", "en-GB", **params) == (
        f"Tournament Online KT — not checked in: {en} — Uršuľa Ondrejková. The head "
        "administrator decides whether they play.")


@pytest.mark.parametrize(("n", "sk", "en"), [
    (1, "1 stôl", "1 table"), (4, "4 stoly", "4 tables"), (12, "12 stolov", "12 tables"),
])
def test_tables_paired(n: int, sk: str, en: str) -> None:
    params = {"round": 1, "tables": n, "rule": "e-SP 2.4", "unpaid": "—"}
    assert t("round.paired", SLOVAK, **params) == (
        f"1. kolo je spárované: {sk} (e-SP 2.4). Prvý uvedený hráč začína. Mimo párovania "
        "pre nezaplatené štartovné (e-SP 2.2): —.")
    assert t("round.paired", "en-US", **params) == (
        f"Round 1 is paired: {en} (e-SP 2.4). The player named first starts. Unpaid, not "
        "paired (e-SP 2.2): —.")


def test_other_counts_agree_with_their_nouns() -> None:
    assert t("round.open_results", SLOVAK, round=3, count=1, rule="e-SP 4.7, 4.9").startswith(
        "3. kolo má 1 neuzavretý výsledok (e-SP 4.7, 4.9).")
    assert t("round.close_warnings", "en-US", round=3, count=2, rule="e-SP 4.9").startswith(
        "Round 3 has 2 unsettled results (e-SP 4.9).")
    assert t("cli.exported", SLOVAK, what="results", count=1) == "Export (results): 1 riadok."
    assert t("cli.exported", SLOVAK, what="results", count=3) == "Export (results): 3 riadky."
    assert t("cli.audit", SLOVAK, tournament="KT", count=21) == (
        "Záznam zmien turnaja KT (21 záznamov):")
    assert t("discord_admin.queue_more", SLOVAK, n=1) == (
        "… a ešte 1 prípad na rozhodnutie. Vyrieš tieto a zavolaj /admin poradovnik znova.")
    assert t("setup.players_imported", SLOVAK, tournament="KT", added=1, created=1,
             skipped="—") == ("Turnaj KT: prihlásení hráči: 1, z toho noví v registri: 1. "
                              "Už prihlásení (preskočení): —.")


# A count placeholder directly followed by a word needs a plural form ("{count:player}"), or
# the sentence reworded so nothing has to agree with the number ("hráčov: {count}").
BARE_COUNT = re.compile(
    r"\{(n|count|tables|players|added|created|updated|present|games|rounds)\} \w")


@pytest.mark.parametrize("lang", [SLOVAK, ENGLISH])
def test_no_catalogue_count_is_followed_by_a_bare_noun(lang: str) -> None:
    messages = default_catalogue().languages[lang].messages
    bare = sorted(key for key, text in messages.items() if BARE_COUNT.search(text)
                  and not key.startswith("app."))
    # "{n} more", "{created} of them": nothing agrees with the number in English
    allowed = {"discord_admin.queue_more", "setup.players_imported"} if lang == ENGLISH else set()
    assert set(bare) <= allowed, bare


# -- signed screlo changes ------------------------------------------------------------------


@pytest.mark.parametrize(("delta", "sk", "en"), [
    (18.2, "+18,2", "+18.2"), (-24.6, "−24,6", "−24.6"), (147.0, "+147", "+147"),
    (-8, "−8", "−8"), (0, "0", "0"), (0.0, "0", "0"),
])
def test_signed_numbers(delta: float, sk: str, en: str) -> None:
    assert format_signed(delta, SLOVAK) == sk
    assert format_signed(delta, ENGLISH) == en
    assert "-" not in format_signed(delta, SLOVAK)  # a real minus sign, never a hyphen


def test_screlo_change_in_the_final_standings() -> None:
    row = {"rank": 1, "name": "Žofia Kráľová", "points": 2.0, "qp": 40, "screlo_before": 1790,
           "screlo_after": 1808.2, "screlo_delta": 18.2}
    assert t("finish.done_row", SLOVAK, **row) == (
        "1. Žofia Kráľová: 2 body, kvalifikačné body 40, online screlo 1790 → 1808,2 (+18,2)")
    row |= {"screlo_after": 1765.4, "screlo_delta": -24.6}
    assert t("finish.done_row", "en-US", **row) == (
        "1. Žofia Kráľová: 2 points, qualification points 40, online screlo 1790 → 1765.4 "
        "(−24.6)")


def test_a_signed_placeholder_without_a_number_shows_it_as_given() -> None:
    row = {"rank": 3, "name": "Ivana Veľká", "points": 1, "qp": 27, "screlo_before": "",
           "screlo_after": "", "screlo_delta": ""}
    assert t("finish.done_row", SLOVAK, **row).endswith("online screlo  →  ()")


# -- the bye --------------------------------------------------------------------------------


def test_a_bye_result_has_its_own_line() -> None:
    params = {"round": 6, "table": 12, "first": "Igor Úradník", "second": "—",
              "first_points": 1.0, "second_points": 0.0, "first_score": 20, "second_score": 0,
              "how": "voľno", "text": "Hráč nemá súpera – voľno (e-SP 4.9)",
              "rule": "e-SP 4.9", "pairing_id": 70}
    assert t("result.bye", SLOVAK, **params) == (
        "Výsledok 6. kola, stôl 12: Igor Úradník — voľno, 1 bod, 20:0 (e-SP 4.9).")
    assert t("result.bye", "en-US", **params) == (
        "Result of round 6, table 12: Igor Úradník — bye, 1 point, 20:0 (e-SP 4.9).")


# -- one citation ---------------------------------------------------------------------------

RESULT = {"round": 7, "table": 2, "first": "Adam Hrušovský", "second": "Dana Šimková",
          "first_score": 0, "second_score": 0, "first_points": 0.0, "second_points": 0.0,
          "how": "nedostavenie sa oboch hráčov", "pairing_id": 74}


@pytest.mark.parametrize(("key", "text", "rule", "expected"), [
    pytest.param(  # a proposal cites its rule once
        "result.proposal", "Ani jeden z hráčov nenastúpil na partiu (e-SP 4.9)", "e-SP 4.9",
        "Návrh na schválenie — 7. kolo, stôl 2: Adam Hrušovský – Dana Šimková "
        "0:0 (0:0), nedostavenie sa oboch hráčov. Ani jeden z hráčov nenastúpil na partiu "
        "(e-SP 4.9).", id="proposal"),
    pytest.param(  # a conflict cites the decision's full rule once
        "result.needs_admin",
        "Hlásenie nezodpovedá záznamu partie 5101 (Ján–Ľubica 400:350): Ľubica hlási 410:400 "
        "(e-SP 4.7)", "e-SP 3.5, e-SP 4.7",
        "Treba rozhodnúť — 7. kolo, stôl 2: Adam Hrušovský – Dana Šimková. "
        "Hlásenie nezodpovedá záznamu partie 5101 (Ján–Ľubica 400:350): Ľubica hlási 410:400 "
        "(e-SP 3.5, e-SP 4.7).", id="conflict"),
    pytest.param(  # a ruling whose reason cites a rule cites it once, and is named once
        "result.ruling",
        "Rozhodnutie hlavného administrátora: návrh schválený bez zmeny "
        "(e-SP 4.9)", "e-SP 4.3, 4.9",
        "Výsledok 7. kola, stôl 2: Adam Hrušovský – Dana Šimková 0:0 (0:0), nedostavenie sa "
        "oboch hráčov. Rozhodnutie hlavného administrátora: návrh schválený bez zmeny "
        "(e-SP 4.3, 4.9).", id="ruling"),
])
def test_a_result_message_cites_its_rule_once(key: str, text: str, rule: str,
                                              expected: str) -> None:
    said = t(key, SLOVAK, **RESULT, text=text, rule=rule)
    assert said == expected and said.count("(e-SP") == 1


def test_an_official_result_cites_once_in_both_languages() -> None:
    params = {**RESULT, "how": "dohraná partia", "text": "Partia riadne skončila (e-SP 3.5)",
              "rule": "e-SP 3.5"}
    assert t("result.official", SLOVAK, **params).endswith(
        "dohraná partia. Partia riadne skončila (e-SP 3.5).")
    assert t("result.official", "en-GB", **params) == (
        "Result of round 7, table 2: Adam Hrušovský – Dana Šimková 0:0 (0:0), dohraná partia. "
        "Partia riadne skončila (e-SP 3.5).")


def test_reasons_that_name_their_rule_are_not_cited_again() -> None:
    assert t("common.out", SLOVAK, reason="odstúpenie z turnaja (e-SP 3.6)", rule="e-SP 3.6") == (
        "Už nehráš v turnaji: odstúpenie z turnaja (e-SP 3.6).")
    reason = ("e-SP 3.6 a): 2 partie prehraté kontumačne bez vlastného ťahu alebo vzdané "
              "(4. kolo: nedostavenie sa, 5. kolo: nedostavenie sa)")
    assert t("result.excluded", SLOVAK, player="Tibor Šťastný", reason=reason,
             rule="e-SP 3.6") == f"Vylúčenie z turnaja: Tibor Šťastný — {reason}."
    status = t("discord_admin.item_status", SLOVAK, status="potvrdený",
               text="Partia riadne skončila (e-SP 3.5)", rule="e-SP 3.5")
    assert status == "Stav: potvrdený. Partia riadne skončila (e-SP 3.5)"


@pytest.mark.parametrize(("text", "once"), [
    ("nenastúpil (e-SP 4.9) (e-SP 4.3, 4.9)", "nenastúpil (e-SP 4.3, 4.9)"),
    ("nenastúpil (e-SP 4.3, 4.9) (e-SP 4.9).", "nenastúpil (e-SP 4.3, 4.9)."),
    ("hlási (e-SP 4.7) (e-SP 3.5, e-SP 4.7)", "hlási (e-SP 3.5, e-SP 4.7)"),
    ("na víťazovi (8) (e-SP 4.6, 4.9) (e-SP 4.6, 4.9).", "na víťazovi (8) (e-SP 4.6, 4.9)."),
    ("tabuľka (SP A3) (SP A3, e-SP 2.4, 5)", "tabuľka (SP A3, e-SP 2.4, 5)"),
    ("e-SP 3.6 a): dve kontumácie (e-SP 3.6).", "e-SP 3.6 a): dve kontumácie."),
    # different rules, or parentheses that cite nothing, stay as they are
    ("skončila (e-SP 3.5) (e-SP 4.6)", "skončila (e-SP 3.5) (e-SP 4.6)"),
    ("skončila (21. 11. 2026 18:10) (e-SP 4.3).", "skončila (21. 11. 2026 18:10) (e-SP 4.3)."),
    ("420:300 (1:0) (0,5:0,5)", "420:300 (1:0) (0,5:0,5)"),
    ("e-SP 4.36 nie je (e-SP 4.3)", "e-SP 4.36 nie je (e-SP 4.3)"),
])
def test_one_citation(text: str, once: str) -> None:
    assert one_citation(text) == once


def test_what_counts_as_a_citation() -> None:
    assert cited_rules("e-SP 4.3, 4.9") == {"e-SP 4.3", "e-SP 4.9"}
    assert cited_rules("SP A3") == {"SP A3"}
    assert cited_rules("21. 11. 2026 18:10") is None
    assert cited_rules("martaz") is None and cited_rules("8") is None


def test_sentences_whose_verb_would_have_to_agree_with_a_count_are_reworded() -> None:
    assert t("timer.still_open", SLOVAK, round=7, n=2, rule="e-SP 4.9") == (
        "7. kolo — partie, ktoré ešte čakajú na rozhodnutie: 2 (e-SP 4.9).")
    assert t("sync.done", SLOVAK, tournament="KT", fetched=1, added=1, changed=0, flagged=0,
             unmatched=0) == (
        "Synchronizácia turnaja KT s herna.net je hotová. Načítaných partií: 1, nové záznamy "
        "1, zmenené záznamy 0, záznamy s príznakom 0, nepriradené záznamy 0.")
    assert t("finish.done", SLOVAK, tournament="Online KT — skúška", season="2026/27",
             rule="SP A3", screlo_rule="e-SP 2.4, 5").startswith(
        "Turnaj Online KT — skúška (sezóna 2026/27) sa skončil.")
