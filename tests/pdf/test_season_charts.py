"""The season's charts as SVG text (games/sheets/season_charts.py)."""

from __future__ import annotations

import re
from decimal import Decimal
from xml.etree import ElementTree

from django.utils import translation

from games.sheets.season_charts import compact, head_to_head_chart, nights_chart

D = Decimal


def test_compact_amounts_fit_a_cell() -> None:
    assert [compact(D(x)) for x in ("0", "-3.755", "12.34", "-123.4", "25000")] == [
        "0",
        "-3.76",
        "+12.3",
        "-123",
        "+25k",
    ]
    with translation.override("vi"):
        assert [compact(D(x)) for x in ("-3.755", "1250", "25000")] == ["-3,76", "+1.250", "+25k"]


def test_the_nights_chart_ticks_read_as_the_locale_writes_numbers() -> None:
    series = {"Ann": [D("1500.5"), D("3000")], "Bob": [D("-1500.5"), D("-3000")]}
    with translation.override("vi"):
        svg = nights_chart(["1/1", "8/1"], series)
    ElementTree.fromstring(svg)
    ticks = re.findall(r'text-anchor="end"[^>]*>([^<]+)</text>', svg)
    assert ticks == ["-4.000", "-2.000", "0", "2.000", "4.000"]


def test_a_night_missed_leaves_a_gap_and_names_are_escaped() -> None:
    svg = nights_chart(
        ["1/1", "8/1", "15/1"],
        {"<Ann>": [D(1), None, D(3)], "Bob": [D(-1), D(0), D(2)]},
        title="money & more",
        page=True,
    )
    root = ElementTree.fromstring(svg)  # well-formed: every name and title escaped
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    # Ann's two points are apart (no line across the night she missed); Bob's one line.
    assert [len(line.get("points", "").split()) for line in lines] == [3]
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 5
    assert 'viewBox="0 0 360 ' in svg
    # The PDF's legend names every player, escaped.
    sheet = nights_chart(["1/1"], {"<Ann>": [D(1)]})
    ElementTree.fromstring(sheet)
    assert ">&lt;Ann&gt;</text>" in sheet


def test_the_matrix_colours_what_the_row_won() -> None:
    cells = {(0, 1): (D("2.5"), 7), (1, 0): (D("-2.5"), 7)}
    svg = head_to_head_chart(["Ann", "Bob", "Cy"], cells, page=True)
    ElementTree.fromstring(svg)
    kinds = re.findall(r'<rect [^>]*class="(\w+)"', svg)
    # Row by row: Ann (self, won from Bob, never met Cy), Bob, Cy.
    assert kinds == ["self", "won", "none", "lost", "self", "none", "none", "none", "self"]
    assert ">+2.5<" in svg and ">7 d.<" in svg
