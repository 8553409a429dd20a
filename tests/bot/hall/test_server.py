"""The hall page over real HTTP (issue 22 item 5): the form, the green/red answer with its
source, rule and lexicon id, the last checks newest first, a query that is no word said in one
sentence and kept in the input, everything a person typed escaped, no script, no external
asset."""

from __future__ import annotations

import httpx
from bs4 import BeautifulSoup

from bot.hall.server import RECENT

from .conftest import small_lexicon


def get(base: str, word: str | None = None) -> tuple[httpx.Response, BeautifulSoup]:
    params = {} if word is None else {"slovo": word}
    response = httpx.get(base + "/", params=params, timeout=10)
    assert response.status_code == 200
    return response, BeautifulSoup(response.text, "lxml")


def test_the_empty_page_is_a_form_without_scripts_or_outside_assets(hall: str) -> None:
    response, soup = get(hall)
    assert "script-src" not in response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert soup.html["lang"] == "sk" and soup.h1.get_text() == "Overenie slova"
    field = soup.find("input", attrs={"name": "slovo"})
    assert field is not None and field.has_attr("autofocus")
    assert soup.form["method"] == "get" and soup.form["action"] == "/"
    assert soup.find("script") is None
    assert not [tag for tag in soup.find_all(src=True)]
    assert not [a for a in soup.find_all(href=True)]
    assert soup.find("section", class_="answer") is None
    assert "Zatiaľ nič neoverené." in soup.get_text()
    assert small_lexicon().id in soup.footer.get_text()


def test_a_valid_and_an_invalid_word(hall: str) -> None:
    _, soup = get(hall, "Úž")
    box = soup.find("section", class_="answer")
    assert box["class"] == ["answer", "valid"]
    assert box.find(class_="headline").get_text() == "PLATNÉ: úž"
    details = box.find(class_="details").get_text()
    assert "zdroj: B2 (zoznam platných 2-písmenových slov)" in details
    assert "pravidlo: SP B1 10.1 bod 3" in details and small_lexicon().id in details

    _, soup = get(hall, "stolíkom")
    box = soup.find("section", class_="answer")
    assert box["class"] == ["answer", "invalid"]
    assert box.find(class_="headline").get_text() == "NEPLATNÉ: stolíkom"


def test_the_last_checks_newest_first_and_bounded(hall: str) -> None:
    words = ["mesto", "ou", "kamarát"]
    for word in words:
        get(hall, word)
    _, soup = get(hall)
    items = soup.select("ol.recent li")
    assert [li.find(class_="word").get_text() for li in items] == words[::-1]
    assert [li["class"] for li in items] == [["valid"], ["invalid"], ["valid"]]
    assert "SP B1 10.1 bod 3" in items[1].get_text()
    for _ in range(RECENT + 3):
        get(hall, "mesto")
    _, soup = get(hall)
    assert len(soup.select("ol.recent li")) == RECENT


def test_a_query_that_is_no_word_is_one_sentence_kept_in_the_input(hall: str) -> None:
    _, soup = get(hall, "dve slová")
    box = soup.find("section", class_="answer")
    assert box["class"] == ["answer", "error"]
    assert box.get_text().strip() == (
        "Slovo „dve slová“ obsahuje medzeru: overiť sa dá len jedno slovo z písmen.")
    assert soup.find("input", attrs={"name": "slovo"})["value"] == "dve slová"
    _, soup = get(hall, "a" * 1000)
    assert soup.find("section", class_="answer").get_text().strip().startswith(
        "To nie je slovo: 1000 znakov")
    _, soup = get(hall)
    assert soup.select("ol.recent li") == []  # nothing was checked


def test_what_a_person_typed_is_escaped(hall: str) -> None:
    evil = '"><script>alert(1)</script>'
    response, soup = get(hall, evil)
    assert "<script>" not in response.text and soup.find("script") is None
    assert soup.find("input", attrs={"name": "slovo"})["value"] == evil
