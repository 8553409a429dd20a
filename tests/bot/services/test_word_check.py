"""Which lexicon a word check uses and under which rules (issue 22 item 5): `[lexicon]
default` and `rules`, a plain word list judged under sss, a built lexicon under the rules it was
built by, a clash of the two refused in one Slovak sentence; the config keys checked on load."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, LexiconConfig, load_config
from bot.services.lexicon import files as lexicon_files
from bot.services.lexicon.word_check import configured, load_for_check, policy_of
from rules.lexicon import LexiconError, judge


def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "slova.txt"
    path.write_text("kamarát\nmesto\nstolík\nou\n", encoding="utf-8")
    return path


def test_no_lexicon_configured_is_none_and_no_name_is_said() -> None:
    assert configured(LexiconConfig()) is None
    with pytest.raises(LexiconError, match="Chýba lexikón"):
        load_for_check("", Path("lexicons"))


def test_a_plain_word_list_is_judged_under_sss(tmp_path: Path) -> None:
    loaded = configured(LexiconConfig(default=str(word_list(tmp_path)), dir=str(tmp_path)))
    assert loaded is not None
    lexicon, rules = loaded
    assert rules.name == "sss"
    assert not judge("ou", lexicon, rules).valid  # in the file, not in B2: B2 decides
    assert judge("mesto", lexicon, rules).valid


def test_a_built_lexicon_keeps_its_rules_and_refuses_others(tmp_path: Path) -> None:
    built = tmp_path / "cas.lex"
    lexicon_files.build(word_list(tmp_path), "cas", built)
    lexicon, rules = load_for_check(str(built), tmp_path)
    assert rules.name == "cas" and lexicon.rules == "cas"
    with pytest.raises(LexiconError, match="nie sss"):
        configured(LexiconConfig(default=str(built), rules="sss"))


def test_the_config_keys(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[lexicon]\ndefault = "slova.txt"\nrules = "cas"\n'
                    'block_during_duplicate = false\n', encoding="utf-8")
    settings = load_config(path, env={}).lexicon
    assert (settings.rules, policy_of(settings).block_during_duplicate) == ("cas", False)
    assert policy_of(LexiconConfig()).block_during_duplicate  # refusing is the default
    path.write_text('[lexicon]\nrules = "scrabble"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        load_config(path, env={})
    assert str(refused.value) == ("[lexicon] rules: pravidlá prípustnosti \"scrabble\" nepoznáme; "
                                  "známe sú: cas, sss")
