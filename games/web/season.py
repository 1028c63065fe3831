"""The season pages: a group's season over a range of nights, and one player's season.

Members only, as every group page (``group_for``: 404 for anyone outside the group). The
range is ``?range=`` month, year, all or custom (with ``from`` and ``to``), and ``?game=``
narrows it to one game.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import reports
from games.engine.games import GAMES
from games.models import Group
from games.present import GAME_NAMES, money_in, number, signed
from games.sheets.season import night_label, per_deal_text, range_text, season_data
from games.sheets.season_charts import nights_chart
from games.web.common import group_for, player_for


def _date(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def chosen(query: QueryDict) -> tuple[reports.Span, str | None, list[str]]:
    """The range and game a page's query asks for, and what in it could not be read."""
    errors = []
    texts = {key: query.get(key, "").strip() for key in ("from", "to")}
    dates = {key: _date(text) for key, text in texts.items()}
    for key, text in texts.items():
        if text and dates[key] is None:
            errors.append(_("%(date)s is not a date (YYYY-MM-DD): left open") % {"date": text})
    span = reports.span(query.get("range", ""), timezone.localdate(), dates["from"], dates["to"])
    game = query.get("game") or None
    if game is not None and game not in GAMES:
        errors.append(_("no such game: every game is shown"))
        game = None
    return span, game, errors


def _query(span: reports.Span, game: str | None) -> str:
    """The query string that asks for this range and game again."""
    values = {"range": span.choice}
    if span.choice == "custom":
        values.update(
            {
                "from": span.date_from.isoformat() if span.date_from else "",
                "to": span.date_to.isoformat() if span.date_to else "",
            }
        )
    if game:
        values["game"] = game
    return "?" + urlencode(values)


def _pdf_url(group: Group, span: reports.Span, game: str | None) -> str:
    values = {
        "from": span.date_from.isoformat() if span.date_from else "",
        "to": span.date_to.isoformat() if span.date_to else "",
        "game": game or "",
    }
    return (
        reverse("api:group-season-pdf", args=[group.pk])
        + "?"
        + urlencode({key: value for key, value in values.items() if value})
    )


def _choices(group: Group) -> list[tuple[str, str]]:
    played = group.sessions.values_list("game", flat=True).distinct().order_by("game")
    return [(key, str(GAME_NAMES.get(key, key))) for key in played]


@login_required
@require_GET
def group_season(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's season: the table, the charts and the head-to-head."""
    group, _role = group_for(request, pk)
    span, game, errors = chosen(request.GET)
    context = season_data(group, span, game)
    context.update(
        errors=errors,
        query=_query(span, game),
        pdf_url=_pdf_url(group, span, game),
        games_played=_choices(group),
        ranges=[
            ("month", _("This month")),
            ("year", _("This year")),
            ("all", _("All nights")),
            ("custom", _("From - to")),
        ],
    )
    return render(request, "web/season.html", context)


@login_required
@require_GET
def player_season(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """One player's season: nights, best and worst deals, opponents, rates, balance."""
    group, _role = group_for(request, pk)
    player = player_for(group, str(player_pk))
    span, game, errors = chosen(request.GET)
    report = reports.season_player(group, player, span.date_from, span.date_to, game=game)
    currency = group.currency
    mine = report["player"]
    rates = report["group_rates"]

    def deal_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            row
            | {"units_text": signed(row["units"]), "money_text": money_in(row["money"], currency)}
            for row in rows
        ]

    balance = [
        line
        | {
            "money_text": money_in(line["money"], currency),
            "balance_text": money_in(line["balance"], currency),
        }
        for line in report["balance"]
    ]
    chart = ""
    if balance:
        chart = mark_safe(
            nights_chart(
                [night_label(line["date"]) for line in balance],
                {player.name: [line["balance"] for line in balance]},
                title=_("%(name)s's balance across the season, nights and payments")
                % {"name": player.name},
                page=True,
            )
        )
    context = {
        "group": group,
        "player": player,
        "span": span,
        "game": game,
        "errors": errors,
        "query": _query(span, game),
        "range_text": range_text(span.date_from, span.date_to),
        "row": mine
        | {
            "units_text": signed(mine["units"]),
            "money_text": money_in(mine["money"], currency),
            "per_deal_text": per_deal_text(mine["units_per_deal"]),
            "missed_text": per_deal_text(mine["missed_per_deal"]),
            "foul_rate_text": _percent(mine["foul_rate"]),
        },
        "group_foul_rate": _percent(rates["foul_rate"]),
        "group_missed": per_deal_text(rates["missed_per_deal"]),
        "reviewed_game": any(GAMES[key].reviewed for key in report["games"] if key in GAMES),
        "nights": [
            night
            | {
                "units_text": signed(night["units"]),
                "money_text": money_in(night["money"], currency),
                "missed_text": per_deal_text(
                    night["missed"] / night["reviewed"] if night["reviewed"] else None
                ),
            }
            for night in report["nights"]
        ],
        "best": deal_rows(report["best"]),
        "worst": deal_rows(report["worst"]),
        "opponents": [
            o | {"units_text": signed(o["units"]), "money_text": money_in(o["money"], currency)}
            for o in report["opponents"]
        ],
        "balance": balance,
        "chart": chart,
    }
    return render(request, "web/season_player.html", context)


def _percent(rate: Decimal | None) -> str:
    """A rate per deal as a percentage: "9.1 %"."""
    return "-" if rate is None else f"{number((rate * 100).quantize(Decimal('0.1')))} %"
