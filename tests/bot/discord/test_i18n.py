"""The language layer: catalogues in step, Slovak plurals, Bratislava time, translator."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest
from discord import app_commands

from bot.discord.i18n import (
    ENGLISH,
    SLOVAK,
    Catalogue,
    CatalogueError,
    CatalogueTranslator,
    app_str,
    default_catalogue,
    format_datetime,
    format_number,
    language,
    placeholders,
    plural_form,
    t,
)

COMMANDS = {
    "registracia": "register",
    "prezentacia": "checkin",
    "stav": "status",
    "nepritomny": "absent",
    "pritomny": "present",
    "remiza": "draw",
    "vysledok": "result",
    "namietka": "dispute",
    "odstupit": "withdraw",
    "parovanie": "pairings",
    "poradie": "standings",
}
# Discord's rule for command and option names (lowercase where the script has case).
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


def test_every_key_exists_in_both_catalogues() -> None:
    sk = default_catalogue().languages[SLOVAK]
    en = default_catalogue().languages[ENGLISH]
    assert set(sk.messages) == set(en.messages)
    assert set(sk.plurals) == set(en.plurals)


@pytest.mark.parametrize("key", sorted(default_catalogue().languages[SLOVAK].messages))
def test_placeholders_match_between_languages(key: str) -> None:
    sk = default_catalogue().languages[SLOVAK].messages[key]
    en = default_catalogue().languages[ENGLISH].messages[key]
    assert placeholders(sk) == placeholders(en), key


def test_plural_tables_are_complete() -> None:
    for word, forms in default_catalogue().languages[SLOVAK].plurals.items():
        assert set(forms) == {"one", "few", "many", "fraction"}, word
    for word, forms in default_catalogue().languages[ENGLISH].plurals.items():
        assert set(forms) == {"one", "other"}, word


@pytest.mark.parametrize(
    ("n", "game", "point", "minute", "round_"),
    [
        (0, "0 partií", "0 bodov", "0 minút", "0 kôl"),
        (1, "1 partia", "1 bod", "1 minúta", "1 kolo"),
        (2, "2 partie", "2 body", "2 minúty", "2 kolá"),
        (4, "4 partie", "4 body", "4 minúty", "4 kolá"),
        (5, "5 partií", "5 bodov", "5 minút", "5 kôl"),
        (11, "11 partií", "11 bodov", "11 minút", "11 kôl"),
        (22, "22 partií", "22 bodov", "22 minút", "22 kôl"),
        (2.5, "2,5 partie", "2,5 bodu", "2,5 minúty", "2,5 kola"),
        (3.0, "3 partie", "3 body", "3 minúty", "3 kolá"),
    ],
)
def test_slovak_plurals(n: float, game: str, point: str, minute: str, round_: str) -> None:
    sk = default_catalogue().languages[SLOVAK]
    rendered = [f"{format_number(n, SLOVAK)} {sk.plural(n, w)}" for w in
                ("game", "point", "minute", "round")]
    assert rendered == [game, point, minute, round_]


def test_plurals_inside_messages() -> None:
    assert t("summary.games_points", "sk", points=1, games=2, remaining=5) == (
        "Priebežný stav: 1 bod · 2 partie · do konca: 5 kôl"
    )
    assert t("summary.games_points", "en-GB", points=0.5, games=1, remaining=0) == (
        "Standing so far: 0.5 points · 1 game · to go: 0 rounds"
    )


def test_plural_form_categories() -> None:
    assert [plural_form(n, SLOVAK) for n in (0, 1, 2, 3, 4, 5, -1, 1.5)] == [
        "many", "one", "few", "few", "few", "many", "one", "fraction",
    ]
    assert [plural_form(n, ENGLISH) for n in (0, 1, 2, 1.5)] == ["other", "one", "other", "other"]


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("sk", SLOVAK),
        (None, SLOVAK),
        ("cs", SLOVAK),
        ("de", SLOVAK),
        ("en-US", ENGLISH),
        ("en-GB", ENGLISH),
        (discord.Locale.american_english, ENGLISH),
        (discord.Locale.czech, SLOVAK),
    ],
)
def test_language_from_discord_locale(locale: object, expected: str) -> None:
    assert language(locale) == expected  # type: ignore[arg-type]


def test_times_in_bratislava() -> None:
    winter = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)  # CET = UTC+1
    summer = datetime(2026, 7, 4, 17, 5, tzinfo=UTC)  # CEST = UTC+2
    assert format_datetime(winter, SLOVAK) == "21. 11. 2026 9:00"
    assert format_datetime(summer, SLOVAK) == "4. 7. 2026 19:05"
    assert format_datetime(winter, ENGLISH) == "21 Nov 2026, 09:00"
    assert t("time.limit", "sk", deadline=winter, rule="e-SP 4.5") == (
        "Partiu treba ukončiť do 21. 11. 2026 9:00 (e-SP 4.5)."
    )


def test_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="časového pásma"):
        format_datetime(datetime(2026, 11, 21, 9, 0), SLOVAK)


def test_missing_parameter_and_unknown_key_are_clear() -> None:
    with pytest.raises(CatalogueError, match="needs parameter 'rule'"):
        t("refusal.head_admin_only", "sk")
    with pytest.raises(CatalogueError, match="unknown message key"):
        t("no.such.key", "sk")


def test_english_falls_back_to_slovak(tmp_path: Path) -> None:
    (tmp_path / "sk.toml").write_text('[a]\nb = "Ahoj {meno}"\nc = "Iba po slovensky"\n')
    (tmp_path / "en.toml").write_text('[a]\nb = "Hello {meno}"\n')
    catalogue = Catalogue.load(tmp_path)
    assert catalogue.t("a.b", "en-US", meno="Ana") == "Hello Ana"
    assert catalogue.t("a.c", "en-US") == "Iba po slovensky"


def test_malformed_catalogue_is_reported(tmp_path: Path) -> None:
    (tmp_path / "sk.toml").write_text("a = 1\n")
    (tmp_path / "en.toml").write_text("")
    with pytest.raises(CatalogueError, match="not text: a"):
        Catalogue.load(tmp_path)


def test_command_names_and_english_localizations() -> None:
    catalogue = default_catalogue()
    for sk_name, en_name in COMMANDS.items():
        assert catalogue.t(f"app.{sk_name}.name") == sk_name
        assert catalogue.t(f"app.{sk_name}.name", "en-US") == en_name
    names = [v for k, v in catalogue.languages[ENGLISH].messages.items()
             if k.startswith("app.") and not k.endswith("description")]
    names += [v for k, v in catalogue.languages[SLOVAK].messages.items()
              if k.startswith("app.") and not k.endswith("description")]
    assert all(NAME.match(n) for n in names), [n for n in names if not NAME.match(n)]
    descriptions = [v for k, v in catalogue.languages[SLOVAK].messages.items()
                    if k.startswith("app.") and k.endswith("description")]
    assert all(1 <= len(d) <= 100 for d in descriptions)


def test_slovak_command_strings_are_unique() -> None:
    # The translator finds English by the Slovak text, so one text must mean one thing.
    app = [v for k, v in default_catalogue().languages[SLOVAK].messages.items()
           if k.startswith("app.")]
    assert len(app) == len(set(app))


async def test_translator_gives_english_only_to_english_locales() -> None:
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    text = app_str("app.nepritomny.name")
    assert await translator.translate(text, discord.Locale.american_english, context) == "absent"
    assert await translator.translate(text, discord.Locale.british_english, context) == "absent"
    assert await translator.translate(text, discord.Locale.czech, context) is None
    unknown = app_commands.locale_str("neznamy")
    assert await translator.translate(unknown, discord.Locale.american_english, context) is None


def test_app_str_only_for_command_strings() -> None:
    assert app_str("app.stav.name").message == "stav"
    with pytest.raises(CatalogueError):
        app_str("error.internal")
