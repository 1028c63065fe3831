"""Aligned monospaced listings for the PDFs: a deal or a ledger line per text line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


def _pad(text: str, column: Column) -> str:
    if not column.width:
        return text
    return f"{text[: column.width]:{column.align}{column.width}}"


def _line(columns: Sequence[Column], cells: Sequence[str]) -> str:
    return " ".join(_pad(text, column) for column, text in zip(columns, cells, strict=True))


def mono_blocks(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], total: Sequence[str] = ()
) -> list[SafeString]:
    """Rows as aligned monospaced lines under a bold header line, ``ROWS_PER_BLOCK`` a block,
    and an optional bold ``total`` line at the end.

    Each block is the escaped HTML content of a ``<pre>``.
    """
    header = f'<span class="head">{escape(_line(columns, [c.title for c in columns]))}</span>'
    blocks = []
    for start in range(0, max(len(rows), 1), ROWS_PER_BLOCK):
        lines = [header]
        lines += [
            escape(_line(columns, row).rstrip()) for row in rows[start : start + ROWS_PER_BLOCK]
        ]
        blocks.append(lines)
    if total:
        blocks[-1].append(f'<span class="total">{escape(_line(columns, total).rstrip())}</span>')
    # Every text in them was escaped above.
    return [mark_safe("\n".join(lines)) for lines in blocks]
