"""Text answers written as they are read: many small parts handed on in fewer, larger
pieces (the export, the per-opponent ledger)."""

from __future__ import annotations

from collections.abc import Iterator


def in_pieces(parts: Iterator[str], size: int) -> Iterator[str]:
    """The first part alone (it is ready before the database is asked anything, so the
    first byte goes out at once), then the others joined into pieces of about ``size``
    characters."""
    first = next(parts, None)
    if first is not None:
        yield first
    pieces: list[str] = []
    gathered = 0
    for part in parts:
        pieces.append(part)
        gathered += len(part)
        if gathered >= size:
            yield "".join(pieces)
            pieces, gathered = [], 0
    yield "".join(pieces)
