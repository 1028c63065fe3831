"""The session pages: start one, the scoreboard while it is played, close it, and the night's
end (totals, who pays whom, each player's ledger against each opponent)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import reports, services
from games.engine import ScoreError
from games.engine.games import GAMES
from games.engine.rules import PRESETS
from games.lib.locales import by_name, player_name
from games.models import Session
from games.present import (
    GAME_NAMES,
    big_two_lines,
    game_name,
    money_in,
    signed,
    units,
)
from games.services.names import file_part
from games.sheets.statements import unreviewed_deals
from games.web.common import (
    group_for,
    session_for,
    session_rules,
    typed_text,
    user_of,
)
from games.web.payments import night_context
from games.words import error_text


def seating_order(group: Any, players: list[Any]) -> list[Any]:
    """The players as they sat at the group's last session (seat 1 first), then the others
    in the order they joined the group: the new session's seats start so (retired players
    are kept in history only, and not offered)."""
    last = group.sessions.order_by("-date", "-pk").first()
    seat_of = dict(last.seats.values_list("player_id", "seat")) if last else {}
    return sorted(players, key=lambda p: (seat_of.get(p.pk, len(seat_of) + 1), p.pk))


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick the game, two to four players in seat order, and tonight's rules."""
    group, role = group_for(request, pk)
    players = by_name(group.players.all(), player_name)
    offered = seating_order(group, [p for p in players if not p.is_retired])
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
                errors["rules"] = error_text(exc)
            except services.ServiceError as exc:
                errors[exc.field or "players"] = exc.message
            else:
                return redirect("web:deal", pk=session.pk)
    context = {
        "group": group,
        "players": offered,
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


@login_required
@require_POST
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    session, _ = session_for(request, pk)
    try:
        services.close_session(session, user_of(request))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("web:summary", pk=session.pk)


@login_required
@require_POST
def session_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    """Owners only: a closed session takes deals again."""
    session, _role = session_for(request, pk)
    try:
        services.reopen_session(session, user_of(request), request.POST.get("reason", ""))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, gettext("The session is open again."))
    return redirect("web:session", pk=session.pk)


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
    rows = reports.pair_rows(session)  # the ledger summed pair by pair, once for the page
    pairs = reports.sums_of(rows)
    summary = reports.session_summary(session, running=False, pairs=pairs)
    currency = summary["currency"]
    settle = reports.settlement(session, pairs)
    players = [
        p
        | {
            "units_text": signed(p["units"]),
            "money_text": money_in(p["money"], currency),
            "royalties_text": units(p["royalties"]),
            "missed_text": units(p["units_missed"]),
        }
        | ({"average_text": units(p["cards_left_average"])} if "big_two" in summary else {})
        for p in summary["players"]
    ]
    against = reports.session_opponents(session, rows)
    ledgers = [
        {
            "name": p["name"],
            "id": p["id"],
            "opponents": [
                {
                    "name": o["name"],
                    "units": signed(o["units"]),
                    "money": money_in(o["money"], currency),
                    "deals": o["deals"],
                }
                for o in against[p["name"]]
            ],
        }
        for p in summary["players"]
    ]

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
        "big_two": big_two_lines(summary["big_two"]) if "big_two" in summary else None,
        "fewest": transfers(settle["fewest_transfers"]),
        "pair_by_pair": transfers(settle["pair_by_pair"]),
        "ledgers": ledgers,
        "jobs": _job_urls(session, summary["players"]),
        "game_name": game_name(session_rules(session)),
        "all_players": by_name(session.group.players.all(), player_name),
        "reviewed_game": GAMES[session.game].reviewed,
        "unreviewed": unreviewed_deals(session)
        if GAMES[session.game].reviewed and summary["reviewed_deals"] < summary["deals"]
        else 0,
        "today": datetime.date.today().isoformat(),
        **night_context(request, session, role, play=pairs),
    }
    return render(request, "web/session_summary.html", context)


@login_required
@require_GET
def ledger_csv(request: HttpRequest, pk: int, player_pk: int) -> StreamingHttpResponse:
    """One player's ledger against each opponent for this session, as CSV."""
    session, _ = session_for(request, pk)
    seat = get_object_or_404(session.seats.select_related("player"), player_id=player_pk)
    pieces = reports.opponent_ledger_csv_stream(session.group, seat.player, session=session)
    response = StreamingHttpResponse(
        (piece.encode() for piece in pieces), content_type="text/csv; charset=utf-8"
    )
    filename = f"session-{session.pk}-{file_part(seat.name)}.csv"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response
