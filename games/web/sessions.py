"""The session pages: start one, the scoreboard while it is played, close it, and the night's
end (totals, who pays whom, each player's ledger against each opponent)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import reports, services
from games.engine import Rules, ScoreError
from games.engine.cards import parse_cards
from games.engine.games import GAMES, player_hands
from games.engine.rules import PRESETS
from games.models import Deal, Membership, Session
from games.present import (
    GAME_NAMES,
    capitalised,
    card_faces,
    game_name,
    money_in,
    natural_name,
    signed,
    units,
)
from games.web.common import (
    group_for,
    seat_names,
    session_for,
    session_rules,
    typed_text,
    user_of,
)


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick the game, two to four players in seat order, and tonight's rules."""
    group, role = group_for(request, pk)
    players = list(group.players.all())
    rule_set = group.current_rule_set()
    values: Mapping[str, Any] = request.POST if request.method == "POST" else {}
    errors: dict[str, str] = {}
    if request.method == "POST":
        chosen = [request.POST.get(f"seat{k}", "") for k in range(1, 5)]
        by_pk = {str(p.pk): p for p in players}
        seated = [by_pk[c] for c in chosen if c in by_pk]
        if any(c and c not in by_pk for c in chosen):
            errors["players"] = "pick players of this group"
        preset = request.POST.get("rules", "")
        override = preset if preset in PRESETS else None
        game = request.POST.get("game") or None
        try:
            date = (
                datetime.date.fromisoformat(request.POST.get("date") or "")
                if request.POST.get("date")
                else None
            )
        except ValueError:
            errors["date"] = "a date such as 2026-11-30"
            date = None
        if not errors:
            try:
                typed_text(request.POST.get("place", "").strip(), "place", Session)
                session = services.start_session(
                    group,
                    seated,
                    user_of(request),
                    game=None if override else game,
                    rules_override=override,
                    date=date,
                    place=request.POST.get("place", "").strip(),
                )
            except ScoreError as exc:
                errors["rules"] = exc.message
            except services.ServiceError as exc:
                errors[exc.field or "players"] = exc.message
            else:
                return redirect("web:deal", pk=session.pk)
    context = {
        "group": group,
        "players": players,
        "values": values,
        "seats": [(k, str(values.get(f"seat{k}", ""))) for k in range(1, 5)],
        "errors": errors,
        "presets": list(PRESETS),
        "rule_set": rule_set,
        "games": GAME_NAMES,
        "today": datetime.date.today().isoformat(),
        "role": role,
    }
    return render(request, "web/session_new.html", context, status=400 if errors else 200)


def _deal_rows(session: Session, names: Sequence[str], rules: Rules) -> list[dict[str, Any]]:
    """Every deal with each seat's units and marks, its revisions, newest first."""
    rows = []
    deals = session.deals.prefetch_related("revisions__changed_by").order_by("-number")
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
                note = "foul"
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


PAIR_KINDS = {
    "rows": "",
    "foul": "foul",
    "surrender": "surrender",
    "natural": "natural",
    "cards": "cards left",
    "none": "",
}


def _last_pairs(session: Session, names: Sequence[str]) -> tuple[Deal | None, list[dict[str, str]]]:
    """The last active deal pair by pair, each told from the winner's side, in seat order."""
    deal = session.deals.filter(status=Deal.Status.ACTIVE).order_by("-number").first()
    if deal is None:
        return None, []
    seat = {name: k for k, name in enumerate(names)}
    pairs = []
    for pair in deal.result["pairs"]:
        a, b = sorted(pair["players"], key=lambda name: seat.get(name, 0))
        won = Decimal(pair["units"]) * (1 if a == pair["players"][0] else -1)
        detail = PAIR_KINDS.get(pair.get("kind", ""), "")
        if pair.get("scoop"):
            detail = "scoop"
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


@login_required
@require_GET
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The scoreboard: running totals, the last deal pair by pair, every deal with history."""
    session, role = session_for(request, pk)
    names = seat_names(session)
    rules = session_rules(session)
    summary = reports.session_summary(session)
    running = [
        {"deal": row["deal"], "units": [signed(row["units"][n]) for n in names]}
        for row in summary["running"]
    ]
    totals = [
        {
            "name": p["name"],
            "units": signed(p["units"]),
            "money": money_in(p["money"], summary["currency"]),
            "sign": (p["units"] > 0) - (p["units"] < 0),
        }
        for p in summary["players"]
    ]
    last, pairs = _last_pairs(session, names)
    fantasy = services.fantasyland(session) if GAMES[session.game].has_fantasyland else {}
    context = {
        "session": session,
        "group": session.group,
        "role": role,
        "is_owner": role == Membership.Role.OWNER,
        "names": names,
        "running": running,
        "totals": totals,
        "last": last,
        "pairs": pairs,
        "review": _review(last, rules),
        "deals": _deal_rows(session, names, rules),
        "fantasy": fantasy,
        "game_name": game_name(rules),
    }
    return render(request, "web/session_detail.html", context)


@login_required
@require_POST
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    session, _ = session_for(request, pk)
    try:
        services.close_session(session, user_of(request))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("web:summary", pk=session.pk)


def _job_urls(session: Session, players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The API endpoints the PDF buttons ask for the sheet and each player's ledger."""
    ledgers = reverse("api:session-ledgers", args=[session.pk])
    return {
        "sheets": reverse("api:session-sheets", args=[session.pk]),
        "ledgers": [(p["name"], f"{ledgers}?player={p['id']}") for p in players],
    }


@login_required
@require_GET
def session_summary(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's end: totals, who pays whom, each player's ledger against each opponent."""
    session, role = session_for(request, pk)
    summary = reports.session_summary(session)
    currency = summary["currency"]
    settle = reports.settlement(session)
    players = [
        p
        | {
            "units_text": signed(p["units"]),
            "money_text": money_in(p["money"], currency),
            "royalties_text": units(p["royalties"]),
            "missed_text": units(p["units_missed"]),
        }
        for p in summary["players"]
    ]
    seated = {seat.player_id: seat.player for seat in session.seats.select_related("player")}
    ledgers = []
    for p in summary["players"]:
        ledger = reports.opponent_ledger(session.group, seated[p["id"]], session=session)
        ledgers.append(
            {
                "name": p["name"],
                "id": p["id"],
                "opponents": [
                    {
                        "name": o["name"],
                        "units": signed(o["units"]),
                        "money": money_in(o["money"], currency),
                        "deals": len(o["deals"]),
                    }
                    for o in ledger["opponents"]
                ],
            }
        )

    def transfers(items: list[dict[str, Any]]) -> list[dict[str, str]]:
        return [
            {
                "from": t["from"],
                "to": t["to"],
                "amount": money_in(t["amount"], currency, sign=False),
            }
            for t in items
        ]

    context = {
        "session": session,
        "group": session.group,
        "role": role,
        "summary": summary,
        "players": players,
        "fewest": transfers(settle["fewest_transfers"]),
        "pair_by_pair": transfers(settle["pair_by_pair"]),
        "ledgers": ledgers,
        "jobs": _job_urls(session, summary["players"]),
        "game_name": game_name(session_rules(session)),
    }
    return render(request, "web/session_summary.html", context)


@login_required
@require_GET
def ledger_csv(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """One player's ledger against each opponent for this session, as CSV."""
    session, _ = session_for(request, pk)
    seat = get_object_or_404(session.seats.select_related("player"), player_id=player_pk)
    text = reports.opponent_ledger_csv(session.group, seat.player, session=session)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    filename = f"session-{session.pk}-{seat.name}.csv".replace(" ", "_").replace('"', "")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
