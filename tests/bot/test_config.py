"""The configuration: secrets from env or file, never in a repr; clear errors naming the key."""

import os
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config


def test_defaults_without_file() -> None:
    cfg = load_config(None, env={})
    assert cfg.store.path == "stredisko.db"
    assert cfg.store.lock_wait_seconds == 10.0
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


@pytest.mark.parametrize(("written", "token"), [
    ('"abc.def"', "abc.def"), ("'abc.def'", "abc.def"), ("  abc.def ", "abc.def"),
    ('"abc.def', '"abc.def'),  # quoted on one side only: not ours to guess
])
def test_an_env_file_value_in_quotes_reaches_discord_without_them(
        written: str, token: str) -> None:
    """`docker run --env-file` keeps `DISCORD_TOKEN="…"`'s quotes (issue 43.2)."""
    cfg = load_config(None, env={"DISCORD_TOKEN": written, "HERNA_PASSWORD": f"{written}"})
    assert (cfg.discord.token, cfg.herna.password) == (token, token)


def test_a_folder_where_the_config_should_be_names_the_fix(tmp_path: Path) -> None:
    """What `docker run -v "$PWD/config.toml:/app/config.toml"` leaves when the file did not
    exist yet: a folder, and `cp` copying into it (issue 43.2)."""
    folder = tmp_path / "config.toml"
    folder.mkdir()
    with pytest.raises(ConfigError) as caught:
        load_config(folder)
    message = str(caught.value)
    assert "je to priečinok, nie súbor" in message and "rmdir config.toml" in message
    assert "Errno" not in message and "Is a directory" not in message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[discrod]\n", "neznáma sekcia [discrod] – nemysleli ste discord? (známe: store, "
                         "discord, herna, sync, season, lexicon)"),
        ("[herna]\nretries = 'three'\n",
         '[herna] retries: očakáva sa celé číslo (bez úvodzoviek), zadané "three"'),
        ("[discord]\nguild_id = '123'\n",
         '[discord] guild_id: očakáva sa celé číslo (bez úvodzoviek), zadané "123"'),
        ("[discord]\nchannel = 5\n",
         "[discord] channel: očakáva sa text v úvodzovkách, zadané 5"),
        ("[herna]\nper_second = true\n",
         "[herna] per_second: očakáva sa číslo (bez úvodzoviek), zadané true"),
        ("[store]\npaht = 'x'\n",
         "[store] paht: neznámy kľúč – nemysleli ste path? (známe: path, lock_wait_seconds)"),
        ("[store]\nlock_wait_seconds = 0\n",
         "[store] lock_wait_seconds: musí byť viac ako 0, zadané 0"),
        ("[discord]\nfoo = 1\n", "[discord] foo: neznámy kľúč (známe: token, guild_id, "),
        ("store = 1\n", "[store] musí byť tabuľka"),
        ("[sync\n", "config.toml: nie je platný TOML: "),
        ("[sync]\nnightly = '3 am'\n",
         '[sync] nightly: očakáva sa čas HH:MM (napr. "03:00"), zadané "3 am"'),
        ("[sync]\npoll_minutes = 0\n", "[sync] poll_minutes: musí byť viac ako 0, zadané 0"),
        ("[discord]\nguild_id = -5\n", "[discord] guild_id: nesmie byť záporné, zadané -5"),
        # issue 36.6: an empty or scheme-less address was refused in English, by the client
        ("[herna]\nbase_url = ''\n", '[herna] base_url: očakáva sa adresa začínajúca '
                                        'http:// alebo https://'),
        ("[herna]\nbase_url = 'www.herna.net'\n", '[herna] base_url: očakáva sa adresa '
                                                    'začínajúca http:// alebo https://'),
        ("[herna]\nbase_url = 'https://'\n", "zadané \"https://\""),
        # issue 37.3: one season file or a list of them; the page's folder is text
        ("[season]\nfile = 5\n", '[season] file: očakáva sa text v úvodzovkách alebo zoznam '
                                  'textov ["a.toml", "b.toml"], zadané 5'),
        ("[season]\nfile = ['a.toml', 1]\n", '[season] file: očakáva sa text v úvodzovkách '
                                              'alebo zoznam textov ["a.toml", "b.toml"], '
                                              'zadané ["a.toml", 1]'),
        ("[season]\nfile = ['a.toml', '']\n", '[season] file: očakáva sa text'),
        ("[season]\nhtml_dir = ['web']\n",
         '[season] html_dir: očakáva sa text v úvodzovkách, zadané ["web"]'),
    ],
)
def test_bad_config_is_one_slovak_line_naming_the_key(tmp_path: Path, text: str,
                                                       message: str) -> None:
    f = tmp_path / "config.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(f, env={})
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "nope.toml", env={})
    assert str(caught.value) == (f"{tmp_path / 'nope.toml'}: súbor neexistuje (skopírujte "
                                 "config.example.toml do config.toml a vyplňte ho)")


def test_relative_paths_in_the_file_are_relative_to_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    f = folder / "config.toml"
    f.write_text('[store]\npath = "data/s.db"\n[discord]\nheartbeat_file = "/run/hb"\n'
                 '[season]\nfile = "sezona.toml"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # wherever the command runs from
    cfg = load_config(f, env={})
    assert Path(cfg.store.path) == folder / "data" / "s.db"
    assert cfg.discord.heartbeat_file == "/run/hb"  # an absolute path stays as written
    assert Path(cfg.season.file) == folder / "sezona.toml"
    # the environment's paths are the shell's: relative to the working directory
    assert load_config(f, env={"STREDISKO_DB": "x.db"}).store.path == "x.db"


def test_one_season_file_or_several_relative_to_the_config(tmp_path: Path) -> None:
    f = tmp_path / "config.toml"
    f.write_text('[season]\nfile = "msr.toml"\nhtml_dir = "web"\n', encoding="utf-8")
    cfg = load_config(f, env={})
    assert cfg.season.files == (str(tmp_path / "msr.toml"),)  # an old config as it was
    assert cfg.season.html_dir == str(tmp_path / "web")
    f.write_text('[season]\nfile = ["msr.toml", "/etc/cup.toml"]\n', encoding="utf-8")
    cfg = load_config(f, env={})
    assert cfg.season.files == (str(tmp_path / "msr.toml"), "/etc/cup.toml")
    assert cfg.season.html_dir == ""  # no page
    assert load_config(None, env={}).season.files == ()


def test_the_example_config_loads_as_it_stands() -> None:
    example = Path(__file__).resolve().parents[2] / "config.example.toml"
    cfg = load_config(example, env={})
    assert cfg.discord.admin_channel_id == 0 and cfg.discord.guild_id == 0
    assert Path(cfg.store.path) == example.parent / "stredisko.db"
    assert cfg.season.file == ""  # no season file stays none, not the config's folder


def test_container_paths_come_from_the_environment() -> None:
    cfg = load_config(None, env={"STREDISKO_DB": "/data/s.db", "STREDISKO_HEARTBEAT": "/data/hb"})
    assert cfg.store.path == "/data/s.db"
    assert cfg.discord.heartbeat_file == "/data/hb"


def test_the_lexicon_folder_comes_from_the_environment(tmp_path: Path) -> None:
    """The image sets STREDISKO_LEXICON_DIR=/data/lexicons: /app (where a config's relative
    `lexicons` would point) is not writable there; the volume is."""
    f = tmp_path / "config.toml"
    f.write_text('[lexicon]\ndir = "lexikony"\n', encoding="utf-8")
    assert load_config(f, env={}).lexicon.dir == str(tmp_path / "lexikony")
    env = {"STREDISKO_LEXICON_DIR": "/data/lexicons"}
    assert load_config(f, env=env).lexicon.dir == "/data/lexicons"
    assert load_config(None, env=env).lexicon.dir == "/data/lexicons"


def test_a_config_the_process_may_not_read_names_the_uid_and_the_remedy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a root-owned `chmod 600` config.toml gives uid 10001 in the image. Root reads any
    file, so the refusal is the system's own PermissionError, raised where the file is read
    (the real drop of privileges: tests/bot/test_permissions.py)."""
    f = tmp_path / "config.toml"
    f.write_text("", encoding="utf-8")

    def refuse(self: Path, *args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", refuse)
    with pytest.raises(ConfigError) as caught:
        load_config(f, env={})
    message = str(caught.value)
    assert message.startswith(f"{f}: stredisko tento súbor nesmie čítať")
    assert f"uid {os.getuid()}" in message and "uid 10001" in message
    assert "chmod 644" in message and "--env-file" in message and "DISCORD_TOKEN" in message
