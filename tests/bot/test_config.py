"""The configuration: secrets from env or file, never in a repr; clear errors naming the key."""

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config


def test_defaults_without_file() -> None:
    cfg = load_config(None, env={})
    assert cfg.store.path == "stredisko.db"
    assert cfg.sync.nightly == "03:00"


def test_environment_overrides_file_secrets(tmp_path: Path) -> None:
    f = tmp_path / "config.toml"
    f.write_text('[discord]\ntoken = "from-file"\n[herna]\nuser = "u"\npassword = "p1"\n')
    cfg = load_config(f, env={"DISCORD_TOKEN": "from-env", "HERNA_PASSWORD": "sekret"})
    assert cfg.discord.token == "from-env"
    assert cfg.herna.user == "u"
    assert cfg.herna.password == "sekret"
    shown = repr(cfg)
    assert "from-env" not in shown and "sekret" not in shown and "'u'" not in shown


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[discrod]\n", "unknown section [discrod]"),
        ("[herna]\nretries = 'three'\n", "[herna] retries: expected int"),
        ("[store]\npaht = 'x'\n", "[store] paht: unknown key"),
        ("[sync\n", "not valid TOML"),
    ],
)
def test_bad_config_names_the_key(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "config.toml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_config(f, env={})


def test_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="file not found"):
        load_config(tmp_path / "nope.toml", env={})


def test_container_paths_come_from_the_environment() -> None:
    cfg = load_config(None, env={"STREDISKO_DB": "/data/s.db", "STREDISKO_HEARTBEAT": "/data/hb"})
    assert cfg.store.path == "/data/s.db"
    assert cfg.discord.heartbeat_file == "/data/hb"
