"""The word-check page served by aiohttp (`stredisko word --serve`): `GET /` shows the form,
`GET /?slovo=WORD` judges WORD and shows the answer, the last `RECENT` checks listed.

It answers whoever can reach it, so it listens on 127.0.0.1 unless told otherwise (the hall's
computer runs the browser itself). The last checks live in memory only: they are what the
people at the table just saw, not a record (the chat's `/slovo` is the audited face).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from aiohttp import web

from bot.hall import tabula
from bot.hall.page import CSP, Answer, render_page
from rules.lexicon import Admissibility, Lexicon, LexiconError, WordVerdict, judge

RECENT = 12
#: the query's parameter name (the form's input)
FIELD = "slovo"


def make_app(lexicon: Lexicon, rules: Admissibility, *, recent: int = RECENT,
             locale: str = "sk") -> web.Application:
    """The page's application over one loaded lexicon under one profile."""
    checks: deque[WordVerdict] = deque(maxlen=recent)

    async def page(request: web.Request) -> web.Response:
        answer = None
        if FIELD in request.query:
            query = request.query[FIELD]
            try:
                verdict = judge(query, lexicon, rules)
            except LexiconError as exc:
                answer = Answer(error=str(exc), query=query)
            else:
                checks.appendleft(verdict)
                answer = Answer(verdict=verdict)
        html = render_page(lexicon, rules, checks, answer, locale)
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Content-Security-Policy": CSP,
                                     "Cache-Control": "no-store"})

    app = web.Application()
    app.router.add_get("/", page)
    return app


def make_board_app(read_state: Callable[[], Awaitable[dict[str, Any]]], *,
                   refresh: int = tabula.REFRESH_S) -> web.Application:
    """The demonstration board (`bot.hall.tabula`): `GET /` the page, `GET /stav.json` the
    same state as JSON; `read_state` reads it from the store at each request."""
    headers = {"Content-Security-Policy": tabula.CSP, "Cache-Control": "no-store"}

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=tabula.render_board(await read_state(), refresh),
                            content_type="text/html", charset="utf-8", headers=headers)

    async def state(request: web.Request) -> web.Response:
        return web.Response(text=json.dumps(await read_state(), ensure_ascii=False),
                            content_type="application/json", charset="utf-8",
                            headers=headers)

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/stav.json", state)
    return app


@asynccontextmanager
async def serve(app: web.Application, host: str, port: int) -> AsyncIterator[str]:
    """Listen on host:port (port 0: a free one) while inside; yields the page's URL."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        bound = runner.addresses[0][1]
        yield f"http://{host}:{bound}/"
    finally:
        await runner.cleanup()
