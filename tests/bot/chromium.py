"""Headless Chromium for the tests of pages people look at (the results page, the hall's
word-check page): find or install the browser, run it, read the PNG screenshots it writes.

One browser per test session (per pytest-xdist worker: the `chromium` fixture) serves every
page, over the DevTools protocol on a pipe: a `chromium` process per page cost ~1–1.5 s of
start-up each (issue 21.3). Each page still gets a fresh profile of its own (a new browser
context: no cache, cookie or storage shared with another test).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
from PIL import Image, ImageChops

from .apt import ensure_packages

ROOT = Path(__file__).parents[2]


def ensure_chromium() -> str:
    """The path of a `chromium` binary, installing the Debian package when it is missing
    (skips only when no package source can be reached; tests/bot/apt.py)."""
    return ensure_packages(
        lambda: shutil.which("chromium") or shutil.which("chromium-browser"), ["chromium"],
        "chromium")


def browser_flags(profile: Path) -> list[str]:
    """Flags for a quiet, offline headless run with a throw-away profile folder."""
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
    ]


#: what `--dump-dom` printed: the doctype, a newline, the document's HTML
DUMP = (
    "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n'"
    " : '') + document.documentElement.outerHTML"
)


class Browser:
    """A headless Chromium driven over `--remote-debugging-pipe`: it reads the DevTools
    protocol's commands on its fd 3 and writes the answers and events on its fd 4, each a JSON
    message ended by a NUL byte.

    `dump_dom` and `screenshot` do what `chromium --dump-dom URL` and `chromium --screenshot
    --window-size=W,H URL` did: load the page in a fresh context, wait for its load event (its
    frames' load events and scripts run before), then read it."""

    #: the longest one page may take (the old one-process path's timeout)
    TIMEOUT_S = 120

    def __init__(self, binary: str, profile: Path) -> None:
        commands, self._to = os.pipe()
        self._from, answers = os.pipe()
        # The child needs them as fds 3 and 4; subprocess only passes fds under their own
        # numbers, and preexec_fn is unsafe in a threaded process (xdist's worker): bash moves
        # them (dash reads one digit of an fd, and these are >= 10 to move nothing else).
        moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (commands, answers)]
        os.close(commands)
        os.close(answers)
        script = f'exec "$@" 3<&{moved[0]} 4>&{moved[1]} {moved[0]}<&- {moved[1]}>&-'
        self._stderr = profile.with_name(profile.name + "-stderr.txt")
        with self._stderr.open("wb") as stderr:
            self._process = subprocess.Popen(
                [
                    "bash",
                    "-c",
                    script,
                    "bash",
                    binary,
                    *browser_flags(profile),
                    "--remote-debugging-pipe",
                ],
                pass_fds=moved,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )  # its own group: see close()
        for fd in moved:
            os.close(fd)
        self._buffer = b""
        self._last_id = 0
        self._loads: list[dict[str, Any]] = []  # lifecycle "load" events not yet waited for
        self.send("Browser.getVersion")  # up and answering, or an error with its stderr

    def _fail(self, why: str) -> NoReturn:
        tail = self._stderr.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise AssertionError(f"headless Chromium: {why}\n{tail}")

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from], [], [], left)[0]:
                self._fail("no answer in time")
            chunk = os.read(self._from, 1 << 20)
            if not chunk:
                self._fail(f"it ended (exit status {self._process.wait(10)})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _keep(self, message: dict[str, Any]) -> None:
        # the only events waited for; the rest (console, network, …) are dropped
        if message.get("method") == "Page.lifecycleEvent" and message["params"]["name"] == "load":
            self._loads.append(message["params"])

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Run one command (in a page's session, or the browser's) and return its result."""
        self._last_id += 1
        command: dict[str, Any] = {"id": self._last_id, "method": method, "params": params}
        if session is not None:
            command["sessionId"] = session
        data = json.dumps(command).encode() + b"\0"
        while data:
            data = data[os.write(self._to, data) :]
        deadline = time.monotonic() + self.TIMEOUT_S
        while True:
            message = self._message(deadline)
            if message.get("id") == self._last_id:
                if "error" in message:
                    self._fail(f"{method}: {message['error']}")
                return message["result"]
            self._keep(message)

    @contextlib.contextmanager
    def _page(self, url: str, window: tuple[int, int] | None = None) -> Iterator[str]:
        """A tab in a new context (a fresh profile), `window` wide and high (the browser's
        default window without), with `url` loaded; yields its session."""
        context = self.send("Target.createBrowserContext")["browserContextId"]
        try:
            tab = self.send("Target.createTarget", url="about:blank", browserContextId=context)
            session = self.send("Target.attachToTarget", targetId=tab["targetId"], flatten=True)[
                "sessionId"
            ]
            # `--window-size` as the viewport (a new window's size would count its frame); the
            # scale factor left as the browser has it (1: `browser_flags` force none)
            if window:
                self.send(
                    "Emulation.setDeviceMetricsOverride",
                    session,
                    width=window[0],
                    height=window[1],
                    deviceScaleFactor=0,
                    mobile=False,
                )
            self.send("Page.enable", session)
            self.send("Page.setLifecycleEventsEnabled", session, enabled=True)
            opened = self.send("Page.navigate", session, url=url)
            if "errorText" in opened:
                self._fail(f"{url}: {opened['errorText']}")
            self._wait_load(opened["frameId"], opened["loaderId"])
            yield session
        finally:
            self.send("Target.disposeBrowserContext", browserContextId=context)

    def _wait_load(self, frame: str, loader: str) -> None:
        """Until the main frame's load event of this navigation (not about:blank's)."""
        deadline = time.monotonic() + self.TIMEOUT_S
        while not any(e["frameId"] == frame and e["loaderId"] == loader for e in self._loads):
            self._keep(self._message(deadline))
        self._loads.clear()  # the others were of earlier pages or of about:blank

    def dump_dom(self, url: str) -> str:
        """The page's DOM as HTML after it loaded (what `--dump-dom` printed)."""
        with self._page(url) as session:
            done = self.send("Runtime.evaluate", session, returnByValue=True, expression=DUMP)
        return done["result"]["value"]

    def screenshot(self, url: str, path: Path, window: tuple[int, int],
                   measure: str = "") -> Any:
        """A PNG of the page's first `window` (width, height) pixels, written to `path`;
        with `measure`, that JavaScript expression's value (JSON) in the same page."""
        with self._page(url, window) as session:
            shot = self.send("Page.captureScreenshot", session, format="png")
            value = (self.send("Runtime.evaluate", session, returnByValue=True,
                               expression=measure)["result"].get("value") if measure else None)
        path.write_bytes(base64.b64decode(shot["data"]))
        return value

    def close(self) -> None:
        """Ask it to end; killed (its whole process group) if it does not within 10 s."""
        with contextlib.suppress(AssertionError, OSError):
            self.send("Browser.close")
        try:
            self._process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait(10)
        finally:
            os.close(self._to)
            os.close(self._from)


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """The session's (the xdist worker's) headless Chromium, started at its first use."""
    browser = Browser(ensure_chromium(), tmp_path_factory.mktemp("chromium") / "profile")
    yield browser
    browser.close()


def screenshots_dir() -> Path:
    """Where the screenshots go: $STREDISKO_SCREENSHOTS or build/screenshots (git ignores
    build/); kept after the run for a person to look at."""
    folder = Path(os.environ.get("STREDISKO_SCREENSHOTS") or ROOT / "build" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def ink_of(shot: Path, size: tuple[int, int]) -> tuple[float, int, list[bytes]]:
    """How much of a screenshot is dark (a pixel whose darkest channel is below 200), how many
    shades it has, and its RGB pixels (an alpha channel is left out)."""
    with Image.open(shot) as image:
        assert image.format == "PNG", "not a PNG"
        assert image.mode in ("RGB", "RGBA"), f"unexpected PNG mode {image.mode}"
        assert image.size == size
        rgb = image.convert("RGB")  # from RGBA: the alpha is dropped, not composited
    darkest = ImageChops.darker(ImageChops.darker(*rgb.split()[:2]), rgb.split()[2])
    total = size[0] * size[1]
    ink = sum(darkest.histogram()[:200]) / total
    shades = len(rgb.getcolors(total) or ())
    data = rgb.tobytes()
    return ink, shades, [data[i : i + 3] for i in range(0, len(data), 3)]
