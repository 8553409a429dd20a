"""Declension of the closed lists SP B1 10.1 allows in every form (issue 35): pure.

The lists hold base forms; their rules say the words decline, so the forms are made here by
rule, not listed or taken from a main list:
- `letter_forms` — the Slovak letter names of 10.1 bod 6 (seed 000 r. 465–467): "Tieto slová
  možno skloňovať podľa vzoru mesto (okrem ypsilon – vzor dub)";
- `element_forms` — the element names of B5 (10.1 bod 5, r. 464: "Tieto slová možno
  skloňovať"), each by the pattern its ending gives: -ium/-um like štúdium, a consonant like
  dub (G sg -u, as B5 itself marks "astát (-u)", … ; -a after -ík/-ik), -a like žena, -ď/-ť
  like kosť, -o like mesto.

All seven cases of both numbers (10.4: "všetkých sedem pádov jednotného i množného čísla";
the vocative is the nominative, 10.4 r. 555). The rhythmic law shortens a long ending after
a long syllable (áčka, not áčká). Where no rule gives one sure form, the form is left out
rather than guessed — a guess would make a non-word playable: the genitive plural of -o/-a
element names (olovo, striebro, zlato, železo, platina, síra: irregular), of -um without -i-
(plumbum), and the instrumental plural of a consonant stem ending in a sonorant + an obstruent
(kobalt, zinok), which 10.4 r. 557's fallback does not cover.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

LONG_VOWELS = frozenset("áéíóúýôŕĺ")
DIPHTHONGS = ("ia", "ie", "iu")
VOWELS = frozenset("aáäeéiíoóôuúyý")
#: 10.4 r. 557: "šumové spoluhlásky b,c,č,d,dž,dz,f,g,h,ch,k,p,s,š,t,ť,v,x,z,ž" (one letter each
#: here: dz, dž and ch end in z, ž, h, all obstruents) and "zvučné spoluhlásky j,l,m,n,r"
OBSTRUENTS = frozenset("bcčdďfghkpsštťvxzž")
SONORANTS = frozenset("jlmnrľň")
#: stems that lose their last vowel when declined (zinok – zinku, nikel – niklu)
MOBILE_VOWEL = {"zinok": "zink", "nikel": "nikl"}
#: G pl lengthening of a feminine -a stem's last vowel (platina – platín)
LENGTHEN = {"a": "á", "e": "ie", "i": "í", "o": "ô", "u": "ú", "y": "ý", "ä": "ia"}


def long_syllable(stem: str) -> bool:
    """Whether the stem's last syllable is long (a long vowel, a diphthong, ŕ or ĺ)."""
    for i in range(len(stem) - 1, -1, -1):
        if stem[i] in LONG_VOWELS or (stem[i - 1: i + 1] in DIPHTHONGS and i > 0):
            return True
        if stem[i] in VOWELS:
            return False
    return False


def _rhythmic(stem: str, long: str, short: str) -> str:
    return stem + (short if long_syllable(stem) else long)


def mesto(stem: str, genitive_plural: str | None) -> set[str]:
    """Neuter hard stem (vzor mesto); L sg -u after a velar (v áčku), else -e."""
    locative = "u" if stem.endswith(("k", "g", "h")) else "e"
    forms = {stem + "o", stem + "a", stem + "u", stem + locative, stem + "om",
             _rhythmic(stem, "á", "a"), _rhythmic(stem, "ám", "am"),
             _rhythmic(stem, "ách", "ach"), stem + "ami"}
    if genitive_plural:
        forms.add(genitive_plural)
    return forms


def dub(base: str, genitive: str = "u") -> set[str]:
    """Masculine inanimate hard stem (vzor dub); `genitive` "a" or "u"."""
    stem = MOBILE_VOWEL.get(base, base)
    velar = stem.endswith(("k", "g", "h"))
    forms = {base, stem + genitive, stem + "u", stem + ("u" if velar else "e"), stem + "om",
             stem + "y", stem + "ov", stem + "och"}
    return forms | {stem + ending for ending in _instrumental_plural(stem)}


def _instrumental_plural(stem: str) -> set[str]:
    """10.4 r. 557, where no dictionary gives the form: one consonant -mi (m: -ami); two
    obstruents -mi and -ami; an obstruent + a sonorant or two sonorants -mi (m: -ami)."""
    last, before = stem[-1], stem[-2] if len(stem) > 1 else ""
    if before in VOWELS or not before:
        return {"ami"} if last == "m" else {"mi"}
    if before in OBSTRUENTS and last in OBSTRUENTS:
        return {"mi", "ami"}
    if last in SONORANTS:
        return {"ami"} if last == "m" else {"mi"}
    return set()  # a sonorant + an obstruent: the rule is silent, the form is left out


def studium(base: str) -> set[str]:
    """Neuter in -um (vzor štúdium): štúdium, štúdia, štúdiu, štúdiom; štúdiá, štúdií…"""
    stem = base[:-2]
    forms = {base, stem + "a", stem + "u", stem + "om", _rhythmic(stem, "á", "a"),
             _rhythmic(stem, "ám", "am"), _rhythmic(stem, "ách", "ach"), stem + "ami"}
    if stem.endswith("i"):
        forms.add(stem + "í")
    return forms


def zena(base: str, genitive_plural: bool = True) -> set[str]:
    """Feminine hard -a (vzor žena); G pl by lengthening the last vowel where that is sure
    (none when `genitive_plural` is False: the caller has it from the rules' text)."""
    stem = base[:-1]
    forms = {base, stem + "y", stem + "e", stem + "u", stem + "ou",
             _rhythmic(stem, "ám", "am"), _rhythmic(stem, "ách", "ach"), stem + "ami"}
    if not genitive_plural:
        return forms
    last_vowel = next((i for i in range(len(stem) - 1, -1, -1) if stem[i] in VOWELS
                       or stem[i] in LONG_VOWELS), None)
    if last_vowel is not None and len(stem) - last_vowel == 2:  # one consonant after it
        vowel = stem[last_vowel]
        forms.add(stem if vowel in LONG_VOWELS
                  else stem[:last_vowel] + LENGTHEN.get(vowel, vowel) + stem[-1])
    return forms


def kost(base: str) -> set[str]:
    """Feminine soft consonant (vzor kosť): meď, medi, meďou; medí, mediam, meďami."""
    soft_to_hard = {"ď": "d", "ť": "t", "ň": "n", "ľ": "l"}
    stem = base[:-1] + soft_to_hard.get(base[-1], base[-1])
    return {base, stem + "i", base + "ou", stem + "í", stem + "iam", stem + "iach",
            base + "ami"}


def letter_forms(name: str) -> set[str]:
    """SP B1 10.1 bod 6: a Slovak letter name by vzor mesto; ypsilon by vzor dub."""
    if name == "ypsilon":
        return dub(name)
    if not name.endswith("ko"):
        raise ValueError(f"{name!r}: a letter name of 10.1 bod 6 ends in -ko or is ypsilon")
    stem = name[:-1]
    # G pl: -o- after č (áčok, as vajíčko – vajíčok), else -ie- (efko – efiek)
    genitive_plural = (stem[:-1] + "ok" if stem.endswith("čk")
                       else stem[:-1] + ("ek" if long_syllable(stem[:-1]) else "iek"))
    return mesto(stem, genitive_plural)


def element_forms(name: str) -> set[str]:
    """B5 (SP B1 10.1 bod 5): an element name in every form its ending's pattern gives."""
    if name.endswith("um"):
        return studium(name)
    if name.endswith("o"):
        return mesto(name[:-1], None)
    if name.endswith("a"):
        return zena(name)
    if name.endswith(("ď", "ť")):
        return kost(name)
    return dub(name, "a" if name.endswith(("ík", "ik")) else "u")


#: a list's declension by the name a profile gives it (`[[lists]] declension = …`)
DECLENSIONS: dict[str, Callable[[str], set[str]]] = {
    "pismena": letter_forms,
    "prvky": element_forms,
}


def declined(words: Iterable[str], declension: str) -> frozenset[str]:
    """Every form of `words` by the named declension ("" = the words as they are)."""
    words = frozenset(words)
    if not declension:
        return words
    decline = DECLENSIONS[declension]
    return words.union(*(decline(word) for word in words))


def pekny(base: str) -> set[str]:
    """An adjective in -ý (vzor pekný): the passive participles of SP B1 10.8 r. 594. The base
    tells the length of the endings: -y after a long syllable (krásny, krásna: the rhythmic
    law), -ý otherwise."""
    stem = base[:-1]
    long = ("ý", "á", "é", "ého", "ej", "ému", "ú", "om", "ou", "í", "ých", "ým", "ými")
    short = ("y", "a", "e", "eho", "ej", "emu", "u", "om", "ou", "i", "ych", "ym", "ymi")
    return {stem + ending for ending in (short if base.endswith("y") else long)}


def cudzi(base: str) -> set[str]:
    """An adjective in -í (vzor cudzí): the active participles of SP B1 10.8 r. 596–597. The
    base tells the length of the endings: -i after a long syllable (robiaci, robiaca; tepúci),
    -í otherwise (vyrobivší, and zasmievší as the seed writes it)."""
    stem = base[:-1]
    long = ("í", "ia", "ie", "ieho", "ej", "iemu", "iu", "om", "ou", "ích", "ím", "ími")
    short = ("i", "a", "e", "eho", "ej", "emu", "u", "om", "ou", "ich", "im", "imi")
    return {stem + ending for ending in (short if base.endswith("i") else long)}


DECLENSIONS["pekny"] = pekny
DECLENSIONS["cudzi"] = cudzi

#: SP B1 10.1 bod 2 (seed 000 r. 461): "Sú nesklonné okrem slov alfa …, beta …, gama …, delta
#: …, epsilon, zéta …, dzeta …, éta …, théta …, kapa …, lambda …, sigma …, omega … a ypsilon,
#: ktoré … možno ich skloňovať" — the feminine ones in -a by vzor žena, epsilon by vzor dub
#: (masculine, as ypsilon); ypsilon's forms are bod 6's (the same word, "ypsilon – vzor dub"),
#: which names the rule for them
GREEK_DECLINABLE = frozenset({"alfa", "beta", "gama", "delta", "zéta", "dzeta", "éta", "théta",
                              "kapa", "lambda", "sigma", "omega"})
GREEK_MASCULINE = frozenset({"epsilon"})


def greek_forms(name: str) -> set[str]:
    """SP B1 10.1 bod 2: a Greek letter name declined where the rule says it declines. The
    genitive plural is the one the rule prints (álf, sigiem, théth: a line of the list of its
    own), not a guess; every other name, and every printed genitive, stays as it is."""
    if name in GREEK_MASCULINE:
        return dub(name)
    if name in GREEK_DECLINABLE:
        return zena(name, genitive_plural=False)
    return {name}


DECLENSIONS["grecke"] = greek_forms
