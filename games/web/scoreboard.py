"""The scoreboard of a session while it is played: the totals, a chart of the running
totals, the last deal pair by pair with its review, and the deals a page at a time.

What it sends does not grow with the session: the totals and the chart come from one
summing query (at most ``CHART_POINTS`` runs of deals, pair by pair), and only one page
of ``DEALS_PER_PAGE`` deals (the newest, or those before ``?before=N``) is read with its
history. The database still adds up every ledger row of the session once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from django.views.decorators.http import require_GET

from games import services
from games.engine import Rules
from games.engine.cards import parse_cards
from games.engine.games import GAMES, HANDS_FIELD, player_hands
from games.live.page_config import live_config
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
from games.services.dealers import dealer_name, next_dealer, seat_numbers
from games.sheets.charts import running_totals_svg
from games.web.common import saved_keys, seat_names, session_for, session_rules
from games.web.deal_view import pair_lines, showdown
from games.words import review_code, review_text

DEALS_PER_PAGE = 50
CHART_POINTS = 60


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


def _deal_rows(
    deals: Sequence[Deal], names: Sequence[str], rules: Rules, seats: dict[str, int]
) -> list[dict[str, Any]]:
    """Each deal with its dealer, each seat's units and marks, every seat's hand as set,
    the pairs, and its revisions."""
    rows = []
    for deal in deals:
        result_players = {p["name"]: p for p in deal.result["players"]}
        cells = []
        for name in names:
            p = result_players.get(name)
            if p is None:
                cells.append({"units": "", "note": _("sat out")})
                continue
            naturals = [hand["natural"] for hand in player_hands(p) if hand.get("natural")]
            note = ""
            if p.get("fouled"):
                shown = p.get("rows") is not None or HANDS_FIELD in p
                note = _("foul") if shown else _("foul, not shown")
            elif p.get("surrendered"):
                note = _("surrender")
            elif naturals:
                note = ", ".join(capitalised(natural_name(n, rules)) for n in naturals)
            elif "cards_left" in p:
                note = _("%(count)s left") % {"count": p["cards_left"]}
            cells.append({"units": signed(Decimal(p["units"])), "note": note})
        revisions = [
            {
                "version": rev.version,
                "action": rev.action,
                "line": _(DONE[rev.action])
                % {
                    "version": rev.version,
                    "who": rev.changed_by.get_username() if rev.changed_by else _("someone"),
                },
                "reason": rev.reason,
                "by": rev.changed_by.get_username() if rev.changed_by else "",
                "at": rev.changed_at,
                "units": ", ".join(
                    f"{p['name']} {signed(Decimal(p['units']))}" for p in rev.result["players"]
                ),
            }
            for rev in deal.revisions.all()
        ]
        rows.append(
            {
                "deal": deal,
                "dealer": dealer_name(deal.dealer, seats),
                "cells": cells,
                "revisions": revisions,
                "showdown": showdown(deal, names, rules),
                "pairs": pair_lines(deal, names, rules),
            }
        )
    return rows


# What each revision did, as its line in a deal's history reads.
DONE = {
    "edit": gettext_noop("v%(version)s edited by %(who)s"),
    "void": gettext_noop("v%(version)s voided by %(who)s"),
    "restore": gettext_noop("v%(version)s restored by %(who)s"),
}


def _last_pairs(
    session: Session, names: Sequence[str], rules: Rules
) -> tuple[Deal | None, list[dict[str, str]]]:
    """The last active deal pair by pair, each told from the winner's side, in seat order."""
    deal = session.deals.filter(status=Deal.Status.ACTIVE).order_by("-number").first()
    if deal is None:
        return None, []
    return deal, pair_lines(deal, names, rules)


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
            players.append({"name": line["name"], "reason": _review_reason(line)})
            continue
        missed = Decimal(line["units_missed"])
        if line["declare"] == "natural":
            how = _("declare %(natural)s") % {"natural": natural_name(line["natural"], rules)}
        elif line["declare"] == "surrender":
            how = pgettext("the review's advice", "surrender")
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
    return {"pending": False, "reason": _review_reason(review), "players": players}


def _review_reason(line: Mapping[str, Any]) -> str | None:
    """Why a deal or a player was not reviewed, in the reader's language."""
    code = review_code(line)
    return None if code is None else review_text(code)


def chart(points: Sequence[tuple[int, Sequence[Decimal]]], names: Sequence[str]) -> str:
    """The running totals drawn as the PDF draws them (``games.sheets.charts``), from the summed
    points: one line per player from the deal before the first (everyone at 0)."""
    totals = {name: [values[k] for _, values in points] for k, name in enumerate(names)}
    title = _("Running totals (units) of %(names)s") % {"names": ", ".join(names)}
    svg = running_totals_svg([number for number, _ in points], totals, title=title, page=True)
    return mark_safe(svg)


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
    seats = seat_numbers(session)
    last_dealt = session.deals.order_by("-number").values_list("number", "dealer").first()
    context = {
        "session": session,
        "group": session.group,
        "role": role,
        "is_owner": role == Membership.Role.OWNER,
        "names": names,
        "running": running,
        "step": runs.step,
        "chart": chart(runs.points, names),
        "totals": totals,
        "last": last,
        "pairs": pairs,
        "review": _review(last, rules),
        "closed_at_target": closed,
        "deals": _deal_rows(deals, names, rules, seats),
        "next_dealer": dealer_name(
            next_dealer(
                list(seats.values()), last_dealt, stays=session.button_stays_after(last_dealt)
            ),
            seats,
        )
        if seats
        else None,
        "events": list(session.events.select_related("by")),
        "older": older,
        "newer": newer,
        "fantasy": fantasy,
        "game_name": game_name(rules),
        "saved_keys": saved_keys(session),
        # An open session's scoreboard follows the deals recorded elsewhere (live.js).
        "live_config": live_config(session, scoreboard=True) if session.is_open else None,
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
