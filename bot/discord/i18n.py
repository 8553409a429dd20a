"""Discord's side of the language layer: command-name localizations.

Everything else (catalogues, plurals, times) is `bot.i18n`, re-exported here for the cogs.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import (  # noqa: F401  (re-exported for cogs and tests)
    BRATISLAVA,
    ENGLISH,
    ENGLISH_LOCALES,
    LANGUAGES,
    LOCALES_DIR,
    SLOVAK,
    Catalogue,
    CatalogueError,
    Language,
    default_catalogue,
    format_datetime,
    format_number,
    language,
    placeholders,
    plural_form,
    t,
)


def app_str(key: str) -> app_commands.locale_str:
    """A command name/description from the catalogue (`app.*`), marked for translation.

    Cogs write `@app_commands.command(name=app_str("app.stav.name"), ...)`: the Slovak text is
    the base, the translator adds English from the same key.
    """
    if not key.startswith("app."):
        raise CatalogueError(f"{key!r} is not a command string (app.*)")
    return app_commands.locale_str(default_catalogue().t(key))


class CatalogueTranslator(app_commands.Translator):
    """Gives Discord English names/descriptions for the Slovak commands (en-US and en-GB).

    Slovak is the commands' base language, so every other locale keeps the Slovak text.
    """

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.catalogue = catalogue or default_catalogue()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if language(locale) != ENGLISH:
            return None
        return self.catalogue.english_for(string.message)
