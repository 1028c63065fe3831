"""The season's charts as server-drawn SVG text, for the season page and its PDF.

Three charts: each player's money across the season night by night, units missed per
deal by night (the skill trend) and the head-to-head matrix (what each row won from each
column, with the deals they played together). As the night's chart (``charts.py``), the
page's are drawn about as wide as a phone shows them, so that their text stays about 12 px
or more at 360 px, and take the stylesheet's colours; the PDF's name their colours.
Lines past the fourth player are dashed, so that they stay apart in greyscale print.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from xml.sax.saxutils import escape

from django.utils.translation import gettext

from games import present
from games.sheets.charts import FONT_FAMILY, PAGE, SHEET, Layout, nice_step

COLOURS = ("#1f5fbf", "#c0392b", "#1e8449", "#8e44ad", "#b9770e", "#117a8b", "#5d6d7e", "#a93226")
DASHES = ("", "", "", "", "6 3", "2 3", "8 3 2 3", "4 4")


def colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]


def _ticks(low: float, high: float, most: int) -> list[float]:
    step = nice_step(high - low, most)
    value = math.floor(low / step) * step
    ticks = []
    while value <= high + step / 2:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _text(value: float) -> str:
    """A tick's value as the reader's locale writes it: "1,250.5", in Vietnamese "1.250,5"."""
    return present.number(Decimal(repr(value)))


def compact(amount: Decimal) -> str:
    """An amount short enough for a matrix cell: signed, to a tenth from 10 on, whole from
    100 on, in thousands ("12k") from 10,000 on (the table beside it is exact)."""
    sign = "+" if amount > 0 else "-" if amount < 0 else ""
    size = abs(amount)
    if size >= 10000:
        text = f"{present.number((size / 1000).quantize(Decimal(1)))}k"
    elif size >= 100:
        text = present.number(size.quantize(Decimal(1)))
    elif size >= 10:
        text = present.number(size.quantize(Decimal("0.1")))
    else:
        text = present.number(size.quantize(Decimal("0.01")))
    return sign + text


def _open(shape: Layout, page: bool, title: str, kind: str) -> list[str]:
    css = f"season-chart {kind}" if page else "chart"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {shape.width} {shape.height}" '
        f'class="{css}" role="img" font-family="{FONT_FAMILY}" font-size="{shape.font:g}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    return parts


def nights_chart(
    labels: Sequence[str],
    series: Mapping[str, Sequence[Decimal | None]],
    *,
    title: str = "",
    page: bool = False,
) -> str:
    """A line chart: x the nights in date order (evenly spaced, ``labels`` naming them),
    y each player's value after each night; ``None`` leaves a gap (a night the player
    missed, or one with nothing to show). A point is marked, so a lone night shows."""
    shape = PAGE if page else SHEET
    left, top = shape.left, shape.top
    values = [float(v) for line in series.values() for v in line if v is not None] + [0.0]
    ticks = _ticks(min(values), max(values), 5)
    low, high = ticks[0], ticks[-1]
    if high == low:
        high = low + 1
    plot_w = shape.width - left - shape.right
    plot_h = shape.height - top - shape.bottom
    count = len(labels)

    def x(k: int) -> float:
        return left + (plot_w * k / (count - 1) if count > 1 else plot_w / 2)

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    ink = "currentColor" if page else "#444"
    axis = gettext("night")
    parts = _open(shape, page, title, "nights")
    for tick in ticks:
        grid = f' class="{"zero" if tick == 0 else "grid"}"' if page else ""
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{"#555" if tick == 0 else "#ddd"}" '
            f'stroke-width="{1.2 if tick == 0 else 0.6}"{grid}/>'
            f'<text x="{left - 6}" y="{y(tick) + shape.font / 3:.1f}" text-anchor="end" '
            f'fill="{ink}">{_text(tick)}</text>'
        )
    if count:
        step = max(1, math.ceil(count / shape.deal_labels))
        shown = sorted({*range(0, count, step), count - 1})
        if len(shown) > 1 and shown[-1] - shown[-2] < step / 2:
            shown.pop(-2)
        for k in shown:
            parts.append(
                f'<text x="{x(k):.1f}" y="{shape.height - shape.bottom + shape.font + 4:.1f}"'
                f' text-anchor="middle" fill="{ink}">{escape(labels[k])}</text>'
            )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{shape.height - 2}" text-anchor="middle" '
        f'fill="{ink}">{escape(axis)}</text>'
    )
    for index, (name, line) in enumerate(series.items()):
        stroke = colour(index)
        dash = DASHES[index % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        runs: list[list[str]] = [[]]
        for k, value in enumerate(line):
            if value is None:
                runs.append([])
                continue
            point = f"{x(k):.1f},{y(float(value)):.1f}"
            runs[-1].append(point)
            parts.append(
                f'<circle cx="{x(k):.1f}" cy="{y(float(value)):.1f}" r="2.2" '
                f'class="dot p{index}" fill="{stroke}"/>'
            )
        for run in runs:
            if len(run) > 1:
                parts.append(
                    f'<polyline points="{" ".join(run)}" class="line p{index}" fill="none" '
                    f'stroke="{stroke}" stroke-width="1.8" stroke-linejoin="round"{dashed}>'
                    f"<title>{escape(name)}</title></polyline>"
                )
        if not page:  # the page's key, under the chart, names the players
            legend_y = top + 14 + 16 * index
            right = shape.width - shape.right
            parts.append(
                f'<line x1="{right + 12}" x2="{right + 30}" y1="{legend_y - 4}" '
                f'y2="{legend_y - 4}" stroke="{stroke}" stroke-width="3"{dashed}/>'
                f'<text x="{right + 35}" y="{legend_y}" fill="{stroke}">{escape(name)}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def head_to_head_chart(
    names: Sequence[str],
    cells: Mapping[tuple[int, int], tuple[Decimal, int]],
    *,
    title: str = "",
    page: bool = False,
) -> str:
    """The head-to-head matrix: row ``i``, column ``j`` shows what ``names[i]`` won from
    ``names[j]`` (money, green when won, red when lost) and the deals they played
    together; an empty cell, a pair who never met."""
    count = max(1, len(names))
    width = 360 if page else 700
    # The page's text as the night chart's, so that it reads at 12 px or more at 360 px.
    font = PAGE.font if page else 11.0
    label_w = 60 if page else 110
    cell_w = (width - label_w - 4) / count
    cell_h = font * 3.2
    head_h = font * 2
    height = math.ceil(head_h + cell_h * count + 4)
    ink = "currentColor" if page else "#222"
    css = "season-chart matrix" if page else "chart"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="{css}" role="img" font-family="{FONT_FAMILY}" font-size="{font:g}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    short = max(3, int(cell_w / (font * 0.62)))
    for j, name in enumerate(names):
        cx = label_w + cell_w * (j + 0.5)
        parts.append(
            f'<text x="{cx:.1f}" y="{font * 1.3:.1f}" text-anchor="middle" fill="{ink}">'
            f"{escape(name[:short])}</text>"
        )
    for i, name in enumerate(names):
        top = head_h + cell_h * i
        parts.append(
            f'<text x="{label_w - 4}" y="{top + cell_h / 2 + font / 3:.1f}" text-anchor="end" '
            f'fill="{ink}">{escape(name[: int(label_w / (font * 0.62))])}</text>'
        )
        for j in range(len(names)):
            left = label_w + cell_w * j
            cell = cells.get((i, j))
            kind = "self" if i == j else "none" if cell is None else "cell"
            fill = "#eeeeee" if i == j else "#ffffff"
            if cell is not None and cell[0] > 0:
                fill, kind = "#d5f0dc", "won"
            elif cell is not None and cell[0] < 0:
                fill, kind = "#f6d6d2", "lost"
            parts.append(
                f'<rect x="{left + 1:.1f}" y="{top + 1:.1f}" width="{cell_w - 2:.1f}" '
                f'height="{cell_h - 2:.1f}" rx="3" fill="{fill}" stroke="#bbbbbb" '
                f'stroke-width="0.6" class="{kind}"/>'
            )
            if cell is None:
                continue
            money, deals = cell
            cx = left + cell_w / 2
            # TRANSLATORS: the deals two players played together, in a matrix cell
            together = gettext("%(count)s d.") % {"count": deals}
            parts.append(
                f'<text x="{cx:.1f}" y="{top + cell_h * 0.45:.1f}" text-anchor="middle" '
                f'fill="#222" class="amount">{escape(compact(money))}</text>'
                f'<text x="{cx:.1f}" y="{top + cell_h * 0.82:.1f}" text-anchor="middle" '
                f'fill="#555" class="deals">'
                f"{escape(together)}</text>"
            )
    parts.append("</svg>")
    return "".join(parts)
