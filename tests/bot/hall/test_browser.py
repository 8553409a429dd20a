"""The hall page in a real headless Chromium at a phone's width (390 px) and a desktop's
(1280 px): the answer's box is green for PLATNÉ and red for NEPLATNÉ, spans the width without
overflowing it, and its headline is large enough to read from the table. The screenshots stay
in build/screenshots (or $STREDISKO_SCREENSHOTS) for a person to look at."""

from __future__ import annotations

import httpx
import pytest

from ..chromium import Browser, ink_of, screenshots_dir

GREEN = (0x14, 0x6C, 0x2E)
RED = (0xB3, 0x14, 0x1B)
WINDOWS = {390: (390, 844), 1280: (1280, 800)}


def near(pixel: bytes, colour: tuple[int, int, int]) -> bool:
    return all(abs(p - c) <= 6 for p, c in zip(pixel[:3], colour, strict=True))


def box_of(pixels: list[bytes], width: int, colour: tuple[int, int, int]
           ) -> tuple[int, int, int, int, int]:
    """The answer box in a screenshot: its top, bottom, left and right edge, and the height of
    the headline's first line of white letters (accent to baseline)."""
    rows = [pixels[y * width:(y + 1) * width] for y in range(len(pixels) // width)]
    greens = [sum(near(p, colour) for p in row) for row in rows]
    assert max(greens) > width // 2, "no answer box of that colour"
    xs = [x for x, p in enumerate(rows[greens.index(max(greens))]) if near(p, colour)]
    left, right = xs[0], xs[-1]
    inside = [y for y, row in enumerate(rows) if near(row[left + 8], colour)]  # its left margin
    top, bottom = inside[0], inside[-1]
    assert bottom - top + 1 == len(inside), "one box of that colour, not several"
    white = [any(min(p[:3]) > 230 for p in rows[y][left + 4:right - 4])  # not the light page
             for y in range(top, bottom + 1)]
    first = last = white.index(True)
    for y in range(first, len(white)):  # an accent's gap above a capital is a few rows
        if white[y]:
            last = y
        elif y - last > 6:
            break
    headline = last - first + 1
    return top, bottom, left, right, headline


@pytest.mark.parametrize(("width", "word", "colour", "name"), [
    (390, "kamarát", GREEN, "hall-390.png"),
    (1280, "kamarát", GREEN, "hall-1280.png"),
    (390, "ou", RED, "hall-390-neplatne.png"),
    (1280, "stolíkom", RED, "hall-1280-neplatne.png"),
])
def test_the_answer_is_green_or_red_and_large(chromium: Browser, hall: str, width: int,
                                              word: str, colour: tuple[int, int, int],
                                              name: str) -> None:
    for earlier in ("mesto", "ou", "úž"):  # the list of last checks has rows
        httpx.get(hall + "/", params={"slovo": earlier}, timeout=10)
    shot = screenshots_dir() / name
    size = WINDOWS[width]
    url = str(httpx.URL(hall + "/", params={"slovo": word}))
    chromium.screenshot(url, shot, size)
    ink, shades, pixels = ink_of(shot, size)
    assert 0.02 < ink < 0.8 and shades > 20, f"{name}: blank or unreadable"
    top, bottom, left, right, headline = box_of(pixels, size[0], colour)
    assert top < size[1] // 3, "the answer comes right under the input"
    # the box spans the column (960 px at most) with its margins, inside the window
    assert left > 0 and right < size[0] - 1 and right - left > min(size[0], 960) - 64
    # capitals with an accent (PLATNÉ / NEPLATNÉ): ~30 px on a phone, ~70 px on the hall's
    # screen, where the body text is 18 px
    assert headline >= (28 if width == 390 else 60), f"{name}: headline {headline} px high"
    print(f"\n{name}: box rows {top}–{bottom}, columns {left}–{right}, headline {headline} px")
