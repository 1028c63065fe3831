"""A JSON file read with ijson: chosen arrays one element at a time, the file never whole.

A group's export can hold tens of thousands of deals. ``load(open_file, lazy)`` reads the
file once from end to end with ijson (its C parser, ``yajl2_c``, where the wheel has it;
its pure Python one otherwise), which checks all of it: the text must be UTF-8 (a byte
order mark is skipped) and JSON, so an error anywhere is found before anything is read
from the document. It gives the document with the arrays ``lazy`` names as ``LazyArray``:
``{"sessions": {"deals": {}}}`` leaves the ``sessions`` array and each session's ``deals``
so. Iterating a lazy array reads its elements from the file as they are taken, one at a
time, each built by ijson (``items``, in C with ``yajl2_c``); elements that hold lazy
arrays of their own are small without them, so they are kept from the first pass. Arrays
read in the file's order share one reading of it, so a whole import reads the file
twice. Numbers are ints and floats, as ``json.loads`` gives them; ``NaN`` and
``Infinity`` are refused, as JSON has no such numbers.
"""

from __future__ import annotations

import codecs
import contextlib
import re
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


class _Surrogates(Exception):
    """The file writes a half of a surrogate pair as an escape (``\\ud800``), which the C
    parser would turn into "?": the Python parser keeps it, for the import to refuse."""


# An escaped surrogate, whole pair or half: a file with one is read by the Python parser.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _Checked:
    """The file's bytes as ijson reads them, checked to be UTF-8 on the way, without a
    byte order mark; with ``surrogates``, checked for escaped surrogates too."""

    def __init__(self, handle: IO[bytes], *, surrogates: bool = False) -> None:
        self._handle = handle
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._read = 0  # bytes read from the file
        self._started = False
        self._surrogates = surrogates
        self._tail = ""  # the last characters read, for an escape split between reads

    def read(self, size: int = _CHUNK) -> bytes:
        if size == 0:  # ijson asks for nothing to learn whether the file gives bytes
            return b""
        data = self._handle.read(size if size > 0 else _CHUNK)
        start = self._read
        self._read += len(data)
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise NotUTF8(start - pending + exc.start + 1) from None
        if self._surrogates:
            window = self._tail + text
            if _SURROGATE_ESCAPE.search(window):
                raise _Surrogates
            self._tail = window[-4:]
        if not self._started and data:
            self._started = True
            data = data.removeprefix(codecs.BOM_UTF8)
        return data


class _Ambiguous(Exception):
    """ijson's paths would not tell the lazy arrays' elements from other values."""


def _json_error(exc: Exception) -> JSONError:
    return JSONError(_said(exc), overflow="overflow" in str(exc))


class _Reader:
    """The readings of the file: the first pass as ijson's events, then, for the lazy
    arrays, one reading per path (``sessions.item.deals``) that ijson's ``items`` builds
    each element of, shared by the arrays of that path in the file's order."""

    def __init__(self, open_file: Opener, backend: Any) -> None:
        self._open = open_file
        self._backend = backend
        self._surrogates = backend.backend_name != "python"
        self._handles: list[IO[bytes]] = []
        self._events: Iterator[tuple[str, Any]] = iter(())
        # Elements seen so far in the first pass under each path of lazy arrays.
        self.totals: dict[str, int] = {}
        # Each path's reading of elements: [the items, how many were taken].
        self._items: dict[str, list[Any]] = {}

    def _opened(self) -> _Checked:
        handle = self._open()
        self._handles.append(handle)
        return _Checked(handle, surrogates=self._surrogates)

    def start(self) -> None:
        self._events = self._backend.basic_parse(self._opened(), use_float=True)

    def close(self) -> None:
        for handle in self._handles:
            handle.close()
        self._handles = []

    def next(self) -> tuple[str, Any]:
        try:
            return next(self._events)
        except ijson.JSONError as exc:
            raise _json_error(exc) from None

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
        if first[0] not in _OPENING:
            return
        depth = 1
        try:
            for event, _value in self._events:
                if event in _OPENING:
                    depth += 1
                elif event in _CLOSING:
                    depth -= 1
                    if not depth:
                        return
        except ijson.JSONError as exc:
            raise _json_error(exc) from None

    def elements(self, path: str, offset: int, count: int) -> Iterator[Any]:
        """The ``count`` elements under ``path`` from the ``offset``-th: from the path's
        reading where it has not passed them, else from a new one."""
        reading = self._items.get(path)
        if reading is None or reading[1] > offset:
            items = self._backend.items(self._opened(), f"{path}.item", use_float=True)
            reading = self._items[path] = [items, 0]
        for _ in range(offset - reading[1]):
            next(reading[0])
            reading[1] += 1
        for _ in range(count):
            value = next(reading[0])
            reading[1] += 1
            yield value


def _said(exc: Exception) -> str:
    """ijson's complaint on one line: yajl's reason and the text it points at, or the
    Python parser's message."""
    text = str(exc)
    reason, _sep, rest = text.partition("\n")
    near = rest.partition("\n")[0].strip()
    reason = reason.strip().rstrip(".")
    return f"{reason}, near {near!r}" if near else reason


class LazyArray:
    """An array of the file, its elements read from it each time it is iterated (or,
    when they hold lazy arrays of their own, kept from the first pass)."""

    def __init__(self, reader: _Reader, path: str, offset: int, kept: list[Any] | None) -> None:
        self._reader = reader
        self._path = path  # ijson's path to it: "sessions.item.deals"
        self._offset = offset  # elements under that path before its own
        self._kept = kept
        self.count = len(kept) if kept is not None else 0

    def __iter__(self) -> Iterator[Any]:
        if self._kept is not None:
            return iter(self._kept)
        return self._reader.elements(self._path, self._offset, self.count)

    def __repr__(self) -> str:
        return f"<LazyArray {self._path} from {self._offset}>"


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _value(reader: _Reader, first: tuple[str, Any], lazy: Lazy, path: str) -> Any:
    if lazy and first[0] == "start_map":
        return _object(reader, lazy, path)
    return reader.value(first)


def _object(reader: _Reader, lazy: Lazy, path: str) -> dict[str, Any]:
    """An object whose keys in ``lazy`` that hold arrays are left as ``LazyArray``. Its
    keys must keep ijson's paths to them apart: none twice, none with a dot, and an object
    under a lazy key would read as an array's elements."""
    out: dict[str, Any] = {}
    while True:
        event, key = reader.next()
        if event == "end_map":
            return out
        if key in out or "." in key:
            raise _Ambiguous
        first = reader.next()
        if key in lazy and first[0] == "start_array":
            out[key] = _array(reader, lazy[key], _at(path, key))
        elif key in lazy and first[0] == "start_map":
            raise _Ambiguous
        else:
            out[key] = _value(reader, first, {}, "")


def _array(reader: _Reader, lazy: Lazy, path: str) -> LazyArray:
    """A lazy array read past (its start_array just taken): kept if its elements hold lazy
    arrays of their own, else only checked and counted."""
    if lazy:
        kept: list[Any] = []
        while (first := reader.next())[0] != "end_array":
            kept.append(_value(reader, first, lazy, f"{path}.item"))
        return LazyArray(reader, path, 0, kept)
    offset = count = reader.totals.get(path, 0)
    while (first := reader.next())[0] != "end_array":
        reader.skip(first)
        count += 1
    reader.totals[path] = count
    array = LazyArray(reader, path, offset, None)
    array.count = count - offset
    return array


def _read(open_file: Opener, lazy: Lazy, backend: Any) -> tuple[_Reader, Any]:
    """The reader and the document after the first pass over the whole file; a file whose
    lazy arrays ijson's paths cannot tell apart is read whole instead (no such file is an
    export: it takes a key given twice, or with a dot, on the way to them)."""
    reader = _Reader(open_file, backend)
    try:
        reader.start()
        try:
            document = _value(reader, reader.next(), lazy, "")
        except _Ambiguous:
            reader.close()
            reader.start()
            document = _value(reader, reader.next(), {}, "")
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
    except _Surrogates:
        reader, document = _read(open_file, lazy, ijson.get_backend("python"))
    except JSONError as exc:
        if not exc.overflow or ijson.backend == "python":
            raise
        reader, document = _read(open_file, lazy, ijson.get_backend("python"))
    try:
        yield document
    finally:
        reader.close()
