"""The application's configuration: config.toml (ignored by git) plus the environment.

Secrets (the Discord token, the herna.net login) may come from either; the environment wins.
They are kept out of every repr so they never reach a log.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """The configuration cannot be used; the message names the key."""


@dataclass(frozen=True, slots=True)
class StoreConfig:
    path: str = "stredisko.db"


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
    file: str = ""  # the season file (TOML) /rebricek and /admin ukonci read; "" = none


@dataclass(frozen=True, slots=True)
class Config:
    store: StoreConfig = field(default_factory=StoreConfig)
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    herna: HernaConfig = field(default_factory=HernaConfig)
    sync: SyncConfig = field(default_factory=SyncConfig)
    season: SeasonConfig = field(default_factory=SeasonConfig)


_SECTIONS: dict[str, type] = {
    "store": StoreConfig,
    "discord": DiscordConfig,
    "herna": HernaConfig,
    "sync": SyncConfig,
    "season": SeasonConfig,
}
_ENV = {
    ("discord", "token"): "DISCORD_TOKEN",
    ("herna", "user"): "HERNA_USER",
    ("herna", "password"): "HERNA_PASSWORD",
    # where the container keeps its state (the Dockerfile sets both to the /data volume)
    ("store", "path"): "STREDISKO_DB",
    ("discord", "heartbeat_file"): "STREDISKO_HEARTBEAT",
}


def load_config(path: str | Path | None, env: Mapping[str, str] | None = None) -> Config:
    """Read `path` (optional) and apply environment overrides for the secrets."""
    env = os.environ if env is None else env
    data: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{p}: file not found (copy config.example.toml)") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(_SECTIONS))
    if unknown:
        raise ConfigError(f"unknown section [{unknown[0]}]")
    sections = {}
    for name, cls in _SECTIONS.items():
        values = dict(data.get(name, {}))
        for (section, key), var in _ENV.items():
            if section == name and env.get(var):
                values[key] = env[var]
        sections[name] = _section(cls, name, values)
    return Config(**sections)


def _section(cls: type, name: str, values: dict[str, Any]) -> Any:
    known = {f for f in cls.__dataclass_fields__}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ConfigError(f"[{name}] {unknown[0]}: unknown key")
    defaults = cls()
    for key, value in values.items():
        want = type(getattr(defaults, key))
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            values[key] = float(value)
        elif not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise ConfigError(f"[{name}] {key}: expected {want.__name__}")
    return cls(**values)
