"""JSON text decoded as it is read: chosen arrays one element at a time.

A group's export can hold tens of thousands of deals. Decoded whole, it takes several
times the file's size in memory; ``loads(text, lazy={"sessions": {"deals": {}}})`` instead
gives the document with its ``sessions`` array (and each session's ``deals``) as a
``LazyArray``, whose elements are decoded one by one while it is iterated, so only one deal
at a time is ever a Python object. Everything else is decoded as ``json.loads`` would.

The whole text is checked when it is loaded (each lazy array is walked once to find its
end), so a syntax error anywhere is found before anything is read from the document.
``NaN`` and ``Infinity``, which Python's decoder accepts, are refused: JSON has no such
numbers. An error is a ``JSONError`` with the line and column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

# Which keys of an object hold arrays to decode lazily, and what is lazy within their
# elements: {"sessions": {"deals": {}}}.
Lazy = Mapping[str, "Lazy"]

_SPACE = re.compile(r"[ \t\n\r]*")


class JSONError(ValueError):
    """The text is not JSON: ``message`` says what is wrong and where."""

    def __init__(self, text: str, what: str, position: int) -> None:
        line = text.count("\n", 0, position) + 1
        column = position - text.rfind("\n", 0, position)
        self.message = f"{what} at line {line}, column {column}"
        super().__init__(self.message)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_DECODER = json.JSONDecoder(parse_constant=_constant)


def loads(text: str, lazy: Lazy) -> Any:
    """The JSON document in ``text``, with the arrays ``lazy`` names left as LazyArray."""
    value, end = _value(text, _skip(text, 0), lazy)
    end = _skip(text, end)
    if end != len(text):
        raise JSONError(text, "extra data after the document", end)
    return value


class LazyArray:
    """An array of the text, decoded one element at a time each time it is iterated.

    Elements that have lazy arrays of their own are small once those are left out, so they
    are kept after the first walk; others are decoded again on each iteration.
    """

    def __init__(self, text: str, start: int, lazy: Lazy) -> None:
        self._text = text
        self._start = start  # at its "["
        self._lazy = lazy
        self._kept: list[Any] | None = None
        self.end = 0  # just after its "]", once walked
        if lazy:
            self._kept = list(self._elements())
        else:
            for _ in self._elements():  # decoded to check it and find its end, not kept
                pass

    def __iter__(self) -> Iterator[Any]:
        if self._kept is not None:
            return iter(self._kept)
        return self._elements()

    def __repr__(self) -> str:
        return f"<LazyArray at {self._start}>"

    def _elements(self) -> Iterator[Any]:
        text = self._text
        position = _skip(text, self._start + 1)
        if text.startswith("]", position):
            self.end = position + 1
            return
        while True:
            value, position = _value(text, position, self._lazy)
            yield value
            position = _skip(text, position)
            if text.startswith(",", position):
                position = _skip(text, position + 1)
            elif text.startswith("]", position):
                self.end = position + 1
                return
            else:
                raise JSONError(text, "expected ',' or ']'", position)


def _skip(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _value(text: str, position: int, lazy: Lazy) -> tuple[Any, int]:
    if lazy and text.startswith("{", position):
        return _object(text, position, lazy)
    try:
        value, end = _DECODER.raw_decode(text, position)
    except json.JSONDecodeError as exc:
        raise JSONError(text, exc.msg, exc.pos) from None
    except ValueError as exc:  # NaN, Infinity
        raise JSONError(text, str(exc), position) from None
    return value, end


def _object(text: str, position: int, lazy: Lazy) -> tuple[dict[str, Any], int]:
    out: dict[str, Any] = {}
    position = _skip(text, position + 1)
    if text.startswith("}", position):
        return out, position + 1
    while True:
        if not text.startswith('"', position):
            raise JSONError(text, "expected a name in double quotes", position)
        key, position = _value(text, position, {})
        position = _skip(text, position)
        if not text.startswith(":", position):
            raise JSONError(text, "expected ':'", position)
        position = _skip(text, position + 1)
        if key in lazy and text.startswith("[", position):
            array = LazyArray(text, position, lazy[key])
            out[key], position = array, array.end
        else:
            out[key], position = _value(text, position, {})
        position = _skip(text, position)
        if text.startswith(",", position):
            position = _skip(text, position + 1)
        elif text.startswith("}", position):
            return out, position + 1
        else:
            raise JSONError(text, "expected ',' or '}'", position)
