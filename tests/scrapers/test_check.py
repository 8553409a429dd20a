"""scrub: what `stredisko herna check` saves keeps the page and loses its secrets."""

from __future__ import annotations

import pytest

from scrapers.herna.check import MASK, scrub

M = MASK.encode()


@pytest.mark.parametrize(("page", "secrets", "saved"), [
    (b"<p>Partia 700101</p>", ["sss"], b"<p>Partia 700101</p>"),
    (b'<input type="hidden" name="dalej" value="/partie">', [],
     b'<input type="hidden" name="dalej" value="' + M + b'">'),
    (b"<input name=meno value=Klub>", ["Klub"], b"<input name=meno value=" + M + b">"),
    (b"<a href='/x;jsessionid=A1B2'>", [], b"<a href='/x;jsessionid=" + M + b"'>"),
    (b'<meta name="csrf-token" content="t0k3n">', [],
     b'<meta name="csrf-token" content="' + M + b'">'),
    (b"\xff<b>h&amp;s%26x</b>", ["h&s", "", "x"], b"\xff<b>" + M + b"%26" + M + b"</b>"),
], ids=["untouched", "hidden input", "user name", "session in url", "token meta",
        "not utf-8, escaped forms"])
def test_scrub(page, secrets, saved):
    assert scrub(page, secrets) == saved
