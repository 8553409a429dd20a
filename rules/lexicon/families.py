"""Word families SP B1 10.1–10.8 name by a rule rather than by a list of words (issue 42): pure.

The rulebook prints examples; the rule behind each names a whole family. Each family here is
made from its rule — a generator, a test on the form, or a reviewed closed list bundled with
its source — so that members the rulebook does not print answer as the printed ones do:

- `nasobne` (10.7, seed 000 r. 581): "násobné číslovky utvorené spojením základnej číslovky a
  morfémy -krát tvoriace jedno slovo" — every cardinal numeral written as one word + -krát
  (päťkrát, tridsaťpäťkrát, dvestokrát) that fits the board; admitted like the lists of 10.1.
- `grecke_ine` (10.1 bod 2, r. 461): "Pri hre možno vytvoriť len takéto slová ako názvy písmen
  gréckej abecedy. Sú nesklonné okrem …" — a Greek letter named in another spelling than the
  rule's (kappa for kapa) in any of its forms, and the declined forms of the names the rule
  makes indeclinable (ióty, omikronu, zetou).
- `ne_predpona` (10.8 r. 602): the verbs "neleniť, nevražiť, nenávidieť, nedokrviť a
  nedokrvovať, ktoré už obsahujú predponu ne-" take no second ne- (nenenávidí, nenevraží).
- `ist_zapor` (10.8 r. 605): "u slovesa ísť sa u niektorých tvarov v zápore mení i(i) na j
  (… ide – nejde)" — ne- + a form of ísť that begins with i/í (neide, neidem, neidúci) is not
  the negation; neísť is (the rule names it) and nejde, nejdem are.
- `zvieracie_i`, `zvieracie_ovia` (10.4 r. 553): "Slová vytvorené od zvieracích … podstatných
  mien mužského rodu v nominatíve plurálu … pridaním koncovky -i (resp. -ovia) sú nepovolené"
  (sobi; and B4 r. 890's kocúr) — the animal nouns are a reviewed list
  (`data/sss/zvierata.txt`, its header says where it comes from), the forms are made by rule.
- `citoslovcia` (10.2 bod 5, r. 475): interjections — hunspell carries no part of speech for
  them, so a reviewed list (`data/sss/citoslovcia.txt`) says which words are interjections only.

A profile names the families it applies (`[[refuse]] family = …` and `[[always]]` with a list
`generate = "nasobne"`): each is a named setting the association may drop.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from rules.lexicon.declension import cudzi, dub, zena

DATA_DIR = Path(__file__).with_name("data")

# --- 10.7: cardinal numerals and násobné číslovky --------------------------------------------

UNITS = ("", "jeden", "dva", "tri", "štyri", "päť", "šesť", "sedem", "osem", "deväť")
TEENS = ("desať", "jedenásť", "dvanásť", "trinásť", "štrnásť", "pätnásť", "šestnásť",
         "sedemnásť", "osemnásť", "devätnásť")
TENS = ("", "", "dvadsať", "tridsať", "štyridsať", "päťdesiat", "šesťdesiat", "sedemdesiat",
        "osemdesiat", "deväťdesiat")
#: the hundreds' first part: dvesto, tristo, štyristo, päťsto …
HUNDREDS = ("", "sto", "dvesto", "tristo", "štyristo", "päťsto", "šesťsto", "sedemsto",
            "osemsto", "deväťsto")
MAX_LETTERS = 15  # SP B8 17.1: the board


def cardinal(number: int) -> str:
    """A cardinal numeral 1–999 999 as one word (10.7 writes tridsaťpäť, stodva, dvestopäť):
    the masculine inanimate base form (dva, not dve), as the rule's own list starts."""
    if not 0 < number < 1_000_000:
        raise ValueError(f"{number}: 1–999 999")
    thousands, rest = divmod(number, 1000)
    head = ""
    if thousands:
        # tisíc, dvetisíc (dve before the feminine-like tisíc), tritisíc, …, jedenásťtisíc
        head = ("" if thousands == 1 else "dve" if thousands == 2
                else _below_thousand(thousands)) + "tisíc"
    return head + _below_thousand(rest)


def _below_thousand(number: int) -> str:
    hundreds, rest = divmod(number, 100)
    tens, units = divmod(rest, 10)
    word = HUNDREDS[hundreds]
    if tens == 1:
        return word + TEENS[units]
    return word + TENS[tens] + UNITS[units]


@cache
def multiplicatives() -> frozenset[str]:
    """Every násobná číslovka of 10.7 that fits the board: cardinal + -krát, one word."""
    room = MAX_LETTERS - len("krát")
    below = {number: _below_thousand(number) for number in range(1000)}
    short = [number for number, word in below.items() if len(word) <= room]
    found = set()
    for thousands in short:  # a longer thousands' part leaves no room for anything
        for rest in short:
            if thousands or rest:
                word = cardinal(thousands * 1000 + rest)
                if len(word) <= room:
                    found.add(word + "krát")
    return frozenset(found)


# --- 10.1 bod 2: the Greek letters only as the rule spells them ------------------------------

#: another spelling of a letter the rule names (kapa): every form of it is no Greek letter name
RESPELLED_GREEK = {"kappa": "kapa"}
#: names the rule makes indeclinable ("Sú nesklonné okrem …") that a dictionary may decline
#: (ióta, zeta by vzor žena, omikron by vzor dub): their other forms cannot be made
INDECLINABLE_GREEK = {"ióta": zena, "zeta": zena, "omikron": dub}


@cache
def respelled_greek() -> frozenset[str]:
    """Greek letter names in forms the rule does not give (`grecke_ine`): kappa in any form,
    an indeclinable name declined."""
    forms = set().union(*(zena(name) for name in RESPELLED_GREEK))
    for name, decline in INDECLINABLE_GREEK.items():
        forms |= decline(name) - {name}
    return frozenset(forms)


# --- 10.8 r. 602, 605: the negation's own exceptions -----------------------------------------

#: the stems of the verbs 10.8 r. 602 names ("už obsahujú predponu ne-"): every form of each
#: begins so (nenávidí, nenáviďte; nevraží; nelenil; nedokrvený, nedokrvoval)
NE_VERBS = ("nenávid", "nenáviď", "nevraž", "nelen", "neleň", "nedokrv")


def second_ne(word: str) -> bool:
    """ne- before a verb that already begins with ne- (10.8 r. 602): nenenávidieť."""
    return word.startswith("ne") and word[2:].startswith(NE_VERBS)


#: ísť's forms that begin with i (í in hunspell-sk's variant ídem): present, transgressive,
#: past; the active participle idúci in every form of vzor cudzí (10.8 r. 596)
IST_I_FORMS = frozenset({"idem", "ideš", "ide", "ideme", "idete", "idú", "idúc", "išiel",
                         "išla", "išlo", "išli"} | cudzi("idúci"))


def ne_plus_i_of_ist(word: str) -> bool:
    """ne- + a form of ísť beginning with i(í) (10.8 r. 605: ide – nejde): neide, neídem."""
    if not word.startswith(("nei", "neí")):
        return False
    plain = word[2:]
    return plain in IST_I_FORMS or (plain[0] == "í" and "i" + plain[1:] in IST_I_FORMS)


# --- 10.4 r. 553: animal nouns' nominative plural in -i / -ovia ------------------------------

#: N pl -i after the stem's last consonant: the masculine animate softening (vlk – vlci,
#: vták – vtáci, hroch – hrosi, pstruh – pstruzi); a soft consonant loses its mark before i
#: (jeleň – jeleni); the others stay (sob – sobi)
SOFTENED = {"k": "c", "h": "z", "g": "z", "ď": "d", "ť": "t", "ň": "n", "ľ": "l"}


def soft_plural(stem: str) -> str:
    if stem.endswith("ch"):
        return stem[:-2] + "si"
    return stem[:-1] + SOFTENED.get(stem[-1], stem[-1]) + "i"


@cache
def animal_nouns() -> tuple[tuple[str, str], ...]:
    """The reviewed list's animal nouns: (the noun, the stem its cases are made from — the
    genitive singular without -a: pes psa → ps, orol orla → orl)."""
    found = []
    for line in _lines(DATA_DIR / "sss" / "zvierata.txt"):
        noun, *stem = line.split()
        found.append((noun, stem[0] if stem else noun))
    return tuple(found)


@cache
def animal_plurals_i() -> frozenset[str]:
    """The animal nouns' nominative plural in -i (sobi, kocúri, vlci, psi)."""
    return frozenset(soft_plural(stem) for _, stem in animal_nouns())


@cache
def animal_plurals_ovia() -> frozenset[str]:
    """The animal nouns' nominative plural in -ovia (sobovia, vlkovia, psovia)."""
    return frozenset(stem + "ovia" for _, stem in animal_nouns())


#: a soft consonant's plural takes -e (medveď – medvede, zajac – zajace), a hard one's -y
SOFT = {"ď": "d", "ť": "t", "ň": "n", "ľ": "l", "j": "j", "c": "c", "č": "č", "š": "š",
        "ž": "ž"}


@cache
def animal_plurals_allowed() -> dict[str, str]:
    """The plural 10.4 allows ("pri slove sob je povolený tvar soby"), by noun: the nominative
    (= accusative) in -y after a hard stem (soby, kocúry), -e after a soft one (medvede)."""
    return {noun: (stem[:-1] + SOFT[stem[-1]] + "e" if stem[-1] in SOFT
                   else stem + "e" if noun[-1] in SOFT else stem + "y")
            for noun, stem in animal_nouns()}


# --- 10.2 bod 5: interjections -----------------------------------------------------------------

@cache
def interjections() -> frozenset[str]:
    return frozenset(_lines(DATA_DIR / "sss" / "citoslovcia.txt"))


def _lines(path: Path) -> list[str]:
    return [line.strip().lower() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


# --- the families by the names a profile gives them ---------------------------------------------

#: a refusing family: the test a form fails (True = the rule refuses the form)
REFUSALS: dict[str, Callable[[str], bool]] = {
    "grecke_ine": lambda word: word in respelled_greek(),
    "ne_predpona": second_ne,
    "ist_zapor": ne_plus_i_of_ist,
    "zvieracie_i": lambda word: word in animal_plurals_i(),
    "zvieracie_ovia": lambda word: word in animal_plurals_ovia(),
    "citoslovcia": lambda word: word in interjections(),
}

#: an admitting family: the forms a rule makes (a list the profile names by `generate`)
GENERATORS: dict[str, Callable[[], frozenset[str]]] = {
    "nasobne": multiplicatives,
}
