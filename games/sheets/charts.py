"""Charts drawn on the server as SVG text: no JavaScript, so PDFs and plain pages can show them.

Only the running totals chart for now: every player's cumulative units after each deal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from xml.sax.saxutils import escape, quoteattr

from django.utils.translation import gettext

from games import present

# The PDF stylesheet's fonts (templates/pdf/base.html): the players' names and the labels may
# be Chinese, which DejaVu lacks.
FONT_FAMILY = "DejaVu Sans, WenQuanYi Micro Hei"
# Distinguishable in colour and still apart in greyscale print.
PLAYER_COLOURS = ("#1f5fbf", "#c0392b", "#1e8449", "#8e44ad")


@dataclass(frozen=True)
class Layout:
    """A chart's size and margins in its own units, its text size and how many deal
    numbers its axis names."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    font: float
    deal_labels: int


# The PDF's: wide, the legend in the chart.
SHEET = Layout(700, 250, 48, 120, 12, 30, 11, 10)
# The page's: drawn about as wide as a phone shows it, so that its text stays about 12 px
# or more at 360 px (the page's key under it names the players and their colours).
PAGE = Layout(360, 230, 40, 10, 10, 36, 13.5, 5)


def nice_step(span: float, most: int = 6) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving at most ``most`` intervals."""
    if span <= 0:
        return 1.0
    raw = span / most
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)  # pragma: no cover - the loop always returns


def _ticks(low: float, high: float, most: int) -> list[float]:
    step = nice_step(high - low, most)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step / 2:
        ticks.append(round(value, 10))
        value += step
    return ticks


def _number(value: float) -> str:
    """A tick's value as the reader's locale writes it: "1,250.5", in Vietnamese "1.250,5"."""
    return present.number(Decimal(repr(value)))


def running_totals_svg(
    deals: Sequence[int],
    totals: Mapping[str, Sequence[Decimal]],
    *,
    title: str = "",
    page: bool = False,
) -> str:
    """An SVG line chart: x the deal numbers (evenly spaced), y each player's cumulative units.

    ``totals[name][k]`` is the player's total after ``deals[k]``; every line starts at 0
    before the first deal. The legend gives each player's final total. The same chart is
    the PDF sheet's and (``page``: classed for the page's stylesheet) the scoreboard's.
    """
    names = list(totals)
    shape = PAGE if page else SHEET
    left, top = shape.left, shape.top
    values = [float(v) for series in totals.values() for v in series] + [0.0]
    ticks = _ticks(min(values), max(values), 5)
    low, high = ticks[0], ticks[-1]
    if high == low:
        high = low + 1
    plot_w = shape.width - left - shape.right
    plot_h = shape.height - top - shape.bottom
    # The axis counts deal numbers evenly: a void deal (no point of its own) still takes
    # its place, so deal 10 stands where the tenth deal would, not where the ninth would.
    count = max(deals) if deals else 0

    def x(number: int) -> float:  # number 0 is "before the first deal"
        return left + plot_w * (number / count if count else 0)

    def y(value: float) -> float:
        return top + plot_h * (high - value) / (high - low)

    # On the page the text and the grid take the stylesheet's colours (light or dark),
    # through currentColor and classes; the PDF names its colours.
    ink = "currentColor" if page else "#444"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {shape.width} {shape.height}" '
        f'class="{"running-chart" if page else "chart"}" role="img" '
        f'font-family="{FONT_FAMILY}" font-size="{shape.font:g}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for tick in ticks:
        colour = "#555" if tick == 0 else "#ddd"
        grid = f' class="{"zero" if tick == 0 else "grid"}"' if page else ""
        parts.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{colour}" stroke-width="{1.2 if tick == 0 else 0.6}"{grid}/>'
            f'<text x="{left - 6}" y="{y(tick) + shape.font / 3:.1f}" text-anchor="end" '
            f'fill="{ink}">{_number(tick)}</text>'
        )
    if count:
        for number in _deal_label_positions(count, shape.deal_labels):
            parts.append(
                f'<text x="{x(number):.1f}" y="{shape.height - shape.bottom + shape.font + 4:.1f}"'
                f' text-anchor="middle" fill="{ink}">{number}</text>'
            )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{shape.height - 2}" text-anchor="middle" '
        f'fill="{ink}">{escape(gettext("deal"))}</text>'
    )
    for index, name in enumerate(names):
        colour = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
        series = [(0, 0.0)] + [
            (number, float(v)) for number, v in zip(deals, totals[name], strict=True)
        ]
        points = " ".join(f"{x(number):.1f},{y(v):.1f}" for number, v in series)
        parts.append(
            f'<polyline points="{points}" class="line p{index}" fill="none" stroke="{colour}" '
            'stroke-width="1.8" stroke-linejoin="round"/>'
        )
        if page:
            continue  # the page's key, under the chart, names the players
        final = totals[name][-1] if totals[name] else Decimal(0)
        legend_y = top + 14 + 18 * index
        label = f"{name} {present.signed(final)}"
        parts.append(
            f'<line x1="{shape.width - shape.right + 12}" x2="{shape.width - shape.right + 30}"'
            f' y1="{legend_y - 4}" y2="{legend_y - 4}" stroke="{colour}" stroke-width="3"/>'
            f'<text x="{shape.width - shape.right + 35}" y="{legend_y}" fill={quoteattr(colour)}>'
            f"{escape(label)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _deal_label_positions(count: int, most: int = 10) -> list[int]:
    """The deal numbers labelled on the x axis: about ``most``, evenly spaced, always the
    last."""
    step = max(1, round(nice_step(count, most)))
    positions = [k for k in range(step, count + 1, step)]
    if 1 not in positions:
        positions.insert(0, 1)
    if positions[-1] != count:
        if count - positions[-1] < step / 2 and len(positions) > 1:
            positions.pop()
        positions.append(count)
    return positions
