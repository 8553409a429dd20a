"""scrub: what `stredisko herna check` saves keeps the page and loses its secrets."""

from __future__ import annotations

import base64

import pytest

from scrapers.herna.check import MASK, scrub, scrub_text

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


@pytest.mark.parametrize(("page", "secret"), [
    ("<p>&#104;&#x65;&#115;l&#111;-TAJNE</p>", "heslo-tajne"),  # entities, any case
    ("<p>he<wbr>sl<wbr/>o-tajne</p>", "heslo-tajne"),
    ("<p>Ja\u0301n-heslo</p>", "Ján-heslo"),  # NFD on the page, NFC in the config
    ("<script>'\\u0068\\u0065\\x73lo-tajne'</script>", "heslo-tajne"),
    ("<p>heslo-ta…</p>", "heslo-tajne"),  # cut short
    ("<i>aGVzbG8tdGFqbmU=</i>", "heslo-tajne"),  # base64
    ("<i>Basic a2x1YjpoZXNsby10YWpuZQ==</i>", "heslo-tajne"),  # base64 of "klub:heslo-tajne"
], ids=["entities", "wbr", "nfd", "js-escapes", "truncated", "base64", "basic-auth"])
def test_every_written_form_of_a_secret_is_scrubbed(page: str, secret: str) -> None:
    saved = scrub_text(page, ["klub", secret])
    assert MASK in saved
    assert "tajne" not in saved.lower() and "heslo" not in saved.lower(), saved


@pytest.mark.parametrize("password", ["heslo-tajne", "heslo-tajne1", "heslo-tajne12",
                                      "Tajné+heslo/x"])
@pytest.mark.parametrize("user", ["", "klub", "klub1", "klub12"])
def test_a_base64_password_leaves_no_tail(user: str, password: str) -> None:
    """Issue 36.6: the last group of an encoded password (`bmU=`) stayed after the mask. Alone
    or as a Basic header's "user:password", at every alignment, padded or not, base64url too:
    the whole encoded value is masked."""
    plain = f"{user}:{password}" if user else password
    encoded = base64.b64encode(plain.encode()).decode()
    for form in (encoded, encoded.rstrip("="),
                 base64.urlsafe_b64encode(plain.encode()).decode().rstrip("=")):
        saved = scrub_text(f"<i>{form}</i>", [user or "klub", password])
        assert saved == f"<i>{MASK}</i>", (form, saved)


def test_a_hidden_value_after_an_attribute_holding_a_bracket_is_scrubbed() -> None:
    page = '<input data-x="a>b" type="hidden" name="t" value="tok-12345678"><p>tok-12345678</p>'
    saved = scrub_text(page, [])
    assert "tok-12345678" not in saved and saved.count(MASK) == 2


def test_short_user_names_are_not_cut_short() -> None:
    """A 3-letter user name is masked whole only: "ss" of "sss" in other words stays."""
    assert scrub_text("<p>sss class assist</p>", ["sss"]) == f"<p>{MASK} class assist</p>"
