"""games.lib.lazyjson: the same values as json.loads, chosen arrays decoded as they are read."""

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.lib.lazyjson import JSONError, Lazy, LazyArray, loads

LAZY: Lazy = {"sessions": {"deals": {}}}

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
sessions = st.lists(
    st.dictionaries(st.sampled_from(["deals", "date", "seats"]), json_values, max_size=3)
    | st.fixed_dictionaries(
        {"deals": st.lists(json_values, max_size=4)}, optional={"x": json_values}
    )
    | json_values,
    max_size=4,
)
documents = st.fixed_dictionaries(
    {"format": st.just("scorekeeper-group/1")},
    optional={"sessions": sessions | json_values, "players": json_values},
)


def plain(value: Any) -> Any:
    """The value with every LazyArray read into a list."""
    if isinstance(value, LazyArray):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


@settings(max_examples=300, deadline=None)
@given(documents | json_values, st.sampled_from([None, 0, 2]))
def test_loads_gives_what_json_loads_gives(document: Any, indent: int | None) -> None:
    text = json.dumps(document, indent=indent, ensure_ascii=False)

    loaded = loads(text, LAZY)

    assert plain(loaded) == json.loads(text)
    assert plain(loaded) == plain(loaded)  # a lazy array can be read again


def test_only_the_named_arrays_are_lazy() -> None:
    text = json.dumps({"sessions": [{"deals": [1, {"deals": [2]}], "seats": [3]}], "deals": [4]})

    loaded = loads(text, LAZY)

    assert isinstance(loaded["sessions"], LazyArray)
    assert loaded["deals"] == [4]
    session = next(iter(loaded["sessions"]))
    assert isinstance(session["deals"], LazyArray) and session["seats"] == [3]
    assert list(session["deals"]) == [1, {"deals": [2]}]


def test_each_deal_is_decoded_anew_when_read() -> None:
    """Deals are not kept: each reading decodes them again, one at a time."""
    loaded = loads('{"sessions": [{"deals": [{"n": 1}, {"n": 2}]}]}', LAZY)
    deals = next(iter(loaded["sessions"]))["deals"]

    first, again = list(deals), list(deals)

    assert first == again and first[0] is not again[0]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"sessions": [{"deals": [1, 2}]}', "expected ',' or ']' at line 1, column 30"),
        ('{"sessions": [1,\n 2', "expected ',' or ']' at line 2, column 3"),
        ('{"sessions": []} []', "extra data after the document at line 1, column 18"),
        ('{"a": NaN}', "NaN is not a number JSON allows at line 1, column 7"),
        ('{"sessions": [Infinity]}', "Infinity is not a number JSON allows"),
        ("{'a': 1}", "expected a name in double quotes at line 1, column 2"),
        ('{"a" 1}', "expected ':' at line 1, column 6"),
        ("", "Expecting value at line 1, column 1"),
    ],
)
def test_what_is_not_json_is_refused_with_where(text: str, error: str) -> None:
    with pytest.raises(JSONError) as refused:
        loads(text, LAZY)

    assert refused.value.message.startswith(error)
