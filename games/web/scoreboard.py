"""The scoreboard of a session while it is played: the totals, a chart of the running
totals, the last deal pair by pair with its review, and the deals a page at a time.

What it sends does not grow with the session: the totals and the chart come from one
summing query (at most ``CHART_POINTS`` runs of deals, pair by pair), and only one page
of ``DEALS_PER_PAGE`` deals (the newest, or those before ``?before=N``) is read with its
history. The database still adds up every ledger row of the session once.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import services
from games.engine import Rules
from games.engine.cards import parse_cards
from games.engine.games import GAMES, HANDS_FIELD, player_hands
from games.models import Deal, Membership, Session
from games.present import (
    capitalised,
    card_faces,
    game_name,
    money_in,
    natural_name,
    signed,
    units,
)
from games.reports import ledger
from games.web.common import saved_keys, seat_names, session_for, session_rules

DEALS_PER_PAGE = 50
CHART_POINTS = 60
# The chart's drawing area, in the SVG's own units (it scales to the page's width).
CHART_WIDTH = 600
CHART_HEIGHT = 160


def deal_window(session: Session, before: int | None) -> tuple[list[Deal], int | None, int | None]:
    """One page of deals, newest first: the ``DEALS_PER_PAGE`` numbered below ``before``
    (the newest when None). Answers the deals, the ``before`` of the next older page (None
    when there is none) and of the next newer page (0 for the newest page, None when this
    is the newest)."""
    deals = session.deals.prefetch_related("revisions__changed_by").order_by("-number")
    if before is not None:
        deals = deals.filter(number__lt=before)
    # One more than a page tells whether older deals exist, without counting them.
    window = list(deals[: DEALS_PER_PAGE + 1])
    older = window[DEALS_PER_PAGE - 1].number if len(window) > DEALS_PER_PAGE else None
    window = window[:DEALS_PER_PAGE]
    # Deals are numbered 1 to last_deal_number without gaps (a void deal keeps its number).
    last = session.last_deal_number
    newer = None
    if before is not None and before <= last:
        top = before + DEALS_PER_PAGE
        newer = top if top <= last else 0
    return window, older, newer


def _deal_rows(deals: Sequence[Deal], names: Sequence[str], rules: Rules) -> list[dict[str, Any]]:
    """Each deal with each seat's units and marks, and its revisions."""
    rows = []
    for deal in deals:
        result_players = {p["name"]: p for p in deal.result["players"]}
        cells = []
        for name in names:
            p = result_players.get(name)
            if p is None:
                cells.append({"units": "", "note": "sat out"})
                continue
            naturals = [hand["natural"] for hand in player_hands(p) if hand.get("natural")]
            note = ""
            if p.get("fouled"):
                shown = p.get("rows") is not None or HANDS_FIELD in p
                note = "foul" if shown else "foul, not shown"
            elif p.get("surrendered"):
                note = "surrender"
            elif naturals:
                note = ", ".join(capitalised(natural_name(n, rules)) for n in naturals)
            elif "cards_left" in p:
                note = f"{p['cards_left']} left"
            cells.append({"units": signed(Decimal(p["units"])), "note": note})
        revisions = [
            {
                "version": rev.version,
                "action": rev.action,
                "done": DONE[rev.action],
                "reason": rev.reason,
                "by": rev.changed_by.get_username() if rev.changed_by else "",
                "at": rev.changed_at,
                "units": ", ".join(
                    f"{p['name']} {signed(Decimal(p['units']))}" for p in rev.result["players"]
                ),
            }
            for rev in deal.revisions.all()
        ]
        rows.append({"deal": deal, "cells": cells, "revisions": revisions})
    return rows


# What each revision did, as its line in a deal's history reads.
DONE = {"edit": "edited", "void": "voided", "restore": "restored"}


PAIR_KINDS = {
    "rows": "",
    "foul": "foul",
    "surrender": "surrender",
    "natural": "natural",
    "cards": "cards left",
    "none": "",
}


def _pair_detail(
    pair: dict[str, Any], hands: dict[str, tuple[Any, ...]], k: int | None, rules: Rules
) -> str:
    """How one pair was settled; a natural is named ("natural: six pairs"). ``k`` is the
    hand's index at a Criss Cross table, where each player holds two."""
    if pair.get("scoop"):
        return "scoop"
    detail = PAIR_KINDS.get(pair.get("kind", ""), "")
    if detail == "natural":
        named = []
        for name in pair["players"]:
            player = hands.get(name, ())
            hand = player[k or 0] if len(player) > (k or 0) else {}
            if hand.get("natural"):
                named.append(natural_name(hand["natural"], rules))
        if named:
            detail = "natural: " + ", ".join(named)
    return detail


def _last_pairs(
    session: Session, names: Sequence[str], rules: Rules
) -> tuple[Deal | None, list[dict[str, str]]]:
    """The last active deal pair by pair, each told from the winner's side, in seat order."""
    deal = session.deals.filter(status=Deal.Status.ACTIVE).order_by("-number").first()
    if deal is None:
        return None, []
    seat = {name: k for k, name in enumerate(names)}
    naturals = {p["name"]: player_hands(p) for p in deal.result["players"]}
    pairs = []
    for pair in deal.result["pairs"]:
        a, b = sorted(pair["players"], key=lambda name: seat.get(name, 0))
        won = Decimal(pair["units"]) * (1 if a == pair["players"][0] else -1)
        if HANDS_FIELD in pair:  # Criss Cross: each hand's pair told on its own
            detail = "; ".join(
                f"hand {k}: {_pair_detail(hand, naturals, k - 1, rules) or 'rows'}"
                for k, hand in enumerate(pair[HANDS_FIELD], start=1)
            )
        else:
            detail = _pair_detail(pair, naturals, None, rules)
        if won < 0:
            text = f"{b} wins {units(-won)} from {a}"
        elif won > 0:
            text = f"{a} wins {units(won)} from {b}"
        else:
            text = f"{a} and {b} are even"
        pairs.append({"a": a, "b": b, "text": text, "units": signed(won), "detail": detail})
    return deal, pairs


def _review(deal: Deal | None, rules: Rules) -> dict[str, Any] | None:
    """How each player of the deal could have set their cards, for the page (its review)."""
    if deal is None:
        return None
    review = deal.review
    if review is None or review.get("version") != deal.version:
        return {"pending": True, "players": []}
    players = []
    for line in review["players"]:
        if not line["reviewed"]:
            players.append({"name": line["name"], "reason": line["reason"]})
            continue
        missed = Decimal(line["units_missed"])
        if line["declare"] == "natural":
            how = f"declare {natural_name(line['natural'], rules)}"
        elif line["declare"] == "surrender":
            how = "surrender"
        else:
            how = ""
        rows = [
            card_faces(parse_cards(line["best"][row], row, row))
            for row in ("front", "middle", "back")
        ]
        players.append(
            {
                "name": line["name"],
                "missed": units(missed),
                "best": signed(Decimal(line["best_units"])),
                "actual": signed(Decimal(line["actual_units"])),
                "how": how,
                "rows": [] if how else rows,
                "fouled": line["nearest_legal"] is not None,
            }
        )
    return {"pending": False, "reason": review["reason"], "players": players}


def chart(points: Sequence[tuple[int, Sequence[Decimal]]], players: int) -> dict[str, Any]:
    """The running totals as one SVG polyline per player, from the deal before the first
    (everyone at 0) to the last point; the zero line's height."""
    last = points[-1][0] if points else 0
    peak = max((abs(v) for _, values in points for v in values), default=Decimal(0))
    half = CHART_HEIGHT / 2
    scale = (half - 4) / float(peak) if peak else 0.0

    def xy(number: int, value: Decimal) -> str:
        x = CHART_WIDTH * number / last if last else 0
        return f"{x:.1f},{half - float(value) * scale:.1f}"

    lines = [
        " ".join([xy(0, Decimal(0))] + [xy(number, values[k]) for number, values in points])
        for k in range(players)
    ]
    # As text: a float in a template would be localised ("60,0" in Vietnamese).
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "zero": f"{half:g}", "lines": lines}


def _before(request: HttpRequest) -> int | None:
    """``?before=N``: a page of the deals numbered below N; anything else: the newest."""
    text = request.GET.get("before", "")
    return int(text) if text.isdigit() and int(text) > 0 else None


@login_required
@require_GET
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The scoreboard: the totals, the running totals' chart, the last deal pair by pair,
    one page of deals with their history."""
    session, role = session_for(request, pk)
    names = seat_names(session)
    rules = session_rules(session)
    currency = session.group.currency
    runs = ledger.running_points(session, CHART_POINTS)
    totals = [
        {
            "name": name,
            "units": signed(amounts.units),
            "money": money_in(amounts.money, currency),
            "sign": (amounts.units > 0) - (amounts.units < 0),
        }
        for name, amounts in ledger.balances(session, runs.pairs).items()
    ]
    running = [
        {"deal": number, "units": [signed(u) for u in values]} for number, values in runs.points
    ]
    last, pairs = _last_pairs(session, names, rules)
    closed = None if session.is_open else services.closed_at_target(session)
    fantasy = services.fantasyland(session) if GAMES[session.game].has_fantasyland else {}
    deals, older, newer = deal_window(session, _before(request))
    context = {
        "session": session,
        "group": session.group,
        "role": role,
        "is_owner": role == Membership.Role.OWNER,
        "names": names,
        "running": running,
        "step": runs.step,
        "chart": chart(runs.points, len(names)),
        "totals": totals,
        "last": last,
        "pairs": pairs,
        "review": _review(last, rules),
        "closed_at_target": closed,
        "deals": _deal_rows(deals, names, rules),
        "older": older,
        "newer": newer,
        "fantasy": fantasy,
        "game_name": game_name(rules),
        "saved_keys": saved_keys(session),
        "saved": _just_saved(session, request.GET.get("saved", ""), names),
    }
    return render(request, "web/session_detail.html", context)


def _just_saved(session: Session, number: str, names: list[str]) -> dict[str, Any] | None:
    """The deal the deal form has just saved (``?saved=N``), while it counts, with its
    units for the notice that offers Undo and Next deal."""
    if not number.isdigit() or len(number) > 9:
        return None
    deal = session.deals.filter(number=int(number), status=Deal.Status.ACTIVE).first()
    if deal is None:
        return None
    units = {p["name"]: signed(Decimal(p["units"])) for p in deal.result["players"]}
    return {
        "number": deal.number,
        "units": ", ".join(f"{name} {units[name]}" for name in names if name in units),
    }
