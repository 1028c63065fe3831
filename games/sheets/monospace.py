"""Aligned monospaced listings for the PDFs: a deal or a ledger line per text line.

Columns are counted in display cells, as a terminal counts them: a Chinese character takes
two (East Asian Width "W" or "F"), a combining mark (the tones of a Vietnamese name written
decomposed) none. The monospaced font draws a Chinese character narrower than two of its
cells, so each run of them is set in a ``<span class="wide">`` that the sheet's stylesheet
spaces out to exactly two cells a character (``templates/pdf/base.html``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# Long listings (a deal per line) are set as monospaced text rather than HTML tables, and
# without a span per cell: WeasyPrint lays out every table cell and every inline box on its
# own, and a 200-deal table took several seconds where these lines take well under one.
ROWS_PER_BLOCK = 50


@dataclass(frozen=True)
class Column:
    title: str
    width: int  # characters; 0 for a last column of free text
    align: str = ">"


def cells(char: str) -> int:
    """How many display cells ``char`` takes: 2 for a wide one, 0 for a combining mark."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """How many cells ``text`` takes in a monospaced line: "王小明" 6, "Nguyễn" 6."""
    return sum(cells(char) for char in text)


def pad(text: str, width: int, align: str = ">") -> str:
    """``text`` cut to ``width`` cells (never half a wide character, never a mark without
    its letter) and filled with spaces to exactly ``width``: ``align`` "<", ">" or "^"."""
    kept, used = [], 0
    for char in text:
        size = cells(char)
        if used + size > width:
            break
        kept.append(char)
        used += size
    gap = width - used
    left = {"<": 0, ">": gap, "^": gap // 2}[align]
    return " " * left + "".join(kept) + " " * (gap - left)


def _spaced(html: str) -> str:
    """Escaped text with each run of wide characters in a ``<span class="wide">``."""
    if html.isascii():
        return html
    return "".join(
        f'<span class="wide">{"".join(run)}</span>' if wide else "".join(run)
        for wide, run in groupby(html, key=lambda char: cells(char) == 2)
    )


def _line(columns: Sequence[Column], texts: Sequence[str]) -> str:
    """One line as escaped HTML: the aligned columns (wide runs spaced), then the free text."""
    parts = []
    for column, text in zip(columns, texts, strict=True):
        if column.width:
            parts.append(_spaced(escape(pad(text, column.width, column.align))))
        else:
            parts.append(escape(text))
    return " ".join(parts).rstrip()


def mono_blocks(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], total: Sequence[str] = ()
) -> list[SafeString]:
    """Rows as aligned monospaced lines under a bold header line, ``ROWS_PER_BLOCK`` a block,
    and an optional bold ``total`` line at the end.

    Each block is the escaped HTML content of a ``<pre>``.
    """
    header = f'<span class="head">{_line(columns, [c.title for c in columns])}</span>'
    blocks = []
    for start in range(0, max(len(rows), 1), ROWS_PER_BLOCK):
        lines = [header]
        lines += [_line(columns, row) for row in rows[start : start + ROWS_PER_BLOCK]]
        blocks.append(lines)
    if total:
        blocks[-1].append(f'<span class="total">{_line(columns, total)}</span>')
    # Every text in them was escaped above.
    return [mark_safe("\n".join(lines)) for lines in blocks]
