"""A hall game driven through the arbiter's desk with the board open in Chromium (issue 41, done
when): the real `stredisko duplicate pult` and `stredisko duplicate tabula` processes on one
SQLite file, the desk fed line by line as an arbiter types them — racks, slips with mistakes
and corrections, a double-entry mismatch, the countdown — and at each phase the board's JSON
and a screenshot: the rack with its values, the countdown, the warning's mark, the top hidden
after a part's last round (003 r. 22), the part's standings (r. 24), the final words (r. 26);
the rack's letters measured readable at 1920×1080, 1280×720 and 1024×768.

The limit is 14 s with the warning at 6 s (the propozície allow 10 s and more) so the whole
clock runs inside the test; the profile's 3:00 and 30 s are the same code with other numbers.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.bot.cli.test_duplicate_hall import write_hall as hall_file

from ..chromium import Browser, screenshots_dir

ROOT = Path(__file__).resolve().parents[3]
STREDISKO = str(ROOT / ".venv" / "bin" / "stredisko")
SEED = "3f" * 32
RACK_FONT = """(() => {
  const tiles = [...document.querySelectorAll('.rtile')];
  const root = document.documentElement;
  return {H: innerHeight, scroll: [root.scrollWidth, root.scrollHeight],
          sizes: tiles.map(t => parseFloat(getComputedStyle(t).fontSize)),
          right: Math.max(...tiles.map(t => t.getBoundingClientRect().right)), W: innerWidth,
          text: document.body.innerText};
})()"""


def write_hall(folder: Path) -> Path:
    """test_duplicate_hall's hall (ČAS, two parts of which the first is one round) with
    Slovak and Czech letters in the players' names and a 14 s limit warned at 6 s."""
    prop = hall_file(folder) / "propozicie.toml"
    text = prop.read_text(encoding="utf-8")
    for was, now in (("Ján Novák", "Ľubo Ôsmy"), ("Eva Malá", "Řehoř Ůlehla"),
                     ("Peter Veľký", "Ěva Äbelová"),
                     ("rounds_per_part = 1\n",
                      "rounds_per_part = 1\nmove_seconds = 14\nwarning_seconds = 6\n")):
        text = text.replace(was, now)
    prop.write_text(text, encoding="utf-8")
    return prop


def reader(stream: Any, into: queue.Queue[str]) -> None:
    for line in iter(stream.readline, ""):
        into.put(line.rstrip("\n"))


class DeskProcess:
    """The desk as a subprocess: a line in, its answer (stdout or stderr) awaited."""

    def __init__(self, db: Path, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [STREDISKO, "--db", str(db), "duplicate", "pult", "sala", "--dvojite",
             "--admin", "Hana"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", cwd=cwd,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.out: queue.Queue[str] = queue.Queue()
        self.err: queue.Queue[str] = queue.Queue()
        for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=reader, args=(stream, into), daemon=True).start()

    def type(self, line: str, *, says: str | None = None, refused: str | None = None,
             timeout: float = 20) -> list[str]:
        """Type `line`; wait for a stdout line holding `says` or a stderr line holding
        `refused`; the lines seen meanwhile."""
        assert self.proc.stdin is not None
        for left in (self.out, self.err):  # what the lines before said: not this one's answer
            while not left.empty():
                left.get()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        seen: list[str] = []
        end = time.monotonic() + timeout
        source, want = (self.err, refused) if refused is not None else (self.out, says)
        while time.monotonic() < end:
            try:
                got = source.get(timeout=0.2)
            except queue.Empty:
                continue
            seen.append(got)
            if want is None or want in got:
                return seen
        raise AssertionError(f"{line!r}: no {want!r} in {seen}")

    def close(self) -> tuple[int, str]:
        assert self.proc.stdin is not None
        self.proc.stdin.write("koniec\n")
        self.proc.stdin.close()
        code = self.proc.wait(30)
        time.sleep(0.2)
        rest = []
        while not self.out.empty():
            rest.append(self.out.get())
        return code, "\n".join(rest)


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[tuple[DeskProcess, str]]:
    prop = write_hall(tmp_path)
    db = tmp_path / "sala.db"
    made = subprocess.run([STREDISKO, "--db", str(db), "create", str(prop)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    board = subprocess.Popen([STREDISKO, "--db", str(db), "duplicate", "tabula", "sala",
                              "--port", "0"], stdout=subprocess.PIPE, text=True,
                             encoding="utf-8", cwd=tmp_path)
    assert board.stdout is not None
    first = board.stdout.readline()
    url = re.search(r"http://127\.0\.0\.1:\d+/", first)
    assert url, first
    desk = DeskProcess(db, tmp_path)
    try:
        yield desk, url.group(0)
    finally:
        if desk.proc.poll() is None:
            desk.proc.kill()
        board.terminate()
        board.wait(10)


def until(url: str, check: Callable[[dict[str, Any]], bool], timeout: float = 2
          ) -> dict[str, Any]:
    """The board's JSON once `check` holds (the board follows within its second)."""
    end = time.monotonic() + timeout
    state: dict[str, Any] = {}
    while time.monotonic() < end:
        state = httpx.get(url + "stav.json", timeout=5).json()
        if check(state):
            return state
        time.sleep(0.1)
    raise AssertionError(f"the board never showed it: {state}")


def shot(chromium: Browser, url: str, name: str, window: tuple[int, int] = (1920, 1080)
         ) -> dict[str, Any]:
    measured = chromium.screenshot(url, screenshots_dir() / f"tabula-zivo-{name}.png", window,
                                   RACK_FONT)
    assert measured["scroll"] == list(window)
    return measured


def test_a_hall_game_through_the_desk_on_the_board(
        hall: tuple[DeskProcess, str], chromium: Browser) -> None:
    desk, url = hall
    assert until(url, lambda s: s["phase"] == "losovanie")["game"] is None
    page = httpx.get(url, timeout=5)  # it follows the store within a second, with no script
    assert '<meta http-equiv="refresh" content="1">' in page.text and "<script" not in page.text

    desk.type(f"start --seed {SEED}", says="partia sa začala")
    desk.type("rack AEKLOST", says="kolo otvorené")
    state = until(url, lambda s: s["phase"] == "hra")
    assert state["rack"] == [{"letter": ch, "value": 1} for ch in "AEKLOST"]
    assert state["clock"] == "bezi" and 8 <= state["seconds_left"] <= 14
    assert (state["part"], state["round"]) == (1, 1)
    for window in ((1920, 1080), (1280, 720), (1024, 768)):  # readable at every size
        measured = shot(chromium, url, f"hra-{window[0]}", window)
        assert len(measured["sizes"]) == 7 and measured["right"] <= measured["W"]
        if window == (1920, 1080):
            assert min(measured["sizes"]) >= 0.08 * 1080
        assert "HRA" in measured["text"] and "Ľubo" not in measured["text"]

    # the arbiter's mistakes: lower case refused, the rack corrected, a double-entry mismatch
    desk.type("1 8H KOSA 7", says="Lístok prijatý")
    desk.type("2 8H kosa 7", refused="malými písmenami")
    fixed = desk.type('rack AEKLOSV --oprava --reason "preklep: V, nie T"',
                      says="Zásobník 1. kola opravený")
    assert any("AEKLOST → AEKLOSV" in line for line in fixed)
    state = until(url, lambda s: [r["letter"] for r in s["rack"]] == list("AEKLOSV"))
    assert state["clock"] == "bezi"  # the limit started again with the right letters
    desk.type("2 H8 KOSA 7", says="Lístok prijatý")
    desk.type("1 8H KOSA 8", says="druhé zapísanie „8H KOSA 8“ sa líši")
    desk.type("close", refused="zápisy lístkov sa líšia (1): Ľubo Ôsmy: 8H KOSA 7 ≠ 8H KOSA 8")
    desk.type("1 8H KOSA 7", says="✓ Ľubo Ôsmy: druhé zapísanie súhlasí")

    # the countdown: the warning's mark, then the end — words and shape on the page
    state = until(url, lambda s: s["clock"] == "posledne", timeout=15)
    assert 0 < state["seconds_left"] <= 6
    measured = shot(chromium, url, "posledne")
    assert "▲ POSLEDNÝCH 6 SEKÚND" in measured["text"]
    state = until(url, lambda s: s["clock"] == "koniec", timeout=15)
    assert state["phase"] == "listky_hore" and state["seconds_left"] == 0
    assert "■ KONIEC — LÍSTKY HORE" in shot(chromium, url, "koniec")["text"]

    # the close of a part's last round: its top withheld (r. 22), the part's standings (r. 24)
    desk.type("close", says="1. kolo uzavreté")
    state = until(url, lambda s: s["phase"] == "vyhodnotenie")
    assert state["last_top"] is None and state["top_withheld"]["round"] == 1
    assert state["standings_after_part"] == 1 and len(state["standings"]) == 3
    assert state["board"] == ["." * 15] * 15  # the top's tiles are not shown either
    text = shot(chromium, url, "po-casti")["text"]
    assert "Poradie po 1. časti (003 r. 24)" in text and "sa ukáže na začiatku ďalšej časti" \
        in text

    # the next part starts: the withheld top is shown, marked on the board
    desk.type("draw", says="kolo otvorené")
    state = until(url, lambda s: s["round"] == 2)
    assert state["part"] == 2 and state["last_top"]["round"] == 1 and state["highlight"]
    assert state["standings"] == []
    top = state["last_top"]
    assert f"{top['coord']} {top['word']}" in shot(chromium, url, "2-kolo")["text"]

    # play to the end: preliminary results and the round-by-round words (r. 25–26)
    desk.type("close", says="2. kolo uzavreté")
    for _ in range(40):
        now = httpx.get(url + "stav.json", timeout=5).json()
        if now["phase"] == "predbezne_vysledky":
            break
        number = now["round"]
        desk.type("draw", says="partia")
        now = until(url, lambda s, n=number: s["phase"] == "predbezne_vysledky"
                    or (s["round"] == n + 1 and s["phase"] == "hra"))
        if now["phase"] == "predbezne_vysledky":
            break
        desk.type("close", says="uzavreté")
    state = until(url, lambda s: s["phase"] == "predbezne_vysledky")
    assert state["results"] == "predbezne" and len(state["standings"]) == 3
    assert {"round": 1, "word": "KOSA", "approved": True} in state["words"]
    text = shot(chromium, url, "koniec-partie")["text"]
    assert "PREDBEŽNÉ VÝSLEDKY" in text and "Slová kôl (003 r. 26)" in text
    assert "1. KOSA ✓ schválené" in text.replace("\n", " ").replace("\t", " ")

    code, rest = desk.close()
    assert code == 0 and "Stôl rozhodcu ukončený (odmietnuté riadky: 3)" in rest
