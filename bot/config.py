"""The application's configuration: config.toml (ignored by git) plus the environment.

Secrets (the Discord token, the herna.net login) may come from either; the environment wins.
They are kept out of every repr so they never reach a log.

A relative path written in the file (`[store] path`, `[discord] heartbeat_file`, `[lexicon]
dir`) is relative to the file's own folder, so `stredisko create` and `stredisko run` find the
same database from any working directory; a path from the environment (`STREDISKO_DB`,
`STREDISKO_HEARTBEAT`, `STREDISKO_LEXICON_DIR`) or a default without a file is relative to the
working directory, as any shell path is.
Every message is Slovak, from the catalogue (`config.*`), and names the key to fix.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import toml_text
from bot.i18n import SLOVAK, t
from bot.os_errors import input_reason, no_read


class ConfigError(ValueError):
    """The configuration cannot be used; the message names the key."""

    @classmethod
    def of(cls, message: str, **params: Any) -> ConfigError:
        """The error with the Slovak catalogue message `config.<message>`."""
        return cls(t(f"config.{message}", SLOVAK, **params))


@dataclass(frozen=True, slots=True)
class StoreConfig:
    path: str = "stredisko.db"
    #: how long a writer waits for another process's write lock (the bot's, a command's)
    #: before it gives up with one line saying so
    lock_wait_seconds: float = 10.0


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    token: str = field(default="", repr=False)
    guild_id: int = 0
    admin_role: str = "Hlavný administrátor"
    channel: str = "riadiace-stredisko"
    locale: str = "sk"
    heartbeat_file: str = "heartbeat"
    heartbeat_seconds: float = 30.0
    tournament: str = ""  # the short name (slug) of the tournament this guild runs
    admin_channel_id: int = 0  # where the head admin's queue and summaries go (0 = DMs)


@dataclass(frozen=True, slots=True)
class HernaConfig:
    base_url: str = "https://www.herna.net/"
    user: str = field(default="", repr=False)
    password: str = field(default="", repr=False)
    max_concurrent: int = 2
    per_second: float = 1.0
    timeout_seconds: float = 15.0
    retries: int = 3
    max_pages: int = 200  # history pages one read follows at most
    read_deadline_seconds: float = 900.0  # one whole read: the history and its records
    max_page_bytes: int = 4_000_000  # a larger page is refused unread


@dataclass(frozen=True, slots=True)
class SyncConfig:
    nightly: str = "03:00"  # Europe/Bratislava
    poll_minutes: int = 3


@dataclass(frozen=True, slots=True)
class SeasonConfig:
    #: the season file (TOML), or a list of them: /rebricek and /admin ukonci read the first;
    #: finishing a tournament a file names recomputes that season (issue 37.3); "" = none
    file: str | tuple[str, ...] = ""
    html_dir: str = ""  # where each season's page is rewritten (DIR/<file stem>/); "" = none

    @property
    def files(self) -> tuple[str, ...]:
        return (self.file,) if isinstance(self.file, str) and self.file else (
            () if isinstance(self.file, str) else self.file)


@dataclass(frozen=True, slots=True)
class LexiconConfig:
    dir: str = "lexicons"  # where `--lexicon ID` finds built lexicons (ID.lex)
    default: str = ""  # the lexicon `stredisko word` uses without --lexicon (an id or file)
    rules: str = ""  # /slovo's admissibility profile ("" = the lexicon's own, else sss)
    block_during_duplicate: bool = True  # /slovo refuses a player in an open duplicate round


@dataclass(frozen=True, slots=True)
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    herna: HernaConfig = field(default_factory=HernaConfig)
    sync: SyncConfig = field(default_factory=SyncConfig)
    season: SeasonConfig = field(default_factory=SeasonConfig)
    lexicon: LexiconConfig = field(default_factory=LexiconConfig)


_SECTIONS: dict[str, type] = {
    "store": StoreConfig,
    "discord": DiscordConfig,
    "herna": HernaConfig,
    "sync": SyncConfig,
    "season": SeasonConfig,
    "lexicon": LexiconConfig,
}
_ENV = {
    ("discord", "token"): "DISCORD_TOKEN",
    ("herna", "user"): "HERNA_USER",
    ("herna", "password"): "HERNA_PASSWORD",
    # where the container keeps its state (the Dockerfile sets both to the /data volume)
    ("store", "path"): "STREDISKO_DB",
    ("discord", "heartbeat_file"): "STREDISKO_HEARTBEAT",
    # where `--lexicon ID` looks (the image: /data/lexicons, on the volume; /app is read-only)
    ("lexicon", "dir"): "STREDISKO_LEXICON_DIR",
}
#: keys holding a file's path: relative to the config file's folder when written there
_PATHS = {("store", "path"), ("discord", "heartbeat_file"), ("season", "file"),
          ("season", "html_dir"), ("lexicon", "dir")}
#: keys taking a text or a list of texts (one season file or several)
_TEXT_OR_LIST = {("season", "file")}
#: numbers that must be positive (a zero poll or heartbeat would spin); others must not be
#: negative (0 means "none" or "no limit" where the example says so)
_POSITIVE = {("store", "lock_wait_seconds"), ("discord", "heartbeat_seconds"),
             ("sync", "poll_minutes"), ("herna", "timeout_seconds"), ("herna", "max_pages"),
             ("herna", "read_deadline_seconds"), ("herna", "max_page_bytes")}
_CLOCK = re.compile(r"([01]?\d|2[0-3]):[0-5]\d")
_URL = re.compile(r"https?://[^\s/?#]+(/\S*)?")  # a scheme the client speaks and a host
#: how a value's expected type is named in a message (`config.type.*`)
_TYPE_NAMES = {int: "int", float: "float", str: "str", bool: "bool", list: "list", dict: "dict"}


def load_config(path: str | Path | None, env: Mapping[str, str] | None = None) -> Config:
    """Read `path` (optional) and apply environment overrides for the secrets."""
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    folder: Path | None = None
    if path is not None:
        p = Path(path)
        try:
            data = toml_text.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError.of("not_found", path=p) from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError.of("not_toml", path=p, error=exc) from None
        except PermissionError:  # e.g. a root-owned `chmod 600` file mounted into the image
            raise ConfigError(no_read(p)) from None
        except OSError as exc:
            raise ConfigError.of("unreadable", path=p, error=input_reason(exc, p)) from None
        except UnicodeDecodeError as exc:
            raise ConfigError.of("unreadable", path=p, error=exc) from None
        folder = p.parent
    unknown = sorted(set(data) - set(_SECTIONS))
    if unknown:
        raise ConfigError.of("unknown_section", section=unknown[0],
                             hint=_hint(unknown[0], _SECTIONS), known=", ".join(_SECTIONS))
    sections = {}
    for name, cls in _SECTIONS.items():
        table = data.get(name, {})
        if not isinstance(table, dict):
            raise ConfigError.of("not_section", section=name)
        values = dict(table)
        if folder is not None:
            for section, key in _PATHS:
                if section == name and isinstance(values.get(key), str) and values[key]:
                    values[key] = str(folder / values[key])  # an absolute one stays as is
                elif (section == name and (section, key) in _TEXT_OR_LIST
                      and _all_texts(values.get(key))):  # else refused as the file says it
                    values[key] = [str(folder / v) for v in values[key]]
        for (section, key), var in _ENV.items():
            if section == name and env.get(var):
                values[key] = unquoted(env[var])
        sections[name] = _section(cls, name, values)
    return Config(**sections)


def unquoted(value: str) -> str:
    """An environment value without the quotes a shell would have removed: `docker run
    --env-file` passes `DISCORD_TOKEN="…"` with its quotes, and Discord would refuse the token
    with them (issue 43.2). A value quoted only on one side is left as it is."""
    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _hint(name: str, known: Iterable[str]) -> str:
    """" – nemysleli ste guild_id?" for a near miss, else nothing."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return t("config.did_you_mean", SLOVAK, option=close[0]) if close else ""


def _as_written(value: Any) -> str:
    """A value as TOML writes it (true, "3"), so the message shows what the file says."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str | list):  # a list as TOML writes it: ["a", 1], not ['a', 1]
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def _section(cls: type, name: str, values: dict[str, Any]) -> Any:
    known = list(cls.__dataclass_fields__)
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ConfigError.of("unknown_key", section=name, option=unknown[0],
                             hint=_hint(unknown[0], known), known=", ".join(known))
    defaults = cls()
    for key, value in values.items():
        want = type(getattr(defaults, key))
        if (name, key) in _TEXT_OR_LIST and not isinstance(value, str):
            values[key] = _texts(name, key, value)
            continue
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            values[key] = float(value)
        elif not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise ConfigError.of("wrong_type", section=name, option=key, value=_as_written(value),
                                 expected=t(f"config.type.{_TYPE_NAMES.get(want, 'other')}",
                                          SLOVAK))
        _check_value(name, key, values[key])
    return cls(**values)


def _all_texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)


def _texts(section: str, key: str, value: Any) -> tuple[str, ...]:
    """A list of non-empty texts (file names), or one line naming the key."""
    if not _all_texts(value):
        raise ConfigError.of("wrong_type", section=section, option=key,
                             value=_as_written(value),
                             expected=t("config.type.str_or_list", SLOVAK))
    return tuple(value)


def _rules_names() -> list[str]:
    from rules.lexicon.admissibility import admissibility_names  # only when [lexicon] rules is set

    return admissibility_names()


def _check_value(section: str, key: str, value: Any) -> None:
    """A value of the right type that still cannot work: a negative number, a zero interval,
    a nightly time that is no time of day."""
    if (section, key) == ("sync", "nightly") and not _CLOCK.fullmatch(value):
        raise ConfigError.of("not_clock", section=section, option=key, value=_as_written(value))
    if (section, key) == ("herna", "base_url") and not _URL.fullmatch(value):
        raise ConfigError.of("not_url", section=section, option=key, value=_as_written(value))
    if (section, key) == ("lexicon", "rules") and value and value not in _rules_names():
        raise ConfigError.of("not_rules", section=section, option=key, value=_as_written(value),
                             known=", ".join(_rules_names()))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if value <= 0 if (section, key) in _POSITIVE else value < 0:
        message = "not_positive" if (section, key) in _POSITIVE else "negative"
        raise ConfigError.of(message, section=section, option=key, value=_as_written(value))
