"""A message's key is its nonce and its dedup key: the text hashed must stay exactly the
canonical JSON of [destination, target, message key, parameters, moment] (issue 21 builds it
from the parameters' own text instead of encoding them twice)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import Term, t
from bot.store.outbox import Destination, decode_params, encode_params, message_key
from bot.store.sql import dumps

AT = datetime(2025, 3, 1, 9, 55, tzinfo=UTC)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
    | st.datetimes(timezones=st.just(UTC)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8)


@given(destination=st.sampled_from(list(Destination)), target=st.integers(0, 2**62),
       key=st.text(), params=st.dictionaries(st.text(), _VALUES, max_size=6))
def test_the_key_is_the_hash_of_the_whole_canonical_list(
        destination: Destination, target: int, key: str, params: dict[str, object]) -> None:
    whole = dumps([destination, target, key, encode_params(params), AT.isoformat()])
    assert message_key(destination, target, key, params, AT) == \
        hashlib.sha256(whole.encode()).hexdigest()[:32]


def test_a_known_message_keeps_its_key() -> None:
    """Pinned: rows written before this version are found again by the same key."""
    params = {"first": "Hráč ď", "round": 1, "points": 0.5, "at": AT, "words": ["a", "b"]}
    assert message_key(Destination.ADMIN, 7, "result.official", params, AT) == \
        hashlib.sha256(('["admin",7,"result.official",{"at":{"$datetime":'
                        '"2025-03-01T09:55:00+00:00"},"first":"Hráč ď","points":0.5,'
                        '"round":1,"words":["a","b"]},"2025-03-01T09:55:00+00:00"]'
                        ).encode()).hexdigest()[:32]


def test_a_catalogue_phrase_comes_back_from_the_outbox_as_a_phrase() -> None:
    """A `Term` parameter (a phrase worded in the reader's language when delivered) is stored
    tagged and read back as a Term with its own parameters, nested ones too; a plain string
    that happens to spell a key stays a string."""
    phrase = Term("identity.to_name", name="Ján Novák", inner=Term("identity.herna_note",
                                                                   nick="jano"))
    back = decode_params(json.loads(dumps(encode_params({"to": phrase, "key": "identity.x"}))))
    assert isinstance(back["to"], Term) and back["to"] == "identity.to_name"
    assert back["to"].params["name"] == "Ján Novák"
    assert isinstance(back["to"].params["inner"], Term)
    assert back["to"].params["inner"].params == {"nick": "jano"}
    assert type(back["key"]) is str
    assert t("identity.to_name", "sk", **back["to"].params) == "s hráčom „Ján Novák“"
