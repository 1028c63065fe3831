"""What the season page and the season PDF show: the group's season turned into rows of
text, the columns its games count, and its three charts.

Everything is read from ``games.reports.season``; numbers read as ``games.present`` writes
them. The page and the PDF share this, so they never disagree.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games import reports
from games.engine.games import GAMES
from games.models import Group
from games.present import GAME_NAMES, day, moment, money, money_in, number, signed
from games.sheets.season_charts import COLOURS, head_to_head_chart, nights_chart

ZERO = Decimal(0)
CENTS = Decimal("0.01")


def columns(games: Sequence[str]) -> dict[str, bool]:
    """Which counts the season's games make worth a column: the rows' counts (fouls,
    scoops, royalties), surrenders and naturals, units missed (reviewed games), Big Two's
    wins and cards left, open-face fantasy land."""
    described = [GAMES[key] for key in games if key in GAMES]
    rows = any(game.shape != "leftovers" for game in described)
    return {
        "rows": rows,
        "surrenders": any(
            game.shape != "leftovers" and not game.has_fantasyland for game in described
        ),
        "naturals": any(game.has_naturals for game in described),
        "missed": any(game.reviewed for game in described),
        "big_two": any(game.shape == "leftovers" for game in described),
        "fantasy": any(game.has_fantasyland for game in described),
    }


def per_deal_text(value: Decimal | None) -> str:
    return "-" if value is None else number(value.quantize(CENTS))


def trend_text(value: Decimal | None) -> str:
    """The trend of units missed per deal: "↓ 0.12" (missing less each night), "↑ 0.3"."""
    if value is None:
        return "-"
    rounded = value.quantize(CENTS)
    if not rounded:
        return "→ 0"
    arrow = "↓" if rounded < 0 else "↑"
    return f"{arrow} {number(abs(rounded))}"


def night_label(date: datetime.date) -> str:
    return day(date, "Md")


def money_series(report: Mapping[str, Any]) -> dict[str, list[Decimal | None]]:
    """Each player's money won since the season began, after each night (date order);
    None before their first night."""
    out: dict[str, list[Decimal | None]] = {}
    for row in report["players"]:
        total: Decimal | None = None
        line: list[Decimal | None] = []
        for night in report["nights"]:
            mine = night["players"].get(row["id"])
            if mine is not None:
                total = (total or ZERO) + mine["money"]
            line.append(total)
        out[row["name"]] = line
    return out


def missed_series(report: Mapping[str, Any]) -> dict[str, list[Decimal | None]]:
    """Each player's units missed per reviewed deal at each night; None where they did
    not play or nothing of theirs was reviewed."""
    out: dict[str, list[Decimal | None]] = {}
    for row in report["players"]:
        line: list[Decimal | None] = []
        for night in report["nights"]:
            mine = night["players"].get(row["id"])
            reviewed = mine["reviewed"] if mine else 0
            line.append((mine["missed"] / reviewed).quantize(CENTS) if mine and reviewed else None)
        out[row["name"]] = line
    return out


def matrix_cells(report: Mapping[str, Any]) -> dict[tuple[int, int], tuple[Decimal, int]]:
    """(row, column) by the players' order -> the money the row won from the column and
    the deals they played together."""
    index = {row["id"]: k for k, row in enumerate(report["players"])}
    cells: dict[tuple[int, int], tuple[Decimal, int]] = {}
    for pair in report["head_to_head"]:
        a, b = index[pair["a"]], index[pair["b"]]
        cells[(a, b)] = (pair["money"], pair["deals"])
        cells[(b, a)] = (-pair["money"], pair["deals"])
    return cells


def range_text(date_from: datetime.date | None, date_to: datetime.date | None) -> str:
    if date_from is None and date_to is None:
        return _("every night")
    start = day(date_from) if date_from else "…"
    end = day(date_to) if date_to else "…"
    return _("%(start)s to %(end)s") % {"start": start, "end": end}


def season_data(
    group: Group,
    span: reports.Span,
    game: str | None = None,
    *,
    page: bool = True,
    report: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The season's context: ``report`` (as ``games.reports.season`` answers), ``rows``
    (each player's figures as text), ``columns`` shown, the three charts as SVG (drawn
    for the page, or for the PDF), each chart's key, and the head-to-head as rows."""
    if report is None:
        report = reports.season(group, span.date_from, span.date_to, game=game)
    currency = group.currency
    rows = []
    for k, row in enumerate(report["players"]):
        rows.append(
            {
                "id": row["id"],
                "name": row["name"],
                "colour": COLOURS[k % len(COLOURS)],
                "index": k,
                "nights": row["nights"],
                "deals": row["deals"],
                "units": signed(row["units"]),
                "money": money(row["money"], currency, sign=True),
                "units_per_deal": per_deal_text(row["units_per_deal"]),
                "fouls": row["fouls"],
                "surrenders": row["surrenders"],
                "scoops": row["scoops"],
                "scooped": row["scooped"],
                "naturals": row["naturals"],
                "royalties": signed(row["royalties"]),
                "wins": row["wins"],
                "cards_left": row["cards_left"],
                "fantasy_entries": row["fantasy_entries"],
                "fantasy_stays": row["fantasy_stays"],
                "reviewed": row["reviewed_deals"],
                "missed": per_deal_text(row["missed_per_deal"]),
                "trend": trend_text(row["missed_trend"]),
            }
        )
    names = [row["name"] for row in report["players"]]
    labels = [night_label(night["date"]) for night in report["nights"]]
    shown = columns(report["games"])
    charts: dict[str, str] = {}
    if report["nights"]:
        charts["money"] = nights_chart(
            labels,
            money_series(report),
            title=_("Money won across the season (%(currency)s), night by night")
            % {"currency": currency},
            page=page,
        )
        missed = missed_series(report)
        if shown["missed"] and any(v is not None for line in missed.values() for v in line):
            charts["missed"] = nights_chart(
                labels, missed, title=_("Units missed per deal, night by night"), page=page
            )
        charts["matrix"] = head_to_head_chart(
            names,
            matrix_cells(report),
            title=_("Head to head: what each row's player won from each column's"),
            page=page,
        )
    by_id = {row["id"]: row["name"] for row in report["players"]}
    head_to_head = [
        {
            "a": by_id[pair["a"]],
            "b": by_id[pair["b"]],
            "a_id": pair["a"],
            "b_id": pair["b"],
            "units": signed(pair["units"]),
            "money": money_in(pair["money"], currency),
            "deals": pair["deals"],
        }
        for pair in report["head_to_head"]
    ]
    return {
        "group": group,
        "currency": currency,
        "report": report,
        "span": span,
        "game": game,
        "game_names": [GAME_NAMES.get(key, key) for key in report["games"]],
        "range_text": range_text(span.date_from, span.date_to),
        "rows": rows,
        "columns": shown,
        "charts": {key: mark_safe(svg) for key, svg in charts.items()},
        "head_to_head": head_to_head,
        "nights": len(report["nights"]),
        "deals": report["deals"],
    }


def season_html(
    group: Group,
    span: reports.Span,
    game: str | None,
    paper: str,
    produced_at: datetime.datetime | None = None,
) -> str:
    """The season PDF's filled template: the table, the charts and the head-to-head."""
    data = season_data(group, span, game, page=False)
    local = timezone.localtime(produced_at or timezone.now())
    data.update(
        page_size=paper,
        produced_at=moment(local),
        title=_("%(group)s: the season") % {"group": group.name},
    )
    return render_to_string("pdf/season.html", data)
