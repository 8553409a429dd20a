"""A small local herna.net (aiohttp.web) serving the pages of `pages.py` from given games.

Games appear at their release time and show as in progress until they end, by a clock the
caller passes (a simulated clock works). Fault hooks: serve slowly, fail with any status (429
with a Retry-After, a redirect to the login form), answer with raw bytes (garbled, truncated or
huge pages), a history pager that never ends, log every session out, rewrite the pages served
(a changed layout). Run it alone with `python -m scrapers.herna.simulator` (invented games);
`stredisko simulator FILE` serves the games of a file (`bot.rehearse.simulate`).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

from aiohttp import web

import scrapers.herna.layout as layout
import scrapers.herna.pages as pages
from scrapers.herna.generate import generate_round
from scrapers.herna.records import GameRecord

SESSION_COOKIE = "herna_sid"
Clock = Callable[[], datetime]
Rewrite = Callable[[str, web.Request], str]


def _system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class _Listed:
    record: GameRecord
    release_at: datetime
    finish_at: datetime | None


@dataclass(slots=True)
class _Fault:
    path: str  # a path prefix; "" = every path
    times: int | None  # None = until cleared
    status: int = 500
    delay: float = 0.0
    headers: Mapping[str, str] | None = None
    body: bytes | None = None  # raw bytes in place of the page (status 200)
    gate: asyncio.Event | None = None  # answer only once it is set (a test's own moment)

    def applies(self, path: str) -> bool:
        return path.startswith(self.path) and (self.times is None or self.times > 0)


class Simulator:
    """The site's state: accounts, sessions, games, faults, and a log of requests served."""

    def __init__(
        self,
        users: Mapping[str, str] | None = None,
        *,
        clock: Clock = _system_clock,
        page_size: int = 20,
    ) -> None:
        self.users = dict(users if users is not None else {"sss": "heslo"})
        self.clock = clock
        self.page_size = page_size
        self.requests: list[str] = []  # "GET /partie?strana=2", in order served
        self.logins = 0
        self._sessions: dict[str, str] = {}
        self._games: dict[str, _Listed] = {}
        self._faults: list[_Fault] = []
        self.endless: int | None = None  # the history claims this many pages, each with a next
        self._rewrites: list[tuple[str, Rewrite]] = []
        #: a cookie the login form sets and the login deletes (None: none), and its values
        self.pre_login_cookie: str | None = None
        self.pre_login_values: list[str] = []

    # --- the games ---------------------------------------------------------------------------
    def add_game(
        self,
        record: GameRecord,
        *,
        release_at: datetime | None = None,
        finish_at: datetime | None = None,
    ) -> None:
        """Publish `record` from `release_at` (default: its start); until `finish_at` (default:
        its end) it shows as a game in progress. Adding an id again replaces the game."""
        self._games[record.game_id] = _Listed(
            record, release_at or record.started, finish_at or record.ended
        )

    def add_games(self, records: Iterable[GameRecord]) -> None:
        for record in records:
            self.add_game(record)

    def visible(self, now: datetime | None = None) -> list[GameRecord]:
        """The games as the site shows them at `now`, newest start first."""
        now = self.clock() if now is None else now
        shown = [
            pages.in_progress(g.record, now) if g.finish_at and now < g.finish_at else g.record
            for g in self._games.values()
            if g.release_at <= now
        ]
        return sorted(shown, key=lambda r: (r.started, int(r.game_id)), reverse=True)

    # --- faults ------------------------------------------------------------------------------
    def fail(
        self, times: int | None = 1, *, path: str = "", status: int = 500,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Answer the next `times` requests under `path` with `status` (None: until cleared),
        with `headers` (a Retry-After, the Location of a redirect)."""
        self._faults.append(_Fault(path, times, status=status, headers=headers))

    def garble(self, body: bytes, times: int | None = None, *, path: str = "") -> None:
        """Answer the requests under `path` with `body` as a 200 HTML page."""
        self._faults.append(_Fault(path, times, status=0, body=body))

    def endless_history(self, pages: int = 99_999) -> None:
        """Every history page says "page n of `pages`" and links the next one, showing the same
        recent games: a pager that never ends (until `clear_faults`)."""
        self.endless = pages

    def slow(self, seconds: float, *, path: str = "", times: int | None = None) -> None:
        """Delay the answers under `path` by `seconds`."""
        self._faults.append(_Fault(path, times, status=0, delay=seconds))

    def hold(self, *, path: str = "", times: int | None = None) -> asyncio.Event:
        """Hold the answers under `path` until the returned event is set: a page "in flight"
        for exactly as long as a test needs, whatever the machine's speed."""
        gate = asyncio.Event()
        self._faults.append(_Fault(path, times, status=0, gate=gate))
        return gate

    def rewrite(self, edit: Rewrite, *, path: str = "") -> None:
        """Pass every page served under `path` through `edit(html, request)`: a site whose
        layout changed (a renamed class), or one that shows what it should not (a token)."""
        self._rewrites.append((path, edit))

    def clear_faults(self) -> None:
        self._faults.clear()
        self._rewrites.clear()
        self.endless = None

    def logout_all(self) -> None:
        """Invalidate every session cookie, as a server restart would."""
        self._sessions.clear()

    # --- the web application -----------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get(layout.LOGIN_PATH, self._login_form)
        app.router.add_post(layout.LOGIN_PATH, self._login)
        app.router.add_get(layout.LOGOUT_PATH, self._logout)
        app.router.add_get(layout.HOME_PATH, self._home)
        app.router.add_get(layout.HISTORY_PATH, self._history)
        app.router.add_get(layout.GAME_PATH, self._game)
        return app

    @asynccontextmanager
    async def serve(self, host: str = "127.0.0.1", port: int = 0) -> AsyncIterator[str]:
        """Run on `host` (a free port by default); yields the base URL."""
        runner = web.AppRunner(self.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        try:
            bound = runner.addresses[0][1]
            yield f"http://{host}:{bound}/"
        finally:
            await runner.cleanup()

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        self.requests.append(f"{request.method} {request.path_qs}")
        for fault in [f for f in self._faults if f.applies(request.path)]:
            if fault.times is not None:
                fault.times -= 1
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.gate is not None:
                await fault.gate.wait()
            if fault.body is not None:
                return web.Response(body=fault.body, content_type="text/html")
            if fault.status:
                return web.Response(status=fault.status, text="Interná chyba servera",
                                    headers=fault.headers)
        response = await handler(request)
        for path, edit in self._rewrites:
            if request.path.startswith(path) and isinstance(response, web.Response):
                response.text = edit(response.text or "", request)
        return response

    def _user(self, request: web.Request) -> str:
        user = self._sessions.get(request.cookies.get(SESSION_COOKIE, ""))
        if user is None:
            raise web.HTTPFound(f"{layout.LOGIN_PATH}?{urlencode({'dalej': request.path_qs})}")
        return user

    async def _login_form(self, request: web.Request) -> web.Response:
        response = _html(pages.login_page(next_url=request.query.get("dalej", "")))
        if self.pre_login_cookie:  # a visitor's cookie, deleted again at login
            token = secrets.token_urlsafe(12)
            self.pre_login_values.append(token)
            response.set_cookie(self.pre_login_cookie, token)
        return response

    async def _login(self, request: web.Request) -> web.Response:
        form = await request.post()
        user = str(form.get(layout.LOGIN_USER_FIELD, ""))
        password = str(form.get(layout.LOGIN_PASSWORD_FIELD, ""))
        if not user or not secrets.compare_digest(
            self.users.get(user, "\0").encode(), password.encode()
        ):
            return _html(pages.login_page("Nesprávne meno alebo heslo."))
        token = secrets.token_urlsafe(16)
        self._sessions[token] = user
        self.logins += 1
        target = str(form.get("dalej", "")) or layout.HOME_PATH
        response = web.HTTPSeeOther(target if target.startswith("/") else layout.HOME_PATH)
        response.set_cookie(SESSION_COOKIE, token, httponly=True)
        if self.pre_login_cookie:
            response.del_cookie(self.pre_login_cookie)
        raise response

    async def _logout(self, request: web.Request) -> web.Response:
        self._sessions.pop(request.cookies.get(SESSION_COOKIE, ""), None)
        raise web.HTTPFound(layout.LOGIN_PATH)

    async def _home(self, request: web.Request) -> web.Response:
        return _html(pages.home_page(self._user(request)))

    async def _history(self, request: web.Request) -> web.Response:
        user = self._user(request)
        nick = request.query.get(layout.HISTORY_NICK_PARAM) or None
        try:
            page = int(request.query.get(layout.HISTORY_PAGE_PARAM, "1"))
        except ValueError:
            page = 1
        games = [g for g in self.visible() if nick is None or nick in g.nicks]
        count = max(1, -(-len(games) // self.page_size))
        if self.endless is not None:
            return _html(pages.history_page(games[: self.page_size], page, self.endless, nick,
                                            user))
        page = min(max(page, 1), count)
        shown = games[(page - 1) * self.page_size : page * self.page_size]
        return _html(pages.history_page(shown, page, count, nick, user))

    async def _game(self, request: web.Request) -> web.Response:
        user = self._user(request)
        game_id = request.match_info["game_id"]
        for record in self.visible():
            if record.game_id == game_id:
                return _html(pages.game_page(record, user))
        raise web.HTTPNotFound(text="Partia neexistuje.")


def _html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html", charset=layout.ENCODING)


@dataclass(frozen=True, slots=True)
class _Served:
    games: list[tuple[GameRecord, datetime, datetime | None]]  # record, release, finish
    source: str  # what the games are, for the start line


def _generated(players: int) -> _Served:
    start = datetime.now(UTC).replace(microsecond=0)
    games = [*generate_round(players, start - _minutes(90), seed=1),
             *generate_round(players, start - _minutes(45), seed=2, first_id=800_000)]
    return _Served([(g, g.started, g.ended) for g in games], "vymyslené partie okolo teraz")


async def _main(port: int, user: str, password: str, served: _Served,
                clock: datetime | None) -> None:
    offset = clock - datetime.now(UTC) if clock is not None else timedelta(0)
    sim = Simulator({user: password}, clock=lambda: datetime.now(UTC) + offset)
    for record, release_at, finish_at in served.games:
        sim.add_game(record, release_at=release_at, finish_at=finish_at)
    async with sim.serve(port=port) as url:
        print(url, flush=True)
        print(f"herna.net simulátor na {url} – prihlasovacie meno: {user}, heslo: {password}",
              flush=True)
        now = layout.page_time(sim.clock())
        print(f"{served.source}: {len(served.games)}, teraz viditeľné: {len(sim.visible())} "
              f"(simulovaný čas {now}; Ctrl-C ukončí)", flush=True)
        await asyncio.Event().wait()


def _minutes(n: int) -> timedelta:
    return timedelta(minutes=n)


def local_time(text: str) -> datetime:
    """argparse type: "RRRR-MM-DD HH:MM" in Bratislava time, as UTC."""
    try:
        naive = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        raise argparse.ArgumentTypeError(f"„{text}“ nie je čas v tvare RRRR-MM-DD HH:MM") from None
    return naive.replace(tzinfo=layout.TIMEZONE).astimezone(UTC)


class _SlovakUsage(argparse.HelpFormatter):
    """The help's "usage:" in Slovak (argparse translates only through gettext)."""

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[argparse._MutuallyExclusiveGroup],
                  prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, "použitie: " if prefix is None else prefix)


def main(argv: list[str] | None = None) -> int:
    """Invented games around now; games from a file are served by `stredisko simulator` (the
    bot's side knows tournaments and their files, this module only herna.net)."""
    parser = argparse.ArgumentParser(
        description="Lokálny simulátor herna.net s vymyslenými partiami (Ctrl-C ukončí). "
                    "Partie zo súboru: stredisko simulator PARTIE.", add_help=False,
        prog="python -m scrapers.herna.simulator", formatter_class=_SlovakUsage)
    parser._positionals.title, parser._optionals.title = "argumenty", "voľby"
    parser.add_argument("-h", "--help", action="help", help="zobraziť túto pomoc a skončiť")
    parser.add_argument("--port", type=int, default=0, help="port (0 = voľný)")
    parser.add_argument("--players", type=int, default=8, metavar="POČET",
                        help="hráčov v kole vymyslených partií")
    parser.add_argument("--clock", metavar='"RRRR-MM-DD HH:MM"', type=local_time,
                        help="simulovaný čas pri štarte (čas Bratislavy), ďalej plynie; "
                             "predvolene skutočný")
    parser.add_argument("--user", default="sss", metavar="MENO", help="prihlasovacie meno")
    parser.add_argument("--password", default="heslo", metavar="HESLO", help="heslo")
    args = parser.parse_args(argv)
    with suppress(KeyboardInterrupt):
        asyncio.run(_main(args.port, args.user, args.password, _generated(args.players),
                          args.clock))
    return 0


if __name__ == "__main__":
    sys.exit(main())
