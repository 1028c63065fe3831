"""A JSON file read with ijson: chosen arrays one element at a time, the file never whole.

A group's export can hold tens of thousands of deals. ``load(open_file, lazy)`` reads the
file once from end to end with ijson (its C parser, ``yajl2_c``, where the wheel has it;
its pure Python one otherwise), which checks all of it: the text must be UTF-8 (a byte
order mark is skipped) and JSON, so an error anywhere is found before anything is read
from the document. It gives the document with the arrays ``lazy`` names as ``LazyArray``:
``{"sessions": {"deals": {}}}`` leaves the ``sessions`` array and each session's ``deals``
so. Iterating a lazy array reads its elements from the file as they are taken, one at a
time; elements that hold lazy arrays of their own are small without them, so they are
kept from the first pass. Arrays read in the file's order share one reading of it, so a
whole import reads the file twice. Numbers are ints and floats, as ``json.loads`` gives
them; ``NaN`` and ``Infinity`` are refused, as JSON has no such numbers.
"""

from __future__ import annotations

import codecs
import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

import ijson

# Which keys of an object hold arrays to read lazily, and what is lazy within their
# elements: {"sessions": {"deals": {}}}.
Lazy = Mapping[str, "Lazy"]
# Opens the file anew, for reading bytes.
Opener = Callable[[], IO[bytes]]

_CHUNK = 64 * 1024
_OPENING = ("start_map", "start_array")
_CLOSING = ("end_map", "end_array")


class JSONError(ValueError):
    """The file is not JSON: ``message`` says what is wrong and, from ijson, near what."""

    def __init__(self, message: str, *, overflow: bool = False) -> None:
        self.message = message
        self.overflow = overflow  # a number too large for the C parser
        super().__init__(message)


class NotUTF8(ValueError):
    """The file is not UTF-8 text: ``byte`` is the first bad one (from 1)."""

    def __init__(self, byte: int) -> None:
        self.byte = byte
        super().__init__(f"not UTF-8 text (byte {byte})")


class _Checked:
    """The file's bytes as ijson reads them, checked to be UTF-8 on the way, without a
    byte order mark."""

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._read = 0  # bytes read from the file
        self._started = False

    def read(self, size: int = _CHUNK) -> bytes:
        if size == 0:  # ijson asks for nothing to learn whether the file gives bytes
            return b""
        data = self._handle.read(size if size > 0 else _CHUNK)
        start = self._read
        self._read += len(data)
        pending = len(self._decoder.getstate()[0])
        try:
            self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise NotUTF8(start - pending + exc.start + 1) from None
        if not self._started and data:
            self._started = True
            data = data.removeprefix(codecs.BOM_UTF8)
        return data


class _Reader:
    """One reading of the file as ijson's events, counted, so that a lazy array found at
    event ``n`` of the first pass is found again by skipping to it."""

    def __init__(self, open_file: Opener, backend: Any) -> None:
        self._open = open_file
        self._backend = backend
        self._handle: IO[bytes] | None = None
        self._events: Iterator[tuple[str, Any]] = iter(())
        self.taken = 0  # events taken from the start of the file

    def restart(self) -> None:
        self.close()
        self._handle = self._open()
        self._events = self._backend.basic_parse(_Checked(self._handle), use_float=True)
        self.taken = 0

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def next(self) -> tuple[str, Any]:
        try:
            event = next(self._events)
        except ijson.JSONError as exc:
            raise JSONError(_said(exc), overflow="overflow" in str(exc)) from None
        self.taken += 1
        return event

    def value(self, first: tuple[str, Any]) -> Any:
        """The value that starts with the event ``first``, built from the events."""
        event, value = first
        if event not in _OPENING:
            return value
        builder = ijson.ObjectBuilder()
        builder.event(event, value)
        depth = 1
        while depth:
            event, value = self.next()
            builder.event(event, value)
            depth += (event in _OPENING) - (event in _CLOSING)
        return builder.value

    def skip(self, first: tuple[str, Any]) -> None:
        """Read past the value that starts with the event ``first``."""
        depth = int(first[0] in _OPENING)
        while depth:
            event, _value = self.next()
            depth += (event in _OPENING) - (event in _CLOSING)


def _said(exc: Exception) -> str:
    """ijson's complaint on one line: yajl's reason and the text it points at, or the
    Python parser's message."""
    text = str(exc)
    reason, _sep, rest = text.partition("\n")
    near = rest.partition("\n")[0].strip()
    reason = reason.strip().rstrip(".")
    return f"{reason}, near {near!r}" if near else reason


class LazyArray:
    """An array of the file, its elements read from it each time it is iterated."""

    def __init__(self, reader: _Reader, start: int, lazy: Lazy, kept: list[Any] | None) -> None:
        self._reader = reader
        self._start = start  # the number of events up to and with its start_array
        self._lazy = lazy
        self._kept = kept

    def __iter__(self) -> Iterator[Any]:
        if self._kept is not None:
            return iter(self._kept)
        return self._elements()

    def __repr__(self) -> str:
        return f"<LazyArray at event {self._start}>"

    def _elements(self) -> Iterator[Any]:
        reader = self._reader
        if reader.taken > self._start:  # passed already: read the file from its start
            reader.restart()
        while reader.taken < self._start:
            reader.next()
        while True:
            first = reader.next()
            if first[0] == "end_array":
                return
            yield _value(reader, first, self._lazy)


def _value(reader: _Reader, first: tuple[str, Any], lazy: Lazy) -> Any:
    if lazy and first[0] == "start_map":
        return _object(reader, lazy)
    return reader.value(first)


def _object(reader: _Reader, lazy: Lazy) -> dict[str, Any]:
    """An object whose keys in ``lazy`` that hold arrays are left as ``LazyArray``."""
    out: dict[str, Any] = {}
    while True:
        event, key = reader.next()
        if event == "end_map":
            return out
        first = reader.next()
        if key in lazy and first[0] == "start_array":
            out[key] = _array(reader, lazy[key])
        else:
            out[key] = _value(reader, first, {})


def _array(reader: _Reader, lazy: Lazy) -> LazyArray:
    """A lazy array read past (its start_array just taken): kept if its elements hold lazy
    arrays of their own, else only checked."""
    start = reader.taken
    kept: list[Any] | None = [] if lazy else None
    while True:
        first = reader.next()
        if first[0] == "end_array":
            return LazyArray(reader, start, lazy, kept)
        if kept is not None:
            kept.append(_value(reader, first, lazy))
        else:
            reader.skip(first)


def _read(open_file: Opener, lazy: Lazy, backend: Any) -> tuple[_Reader, Any]:
    """The reader and the document after the first pass over the whole file."""
    reader = _Reader(open_file, backend)
    try:
        reader.restart()
        document = _value(reader, reader.next(), lazy)
        try:
            reader.next()  # the end: ijson refuses anything after the document itself
        except StopIteration:
            return reader, document
        raise JSONError("extra data after the document")
    except BaseException:
        reader.close()
        raise


@contextlib.contextmanager
def load(open_file: Opener, lazy: Lazy) -> Iterator[Any]:
    """The JSON document of the file ``open_file`` opens, with the arrays ``lazy`` names
    left as ``LazyArray``, to be read within the ``with`` block (the file is closed at its
    end). Raises ``NotUTF8`` or ``JSONError`` on entering.

    A whole number beyond 64 bits, which the C parser refuses, has the file read by
    ijson's Python parser instead, as ``json.loads`` reads any whole number."""
    try:
        reader, document = _read(open_file, lazy, ijson)
    except JSONError as exc:
        if not exc.overflow or ijson.backend == "python":
            raise
        reader, document = _read(open_file, lazy, ijson.get_backend("python"))
    try:
        yield document
    finally:
        reader.close()
