"""games.lib.jsonfile: ijson's reading of a file gives the same values as json.loads, the
chosen arrays read from the file as they are iterated."""

import io
import json
from contextlib import AbstractContextManager
from typing import IO, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.lib.jsonfile import JSONError, Lazy, LazyArray, NotUTF8, load

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


class Opened:
    """Opens ``content`` as a file, counting how often."""

    def __init__(self, content: bytes) -> None:
        self.content = content
        self.count = 0

    def __call__(self) -> IO[bytes]:
        self.count += 1
        return io.BytesIO(self.content)


def loaded(text: str | bytes) -> AbstractContextManager[Any]:
    content = text.encode() if isinstance(text, str) else text
    return load(Opened(content), LAZY)


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
def test_load_gives_what_json_loads_gives(document: Any, indent: int | None) -> None:
    text = json.dumps(document, indent=indent, ensure_ascii=False)

    with loaded(text) as value:
        assert plain(value) == json.loads(text)
        assert plain(value) == plain(value)  # a lazy array can be read again


def test_only_the_named_arrays_are_lazy() -> None:
    text = json.dumps({"sessions": [{"deals": [1, {"deals": [2]}], "seats": [3]}], "deals": [4]})

    with loaded(text) as value:
        assert isinstance(value["sessions"], LazyArray)
        assert value["deals"] == [4]
        session = next(iter(value["sessions"]))
        assert isinstance(session["deals"], LazyArray) and session["seats"] == [3]
        assert list(session["deals"]) == [1, {"deals": [2]}]


def test_each_deal_is_read_anew_from_the_file() -> None:
    """Deals are not kept: each reading builds them again, one at a time."""
    with loaded('{"sessions": [{"deals": [{"n": 1}, {"n": 2}]}]}') as value:
        deals = next(iter(value["sessions"]))["deals"]

        first, again = list(deals), list(deals)

    assert first == again and first[0] is not again[0]


def test_arrays_read_in_the_files_order_share_one_reading() -> None:
    """A check of the whole file, then one more reading for every session's deals in turn
    (an import's order); going back opens the file again."""
    sessions = [{"date": k, "deals": [{"n": k, "d": j} for j in range(3)]} for k in range(5)]
    opened = Opened(json.dumps({"sessions": sessions, "payments": []}).encode())

    with load(opened, LAZY) as value:
        assert opened.count == 1
        read = [(s["date"], list(s["deals"])) for s in value["sessions"]]
        assert opened.count == 2
        assert read == [(s["date"], s["deals"]) for s in sessions]
        assert list(next(iter(value["sessions"]))["deals"]) == sessions[0]["deals"]
        assert opened.count == 3


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (
            '{"sessions": [{"deals": [1, 2}]}',
            "parse error: after array element, I expect ',' or ']', near '{\"sessions\"",
        ),
        ('{"sessions": [1,\n 2', "parse error: premature EOF"),
        ('{"sessions": []} []', "parse error: trailing garbage"),
        ('{"a": NaN}', "lexical error: invalid char in json text, near '{\"a\": NaN}'"),
        ('{"sessions": [Infinity]}', "lexical error: invalid char in json text"),
        ("{'a': 1}", "lexical error: invalid char in json text"),
        ('{"a" 1}', "parse error: object key and value must be separated by a colon"),
        ("", "parse error: premature EOF"),
    ],
)
def test_what_is_not_json_is_refused_with_why(text: str, error: str) -> None:
    with pytest.raises(JSONError) as refused, loaded(text):
        pass

    assert refused.value.message.startswith(error)


def test_a_byte_that_is_not_utf8_is_named_and_a_byte_order_mark_is_skipped() -> None:
    with pytest.raises(NotUTF8) as refused, loaded('{"a": "\u00e9'.encode() + b'\xff"}'):
        pass
    assert refused.value.byte == 10  # after 7 bytes and the two of "é"
    with loaded(b"\xef\xbb\xbf" + json.dumps({"sessions": [{"deals": [1]}]}).encode()) as value:
        assert plain(value) == {"sessions": [{"deals": [1]}]}


def test_a_whole_number_beyond_64_bits_is_read_as_json_loads_reads_it() -> None:
    """The C parser refuses it; the file is then read by ijson's Python parser."""
    text = json.dumps({"n": 2**64, "sessions": [{"deals": [-(2**70), 1.5]}]})

    with loaded(text) as value:
        assert plain(value) == json.loads(text)


@pytest.mark.parametrize("padding", [0, 1, 2, 3, 5, 65_530])
def test_an_escaped_half_of_a_surrogate_pair_is_kept_as_json_loads_keeps_it(padding: int) -> None:
    """The C parser would read "x\\ud800" as "x?"; the file is then read by ijson's Python
    parser, which keeps the half for the import to refuse. Padding moves the escape across
    the parser's reads."""
    for escaped in ("x\\ud800", "x\\udc00y", "\\ud83d\\ude00 pair", "\\uDBFF"):
        text = '{"pad": "' + "p" * padding + '", "name": "' + escaped + '", "sessions": []}'
        with loaded(text) as value:
            assert plain(value) == json.loads(text)


@pytest.mark.parametrize(
    "document",
    [
        {"sessions": [{"deals": [1, 2]}], "sessions.item.deals": [[3]]},
        {"sessions": [{"deals": [1], "deals.item": 4}, {"deals": [2]}]},
        {"sessions": [{"deals": {"item": 5}}, {"deals": [6, 7]}]},
    ],
)
def test_keys_that_would_confuse_ijsons_paths_have_the_file_read_whole(
    document: dict[str, Any],
) -> None:
    """A key with a dot, or an object under a lazy key, would be read as deals of another
    session by ijson's paths: such a file (no export is one) is read whole instead."""
    text = json.dumps(document)

    with loaded(text) as value:
        assert plain(value) == json.loads(text)


def test_a_key_given_twice_keeps_the_last_as_json_loads_does() -> None:
    text = '{"sessions": [{"deals": [1]}], "sessions": [{"deals": [2, 3]}]}'

    with loaded(text) as value:
        assert plain(value) == json.loads(text) == {"sessions": [{"deals": [2, 3]}]}
