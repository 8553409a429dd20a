"""Write the saved pages in tests/scrapers/pages/ from the simulator's templates, plus
hand-made malformed and truncated variants. Run: .venv/bin/python tests/scrapers/make_pages.py

SAMPLES are the records the good pages show; test_parser.py checks the parser reads them back.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scrapers.herna import pages
from scrapers.herna.records import EndKind, GameRecord, TableSettings

PAGES = Path(__file__).with_name("pages")
TABLE = TableSettings("2x20", "slovenský jazyk", "áno")


def _game(game_id: str, end: EndKind, **changes: object) -> GameRecord:
    values: dict[str, object] = {
        "game_id": game_id,
        "first": "Ľubo_Š",
        "second": "Žofka&Co<3",  # HTML special characters must survive escaping
        "first_score": 412,
        "second_score": 389,
        "end": end,
        "ended_on": None,
        # winter: the page shows 09:05:07 (CET, UTC+1)
        "started": datetime(2026, 3, 7, 8, 5, 7, tzinfo=UTC),
        "ended": datetime(2026, 3, 7, 8, 41, 30, tzinfo=UTC),
        "first_moves": 12,
        "second_moves": 11,
        "settings": TABLE,
    }
    values.update(changes)
    return GameRecord(**values)  # type: ignore[arg-type]


SAMPLES: dict[str, GameRecord] = {
    "game_finished": _game("700101", EndKind.FINISHED),
    # the starter sits second on the page (seats are alphabetical)
    "game_passes": _game(
        "700102",
        EndKind.PASSES,
        first="Žofka&Co<3",
        second="Ľubo_Š",
        first_moves=14,
        second_moves=14,
    ),
    "game_resigned": _game("700103", EndKind.RESIGNED, ended_on="Žofka&Co<3", second_moves=12),
    "game_time_loss": _game(
        "700104",
        EndKind.TIME_LOSS,
        ended_on="Ľubo_Š",
        # summer: the page shows 19:00:00 (CEST, UTC+2)
        started=datetime(2026, 7, 4, 17, 0, 0, tzinfo=UTC),
        ended=datetime(2026, 7, 4, 17, 41, 2, tzinfo=UTC),
        settings=TableSettings("2x15", "český jazyk", "nie"),
    ),
    "game_disconnected": _game(
        "700105",
        EndKind.DISCONNECTED,
        ended_on="Ľubo_Š",
        first_score=120,
        second_score=0,
        first_moves=3,
        second_moves=0,
    ),
    "game_draw": _game(
        "700106",
        EndKind.DRAW,
        first_score=18,
        second_score=0,
        first_moves=1,
        second_moves=0,
        ended=datetime(2026, 3, 7, 8, 6, 0, tzinfo=UTC),
    ),
    "game_unfinished": _game(
        "700107",
        EndKind.UNFINISHED,
        ended=None,
        first_score=150,
        second_score=171,
        first_moves=5,
        second_moves=5,
    ),
}

# History: 3 pages of 2 games, newest first; games drawn from SAMPLES.
HISTORY = sorted(SAMPLES.values(), key=lambda r: (r.started, r.game_id), reverse=True)[:6]


def good_pages() -> dict[str, str]:
    out = {name: pages.game_page(record, user="sss") for name, record in SAMPLES.items()}
    for page in (1, 2, 3):
        chunk = HISTORY[(page - 1) * 2 : page * 2]
        out[f"history_{page}"] = pages.history_page(chunk, page, 3, user="sss")
    out["history_empty"] = pages.history_page([], 1, 1, nick="nikto", user="sss")
    out["login"] = pages.login_page(next_url="/partie?strana=1")
    out["login_refused"] = pages.login_page("Nesprávne meno alebo heslo.")
    return out


def _edit(text: str, old: str, new: str) -> str:
    if old not in text:
        raise SystemExit(f"make_pages: {old!r} not in the template output any more")
    return text.replace(old, new, 1)


def bad_pages(good: dict[str, str]) -> dict[str, str]:
    """Hand-made breakage: what a changed or broken site could send."""
    game, history = good["game_finished"], good["history_1"]
    return {
        "bad_no_scores": _edit(game, '<td class="skore">412</td>', ""),
        "bad_score_text": _edit(
            game, '<td class="skore">412</td>', '<td class="skore">412 b.</td>'
        ),
        "bad_time": _edit(game, "07.03.2026 09:05:07", "2026-03-07 09:05"),
        "bad_status": _edit(game, "dohraná", "prerušená"),
        "bad_status_nick": _edit(
            good["game_resigned"], "vzdanie: Žofka&amp;Co&lt;3", "vzdanie: Fero"
        ),
        "bad_two_starters": _edit(game, '<td class="zacina"></td>', '<td class="zacina">áno</td>'),
        "bad_stranger_move": _edit(game, " 1. Ľubo_Š: ", " 1. Fero: "),
        "bad_unfinished_end": _edit(
            good["game_unfinished"], "<td>—</td>", "<td>07.03.2026 09:41:30</td>"
        ),
        "bad_no_tempo": _edit(game, "<th>Tempo</th>", "<th>Rýchlosť</th>"),
        "bad_renamed_table": _edit(game, 'class="hraci"', 'class="players"'),
        "bad_truncated": game[: len(game) * 2 // 5],
        "bad_history_no_table": _edit(history, 'class="partie"', 'class="games"'),
        "bad_history_pager": _edit(history, "Strana 1 z 3", "Page 1 of 3"),
        "bad_history_truncated": history[: len(history) // 2],
    }


def main() -> None:
    PAGES.mkdir(exist_ok=True)
    good = good_pages()
    for name, text in (good | bad_pages(good)).items():
        (PAGES / f"{name}.html").write_text(text, encoding="utf-8")
    print(f"{len(good)} good and {len(bad_pages(good))} bad pages in {PAGES}")


if __name__ == "__main__":
    main()
