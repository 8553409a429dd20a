"""`stredisko herna check`: the command itself (bot/cli.py → HernaClient → SiteCheck) against
the herna.net simulator over real HTTP on 127.0.0.1 — as it is, with a changed layout, with a
wrong password, unreachable — and what it saves: no secret in any byte."""

from __future__ import annotations

import base64
import contextlib
import html
import re
import socket
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote, quote_plus, unquote

import pytest

from bot.cli import main
from bot.cli.herna import DEFAULT_FOLDER
from scrapers.herna import layout
from scrapers.herna.check import FILE_NAMES
from scrapers.herna.generate import generate_round
from scrapers.herna.simulator import SESSION_COOKIE, Simulator

from .test_cli_sync import ThreadedSimulator

USER = "Klub-SSS"
PASSWORD = "tajné&heslo<ôž>"
START = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)
LINE = re.compile(r"^\[(platí|NEPLATÍ|neoverené)\] (\S+) – ")


@pytest.fixture
def sim() -> Simulator:
    simulator = Simulator({USER: PASSWORD}, clock=lambda: START + timedelta(hours=2),
                          page_size=5)
    simulator.add_games(generate_round(16, START, seed=5))  # 8 games: 2 archive pages
    return simulator


@pytest.fixture
def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
          ) -> Callable[..., tuple[int, str, str]]:
    monkeypatch.delenv("HERNA_USER", raising=False)
    monkeypatch.delenv("HERNA_PASSWORD", raising=False)
    monkeypatch.chdir(tmp_path)

    def run(url: str, password: str = PASSWORD) -> tuple[int, str, str]:
        config = tmp_path / "config.toml"
        config.write_text(f'[herna]\nbase_url = "{url}"\nuser = "{USER}"\n'
                          f"password = '{password}'\nretries = 0\nper_second = 0\n",
                          encoding="utf-8")
        code = main(["herna", "check", "--config", str(config)])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _lines(out: str) -> dict[str, set[str]]:
    """Status -> the names reported with it."""
    found: dict[str, set[str]] = {}
    for line in out.splitlines():
        if match := LINE.match(line):
            found.setdefault(match[1], set()).add(match[2])
    return found


def test_the_simulator_meets_every_expectation(sim, check, tmp_path):
    with ThreadedSimulator(sim) as url:
        code, out, err = check(url)
    assert (code, err) == (0, "")
    lines = _lines(out)
    assert "NEPLATÍ" not in lines
    assert {e.name for e in layout.EXPECTATIONS} - lines["platí"] == {"HISTORY_EMPTY"}
    assert lines["neoverené"] == {"HISTORY_EMPTY"}  # the archive is not empty
    assert {"parse_history", "parse_game", "LOGIN_PATH", "HISTORY_PATH"} <= lines["platí"]
    assert "Platí 31 z 32 očakávaní, neplatí 0, neoverené 1." in out
    saved = sorted(p.name for p in (tmp_path / DEFAULT_FOLDER).iterdir())
    assert saved == sorted(FILE_NAMES.values())


@pytest.mark.parametrize(("old", "new", "failing"), [
    ('class="zaciatok"', 'class="cas"', {"HISTORY_STARTED", "parse_history"}),
    ('<td class="id">', '<td class="cislo">', {"HISTORY_ID", "parse_history"}),
    ('<td class="skore">', '<td class="body">', {"PLAYER_SCORE", "parse_game"}),
    ("<th>Koniec</th>", "<th>Skončila</th>", {"INFO_ENDED", "parse_game"}),
    ('name="heslo"', 'name="password"', {"LOGIN_PASSWORD_FIELD"}),
    ("Strana ", "Page ", {"HISTORY_PAGER_TEXT", "parse_history"}),
], ids=["history column", "id column", "player column", "info label", "login field", "pager text"])
def test_a_changed_layout_names_the_expectations_that_fail(sim, check, old, new, failing):
    sim.rewrite(lambda page, _request: page.replace(old, new))
    with ThreadedSimulator(sim) as url:
        code, out, _ = check(url)
    assert code == 1
    lines = _lines(out)
    assert lines["NEPLATÍ"] == failing
    assert "GAME_PATH" in lines["platí"]  # the game record was read all the same
    assert f"({', '.join(sorted(failing, key=out.index))})" in out


def test_a_wrong_password_is_one_line(sim, check, tmp_path):
    with ThreadedSimulator(sim) as url:
        code, out, err = check(url, password="zlé-heslo")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "herna.net odmietla prihlásenie („Nesprávne meno alebo heslo.“). Skontroluj "
        "prihlasovacie meno a heslo v konfigurácii. Prečítaná prihlasovacia stránka je v "
        f"priečinku {DEFAULT_FOLDER}."]
    assert [p.name for p in (tmp_path / DEFAULT_FOLDER).iterdir()] == [FILE_NAMES["login"]]


def test_an_unreachable_host_is_one_line(check):
    with socket.socket() as probe:  # a port just free: nothing listens there
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/"
    code, out, err = check(url)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert err.startswith(f"herna.net na adrese {url} neodpovedá (ConnectError")


def test_missing_credentials_are_one_line(check, tmp_path):
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    assert main(["herna", "check", "--config", str(tmp_path / "empty.toml")]) == 2


def _forms(secret: str) -> set[str]:
    return {secret, html.escape(secret), html.escape(secret, quote=False), quote(secret),
            quote(secret, safe=""), quote_plus(secret)}


def test_no_secret_survives_in_any_saved_byte(sim, check, tmp_path):
    cookies: set[str] = set()
    token = "csrf-Token-7fa3c9"

    def leaky(page: str, request) -> str:
        """A site that shows what it should not: its session id in a link and a script, a
        hidden form token, the password; the user name it shows anyway (the page header)."""
        sid = request.cookies.get(SESSION_COOKIE, "")
        cookies.add(sid)
        leak = (f'<a href="/partie?sid={sid}">x</a><script>var s = "{sid}";</script>'
                f'<form><input value="{token}" type="hidden" name="t"></form>'
                f'<meta name="csrf-token" content="{token}"><!-- {html.escape(PASSWORD)} -->'
                f'<a href="/?u={quote_plus(USER)}&p={quote(PASSWORD)}">{USER.upper()}</a>')
        return page.replace("</body>", f"{leak}</body>")

    sim.rewrite(leaky)
    with ThreadedSimulator(sim) as url:
        code, out, err = check(url)
    assert code == 0, out
    cookies.discard("")
    assert cookies  # the pages read after the login carried the session id
    secrets = {form.casefold() for s in (USER, PASSWORD, token, *cookies) for form in _forms(s)}
    files = list((tmp_path / DEFAULT_FOLDER).iterdir())
    assert len(files) == 3
    for path in files:
        text = path.read_bytes().decode("utf-8").casefold()
        assert "[odstránené]" in text
        assert not [s for s in secrets if s in text], path.name
    assert not [s for s in secrets if s in (out + err).casefold()]


def _revealed(text: str) -> str:
    """What a reader (or a browser) makes of a page: <wbr> and soft hyphens gone, entities,
    JS and URL escapes decoded, NFC; base64 runs decoded and appended."""
    plain = re.sub(r"<wbr\s*/?>|&shy;|\u00ad", "", text)
    plain = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)), plain)
    plain = unicodedata.normalize("NFC", unquote(html.unescape(plain)))
    decoded = []
    for run in re.findall(r"[A-Za-z0-9+/]{8,}={0,2}", text):
        for start in range(4):
            chunk = run[start:]
            chunk = chunk[: len(chunk) // 4 * 4]
            with contextlib.suppress(ValueError):
                decoded.append(base64.b64decode(chunk).decode("utf-8", "ignore"))
    return "\n".join([plain, *decoded]).casefold()


def test_no_written_form_of_a_secret_survives_on_disk_or_terminal(sim, check, tmp_path):
    """Issue 20.7: the site writes the user name, the password and the cookies as HTML
    entities, base64, JS escapes, NFD, split by <wbr>, cut short; a hidden input whose earlier
    attribute holds ">"; a cookie it deletes at login; a Basic auth header; a redirect whose
    Location carries the user name and the password. Nothing of it is saved or printed."""
    cookies: set[str] = set()
    token = "csrf-Token-7fa3c9"
    sim.pre_login_cookie = "herna_visitor"

    def entities(text: str) -> str:
        return "".join(f"&#{ord(c)};" if n % 2 else f"&#x{ord(c):x};" for n, c in
                       enumerate(text))

    def leaky(page: str, request) -> str:
        sid = request.cookies.get(SESSION_COOKIE, "")
        cookies.add(sid)
        visitor = " ".join(sim.pre_login_values)
        basic = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        js = "".join("\\u" + format(ord(c), "04x") for c in PASSWORD)
        leak = (f"<p>{entities(USER)} {entities(PASSWORD)}</p>"
                f"<script>var u = '{js}';"
                f"var b = '{base64.b64encode(PASSWORD.encode()).decode()}';"
                f"var s = '{base64.b64encode(sid.encode()).decode()}';</script>"
                f"<p>{unicodedata.normalize('NFD', PASSWORD)}</p>"
                f"<p>{'<wbr>'.join(PASSWORD)} {'<wbr>'.join(USER)}</p>"
                f"<p title='{PASSWORD[:9]}…'>{html.escape(PASSWORD[:7])}…</p>"
                f'<input data-x="a>b" type="hidden" name="t" value="{token}">'
                f"<pre>Authorization: Basic {basic}</pre><i>{visitor}</i>")
        return page.replace("</body>", f"{leak}</body>")

    sim.rewrite(leaky)
    game_path = layout.GAME_PATH.split("{")[0]
    sim.fail(None, path=game_path, status=302,
             headers={"Location": f"/chyba?u={quote_plus(USER)}&p={quote(PASSWORD)}"})
    with ThreadedSimulator(sim) as url:
        code, out, err = check(url)
    assert code == 1, out  # the game record redirects elsewhere: that finding fails
    assert "redirects to" in out and "[odstránené]" in out  # the Location, scrubbed
    cookies.discard("")
    assert cookies and sim.pre_login_values
    secrets = [USER, PASSWORD, token, *cookies, *sim.pre_login_values]
    for path in (tmp_path / DEFAULT_FOLDER).iterdir():
        text = path.read_bytes().decode("utf-8")
        seen = _revealed(text)
        assert "[odstránené]" in text
        left = [s for s in secrets if s.casefold() in seen or s[:6].casefold() in seen]
        assert not left, (path.name, left)
    shown = _revealed(out + err)
    assert not [s for s in secrets if s.casefold() in shown]


def test_a_failed_login_that_echoes_the_password_prints_it_scrubbed(sim, check):
    wrong = "zlé-heslo-9X7"
    sim.rewrite(lambda page, request: page.replace(
        "Nesprávne meno alebo heslo.", f"Heslo „{wrong}“ pre {USER} nesedí."))
    with ThreadedSimulator(sim) as url:
        code, out, err = check(url, password=wrong)
    assert (code, out) == (2, "")
    assert "nesedí" in err and wrong not in err and USER not in err, err
    assert "[odstránené]" in err
