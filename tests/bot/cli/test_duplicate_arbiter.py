"""The hall arbiter's side of duplicate (issue 35; seed 003), through `bot.cli.main`: a typed
rack that drops the leave, two slips of one player, the rule a game's end cites, the console's
wording (no top move, the count of equal tops, "1 partia", the direction letters of 003 r. 38
and 44) and what a hall event sends to Discord."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from .test_duplicate_hall import SEED, cli, write_hall


def arbiter_hall(tmp_path: Path, words: tuple[str, ...], *, profile: str = "cas-duplicate",
                 extra: str = "") -> Path:
    """The hall of test_duplicate_hall with its own word list, one part (every top is
    announced at its close), `profile` and more [duplicate] keys; created, game 1 started."""
    hall = write_hall(tmp_path)
    (hall / "slova.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    prop = hall / "propozicie.toml"
    text = prop.read_text(encoding="utf-8").replace("parts = 2\nrounds_per_part = 1\n",
                                                    f"parts = 1\n{extra}")
    prop.write_text(text.replace('profile = "cas-duplicate"', f'profile = "{profile}"'),
                    encoding="utf-8")
    return hall


def start(capsys: pytest.CaptureFixture[str], hall: Path) -> tuple[Path, str]:
    db = hall / "sala.db"
    code, out, err = cli(capsys, db, "create", str(hall / "propozicie.toml"))
    assert code == 0, err
    code, _, err = cli(capsys, db, "duplicate", "start", "sala", "--seed", SEED)
    assert code == 0, err
    return db, out


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_a_typed_rack_without_the_leave_is_refused_when_no_redraw_could_happen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TO is the top of AEIKLOT: AEIKL stay on the rack and already hold 2 vowels and 2
    consonants (003 r. 12), so no redraw could give them back to the bag: a rack without them
    is a typing slip — one Slovak line naming the missing letters, nothing stored."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    assert cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")[0] == 0
    assert cli(capsys, db, "duplicate", "close", "sala", "1")[0] == 0
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "2", "BCDEFGH")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "chýbajú písmená AIKL, ktoré v zásobníku zostali z minulého kola (AEIKL)" in err
    assert err.strip().endswith("(003 r. 11–13).")
    assert rows(db, "SELECT COUNT(*) FROM dup_rounds") == [(1,)]
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "2", "MAEIKLN")
    assert code == 0 and "Zásobník: AEIKLMN" in out, err


def test_a_leave_that_may_fail_the_rule_may_be_redrawn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """KLMOS left, one vowel: a draw of two consonants would fail r. 12, the redraw returns
    all (r. 12), so a rack without them stands."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    assert cli(capsys, db, "duplicate", "rack", "sala", "1", "KLMOOST")[0] == 0
    assert cli(capsys, db, "duplicate", "close", "sala", "1")[0] == 0
    code, out, err = cli(capsys, db, "duplicate", "rack", "sala", "2", "AEIOBCD")
    assert code == 0 and "Zásobník: ABCDEIO" in out, err


def test_two_slips_in_a_hall_count_neither_citing_the_setting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """003 r. 42: "jen jeden lístek. V opačném případě jeho tahy nejsou započítány" — the
    ČAS profile's hall default; the receipt and the score cite the setting that applied."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    assert cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H TO", "--declared", "4")[0] \
        == 0
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "H8 TO",
                         "--declared", "4")
    assert code == 0, err
    assert out.strip() == (
        "Ján Novák: Lístok prijatý (1. kolo): H8 TO, 4 body. Pozor: ďalší lístok toho istého "
        "hráča v tomto kole — nezapočíta sa žiadny z jeho lístkov (003 r. 42; slips.several = "
        "none).")
    code, out, err = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert code == 0, err
    assert "Ján Novák: H8 TO — 0 (viac lístkov v jednom kole: nezapočíta sa žiadny; 003 r. 42; " \
           "slips.several = none)" in out


@pytest.mark.parametrize(("profile", "rule", "announced"), [
    ("cas-duplicate", "003 r. 3", "003 r. 3"),  # "dokud počítač vytvořil bodované slovo"
    ("greek-duplicate", "004 §5B.2 (Interpretation)", "004 §5B.2"),
])
def test_no_scoring_move_ends_the_game_by_the_profiles_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], profile: str, rule: str,
        announced: str) -> None:
    """Round 2's rack has no T and no O: the computer finds no move with 91 tiles in the bag. The
    round closes saying so (not "bez lístka"), the game ends citing the rule of that reason in
    its profile, never 004 §5B's empty bag. The arbiter's console and the store keep the
    profile's citation; the announcement shows it as players read it (issue 44.7)."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",), profile=profile))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    cli(capsys, db, "duplicate", "close", "sala", "1")
    cli(capsys, db, "duplicate", "rack", "sala", "2", "AEIKLMN")
    code, out, err = cli(capsys, db, "duplicate", "close", "sala", "2")
    assert code == 0, err
    assert f"2. kolo uzavreté. Najlepší ťah: žiadny — počítač nenašiel bodovaný ťah ({rule})." \
        in out.splitlines()
    assert "bez lístka." not in out
    assert f"[v sále] 1. partia sa skončila: počítač nenašiel žiadny bodovaný ťah " \
           f"({announced})." in out.splitlines()
    assert rows(db, "SELECT state, ended_rule FROM dup_games") == [("preliminary", rule)]
    [(bag,)] = rows(db, "SELECT bag FROM dup_rounds WHERE number = 2")
    assert sum(json.loads(str(bag)).values()) == 91  # far from empty: not 004 §5B.1


def test_create_counts_a_duplicate_events_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[tournament] rounds of a duplicate event are its games (round_starts: each game's)."""
    _, created = start(capsys, arbiter_hall(tmp_path, ("to",)))
    assert "je založený: 1 partia, prihlásených hráčov: 3." in created, created


def test_equal_tops_beyond_three_are_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TO and OK, each 4 points in four places: the top and three more listed, the other four
    counted ("a ďalšie 4")."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to", "ok")))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    code, out, err = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert code == 0, err
    [others] = [line for line in out.splitlines() if "Rovnako hodnotené ťahy" in line]
    assert others.endswith(" a ďalšie 4."), others
    assert others.count(",") == 2  # three listed


@pytest.mark.parametrize(("written", "read"), [
    ("8G V TO", "8G TO"),   # vodorovne: across
    ("G8 V TO", "8G TO"),   # the written direction decides, not the order (r. 44)
    ("H7 Z TO", "H7 TO"),   # zvisle
    ("7H S TO", "H7 TO"),   # svisle (Czech)
    ("H7S TO", "H7 TO"),    # glued to the coordinate
    ("8G TO", "8G TO"),     # no direction: row first is across (r. 44)
])
def test_slovak_and_czech_direction_letters_are_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, read: str) -> None:
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", written,
                         "--declared", "4")
    assert code == 0, err
    assert f"Lístok prijatý (1. kolo): {read}, 4 body." in out
    code, out, _ = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert f"Ján Novák: {written} — 4 (započítané; 003 r. 45)" in out


def outbox(db: Path) -> list[str]:
    return [str(k) for (k,) in rows(db, "SELECT message_key FROM outbox ORDER BY id")]


def play_to_the_end(capsys: pytest.CaptureFixture[str], db: Path) -> list[str]:
    """Round 1 (TO), round 2 without a move: the game ends. Every command's stderr."""
    errs = []
    for argv in (("rack", "sala", "1", "AEIKLTO"), ("slip", "sala", "1", "1", "8H TO",
                                                    "--declared", "4"),
                 ("close", "sala", "1"), ("rack", "sala", "2", "AEIKLMN"),
                 ("close", "sala", "2")):
        code, _, err = cli(capsys, db, "duplicate", *argv)
        assert code == 0, err
        errs.append(err)
    return errs


def test_a_hall_event_sends_discord_nothing_by_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bot started after the evening finds no backlog: nothing was queued, the console
    showed each announcement ("[v sále]") and never said it queued one."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    errs = play_to_the_end(capsys, db)
    assert not any("Zaradené na odoslanie" in err for err in errs), errs
    assert outbox(db) == []


def test_a_hall_event_may_send_its_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`discord = "results"`: the game's results once they stand, nothing of the rounds."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",), extra='discord = "results"\n'))
    errs = play_to_the_end(capsys, db)
    assert outbox(db) == ["duplicate.online.game_over", "duplicate.online.preliminary",
                          "duplicate.online.words"]
    assert [e for e in errs if "Zaradené" in e] == [
        "Zaradené na odoslanie na Discord: 3 správy (doručí bot – stredisko run; čo medzičasom "
        "stratí platnosť, zahodí).\n"]


@pytest.mark.parametrize(("extra", "says"), [
    ('discord = "everything"\n', "[duplicate]: discord: „everything“: očakáva sa none alebo "
                                 "results alebo all"),
    ('discord = "none"\n', "turnaj online sa hrá na Discorde"),
])
def test_the_discord_choice_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       extra: str, says: str) -> None:
    hall = arbiter_hall(tmp_path, ("to",), extra=extra)
    prop = hall / "propozicie.toml"
    if "none" in extra:  # the choice is a hall's: online everything goes to Discord
        prop.write_text(prop.read_text(encoding="utf-8").replace('mode = "hall"',
                                                                 'mode = "online"'),
                        encoding="utf-8")
    code, out, err = cli(capsys, hall / "sala.db", "create", str(prop))
    assert code == 1 and out == "" and says in err, err
    assert not (hall / "sala.db").exists() or rows(hall / "sala.db",
                                                   "SELECT COUNT(*) FROM tournaments") == [(0,)]


def test_the_arbiter_corrects_his_own_typing_and_the_player_keeps_one_slip(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """003 r. 42 counts the slips a player hands in, not the arbiter's typing: Ján's paper
    slip typed wrong ("8H OT") and typed again with --oprava is one slip — the correction
    scores. Eva's two entries without it are two slips: neither counts. Both entries and the
    fix stay in the database, the audit says why in Slovak."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    assert cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H OT", "--declared",
               "4")[0] == 0
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H TO",
                         "--declared", "4", "--oprava")
    assert code == 0, err
    assert out.strip() == (
        "Ján Novák: Lístok prijatý (1. kolo): 8H TO, 4 body. Zapísané ako oprava zápisu "
        "rozhodcu: nahrádza „8H OT“ — hráč odovzdal jeden lístok (003 r. 42).")
    for move in ("8H TO", "H8 TO"):  # Eva really handed in two slips
        assert cli(capsys, db, "duplicate", "slip", "sala", "1", "2", move, "--declared",
                   "4")[0] == 0
    code, out, err = cli(capsys, db, "duplicate", "close", "sala", "1")
    assert code == 0, err
    assert "Ján Novák: 8H TO — 4 (" in out, out
    assert "Eva Malá: H8 TO — 0 (viac lístkov v jednom kole: nezapočíta sa žiadny; 003 r. 42; " \
           "slips.several = none)" in out
    assert rows(db, "SELECT text, replaced_by IS NOT NULL FROM dup_slips WHERE player_id = "
                    "(SELECT id FROM players WHERE name = 'Ján Novák') ORDER BY id") == [
        ("8H OT", 1), ("8H TO", 0)]
    assert rows(db, "SELECT w.text, f.text, x.rule, x.reason FROM dup_slip_fixes x "
                    "JOIN dup_slips w ON w.id = x.slip_id JOIN dup_slips f ON f.id = x.fixed_by"
                ) == [("8H OT", "8H TO", "003 r. 42",
                       "003 r. 42 — oprava zápisu rozhodcu: hráč odovzdal jeden lístok")]
    code, out, err = cli(capsys, db, "show", "audit", "sala")
    assert code == 0, err
    assert "oprava zápisu lístka rozhodcom (003 r. 42)" in out
    assert "003 r. 42 — oprava zápisu rozhodcu: hráč odovzdal jeden lístok" in out
    code, out, err = cli(capsys, db, "duplicate", "standings", "sala")
    assert code == 0 and "Ján Novák — 4 body" in out, out + err


def test_a_correction_with_nothing_to_correct_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--oprava mends an entry already typed: with none of the player's in the round it is one
    Slovak line, exit 2, nothing stored; in a closed round the round says it is closed."""
    db, _ = start(capsys, arbiter_hall(tmp_path, ("to",)))
    cli(capsys, db, "duplicate", "rack", "sala", "1", "AEIKLTO")
    cli(capsys, db, "duplicate", "slip", "sala", "1", "2", "8H TO", "--declared", "2")
    code, out, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "1", "8H TO",
                         "--declared", "2", "--correction")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "Oprava zápisu: Ján Novák nemá v 1. kole zapísaný žiadny lístok, ktorý by sa dal " \
           "opraviť (003 r. 42)." in err
    assert rows(db, "SELECT COUNT(*) FROM dup_slips") == [(1,)]
    assert rows(db, "SELECT COUNT(*) FROM dup_slip_fixes") == [(0,)]
    cli(capsys, db, "duplicate", "close", "sala", "1")
    code, _, err = cli(capsys, db, "duplicate", "slip", "sala", "1", "2", "H8 TO",
                       "--declared", "2", "--oprava")
    assert code == 2 and "1. kolo je už uzavreté" in err, err
    assert rows(db, "SELECT COUNT(*) FROM dup_slips") == [(1,)]
