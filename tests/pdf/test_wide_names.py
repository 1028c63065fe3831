"""The settlement sheet's monospaced deal listing keeps its columns with Chinese names (two
cells a character) and Vietnamese ones (a letter and its marks one cell), on the page as in
the text (games/sheets/monospace.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import unicodedata
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games import services
from games.models import Session
from games.sheets import compose
from games.sheets.monospace import Column, display_width, mono_blocks, pad
from tests.services.hands import HANDS

WANG = "王小明"
ANH = "Nguyễn Thị Ánh"
NAMES = (WANG, ANH, "Bob", "陳大文")


def test_display_width_counts_cells_as_a_terminal_does() -> None:
    decomposed = unicodedata.normalize("NFD", ANH)
    assert len(decomposed) > len(ANH)
    assert [display_width(name) for name in (WANG, ANH, decomposed, "Bob")] == [6, 14, 14, 3]
    assert pad(WANG, 7) == " 王小明"
    assert pad(WANG, 5, "<") == "王小 "  # never half a character
    assert pad(decomposed, 6, "<") == unicodedata.normalize("NFD", "Nguyễn")  # marks kept
    assert pad("ab", 6, "^") == "  ab  "


def plain(line: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", line))


def cut(line: str, first: int, last: int) -> str:
    """The characters of ``line`` between display cells ``first`` and ``last``."""
    out, at = [], 0
    for char in line:
        if first <= at < last or (at == last and not display_width(char)):
            out.append(char)
        at += display_width(char)
    return "".join(out)


def test_the_columns_start_at_the_same_cell_on_every_line() -> None:
    columns = [Column("Deal", 4), Column(WANG, 8, "<"), Column("Nguyễn", 8), Column("Notes", 0)]
    decomposed = unicodedata.normalize("NFD", "Đặng Thị")
    rows = [["1", "+12", "-3", f"{WANG} fouls"], ["12", decomposed, "王", "x < y"]]
    total = ["Total", "9", "-9", "units"]
    (block,) = mono_blocks(columns, rows, total=total)
    lines = [plain(line) for line in block.split("\n")]
    expected = [[column.title for column in columns], *rows, total]
    assert len(lines) == len(expected)
    # Cells 0-4, 5-13 and 14-22 hold the columns, padded; the notes start at cell 23.
    for line, texts in zip(lines, expected, strict=True):
        assert cut(line, 0, 4) == pad(texts[0], 4)
        assert cut(line, 5, 13) == pad(texts[1], 8, "<")
        assert cut(line, 14, 22) == pad(texts[2], 8)
        assert cut(line, 23, 99) == texts[3]
    # Only the wide runs of the columns are spaced, each in one span; text stays escaped.
    assert block.count('<span class="wide">') == 2
    assert f"{WANG} fouls" in block  # the notes are free text, not spaced
    assert "x &lt; y" in block


@pytest.fixture
def wide_night(ann_user: User) -> Session:
    group = services.create_group(ann_user, "Phố cổ", "EUR", Decimal("0.5"), "classic-1-6")
    seats = [services.add_player(group, name, by=ann_user) for name in NAMES]
    session = services.start_session(group, seats, ann_user)
    for k in range(3):
        hands = "ABCD"[k:] + "ABCD"[:k]
        players = [{"name": name, **HANDS[h]} for name, h in zip(NAMES, hands, strict=True)]
        services.record_deal(session, players, ann_user)
    return session


def word_lines(content: bytes) -> list[list[tuple[float, str]]]:
    """Every line of the PDF's pages as poppler places its words: (left edge, word)."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as pdf:
        pdf.write(content)
        pdf.flush()
        html = subprocess.run(
            ["pdftotext", "-bbox", pdf.name, "-"], check=True, capture_output=True, text=True
        ).stdout
    lines: dict[tuple[int, float], list[tuple[float, str]]] = {}
    for page, body in enumerate(html.split("<page ")):
        for x, bottom, word in WORD.findall(body):
            lines.setdefault((page, round(float(bottom) * 2) / 2), []).append(
                (float(x), unescape(word))
            )
    return [sorted(words) for _key, words in sorted(lines.items())]


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<')
# DejaVu Sans Mono's advance at the listing's 7.4 points.
CELL = 7.4 * 0.602


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext")
@pytest.mark.parametrize(("language", "deal"), [("zh-hans", "局"), ("vi", "Ván")])
def test_the_sheets_listing_lines_up_under_chinese_and_vietnamese_names(
    wide_night: Session, language: str, deal: str
) -> None:
    with translation.override(language):
        content = compose.render("sheet", wide_night)
    lines = word_lines(content)
    at = next(
        k for k, line in enumerate(lines) if [w for _x, w in line][:3] == [deal, WANG, "Nguyễn"]
    )
    header, first = lines[at], lines[at + 1]
    assert first[0][1] == "1"
    start = first[0][0] - 4 * CELL  # "    1": the deal's number ends its 5 cells

    def cells_in(line: list[tuple[float, str]]) -> dict[str, float]:
        return {word: round((x - start) / CELL, 1) for x, word in line}

    # Where each word starts, in cells from the line's start: the names right-aligned over
    # their units (7 cells of each 11-cell column), a name longer than 7 cells from its
    # column's start; the notes after the four columns, at cell 54, under their title.
    placed = cells_in(header)
    assert [placed[name] for name in (WANG, "Nguyễn", "Bob", "陳大文")] == [7.0, 18.0, 34.0, 43.0]
    notes = header[[w for _x, w in header].index("陳大文") + 1][1]
    assert cells_in(header)[notes] == 54.0
    row = cells_in(first)
    assert row["-8"] == 11.0 and row["+4"] == 23.0 and row["+3"] == 35.0 and row["+1"] == 47.0
    assert row["Nguyễn"] == 54.0
