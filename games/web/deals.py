"""Entering a deal, correcting one, voiding one, and the live preview while it is typed.

The form is read by ``games.web.entry`` the same way for a plain POST (saving without
JavaScript) and for the preview the page's script asks for.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from games import services
from games.engine import Rules, ScoreError
from games.engine.games import GAMES, descriptor_for
from games.errors import CONFLICTS, DealNotActive, IdempotencyConflict, SessionClosed
from games.models import Deal, Session
from games.present import game_name, picker_rows, signed
from games.services.dealers import dealer_name, seat_numbers
from games.web import entry
from games.web.common import (
    deal_session_for,
    require_owner_role,
    saved_keys,
    seat_names,
    session_for,
    session_rules,
    user_of,
)
from games.words import error_text

# Fields of the deal form with a feedback line of their own: errors go beside them.
ROW_FIELDS = frozenset({"front", "middle", "back", "cards", "cards_left", "discards", "cards13"})
_SEAT = re.compile(r"[0-9]{1,2}")


def _entry_context(
    session: Session,
    entries: Sequence[entry.SeatEntry],
    *,
    show_feedback: bool,
    error: entry.Preview | None = None,
) -> dict[str, Any]:
    rules = session_rules(session)
    feedback = (
        entry.analyse(entries, rules)
        if show_feedback
        else [entry.SeatFeedback(e.name) for e in entries]
    )
    game = GAMES[session.game]
    fantasy = services.fantasyland(session) if game.has_fantasyland else {}
    seats = []
    for k, (typed, seen) in enumerate(zip(entries, feedback, strict=True)):
        seat_error, row_errors = "", {}
        if error is not None and error.seat == k:
            if error.row in ROW_FIELDS:
                row_errors[error.row] = error.error
            else:
                seat_error = error.error
        rows = []
        for row in entry.ROWS:
            fb = seen.rows.get(row) or entry.RowFeedback(getattr(typed, row))
            rows.append(
                {
                    "name": row,
                    "size": entry.ROW_SIZES[row],
                    "value": getattr(typed, row),
                    "feedback": fb,
                    "error": row_errors.get(row, ""),
                }
            )
        seats.append(
            {
                "k": k,
                "prefix": entry.prefix(k),
                "entry": typed,
                "rows": rows,
                "foul": seen.foul,
                "error": seat_error or seen.error,
                "row_errors": row_errors,
                "cards_feedback": seen.rows.get("cards"),
                "fantasy": fantasy.get(typed.name),
                "sat_out": typed.sat_out,
                # Discards are given in Pineapple and in fantasy land; plain open-face
                # refuses them, so the box shows there only if something is typed in it.
                "discards": game.has_discards
                and bool(rules.pineapple or fantasy.get(typed.name) or typed.discards.strip()),
            }
        )
    form_error = error.error if error is not None and error.seat is None and error.error else ""
    return {
        "session": session,
        "group": session.group,
        "seats": seats,
        "naturals": entry.allowed_naturals(rules) if game.has_naturals else [],
        "surrender_allowed": rules.surrender_cost is not None,
        "form_error": form_error,
        "game_name": game_name(rules),
        "idempotency_key": uuid.uuid4().hex,
        "criss_cross": descriptor_for(rules).shape == "crossed",
        "leftovers": game.shape == "leftovers",
        "royalties_declared": rules.royalties_declared and game.rows != (),
        "picker": picker_rows() if game.shape != "leftovers" else [],
        "saved_keys": saved_keys(session),
    }


def _arrange_seat(request: HttpRequest, entries: Sequence[entry.SeatEntry]) -> int | None:
    """The seat the "arrange" button names (0-based), or None when it names none."""
    value = request.POST["arrange"]
    if _SEAT.fullmatch(value) and int(value) < len(entries):
        return int(value)
    return None


def _apply_arrange(
    request: HttpRequest, entries: list[entry.SeatEntry], rules: Rules
) -> entry.Preview | str:
    """The "arrange" button of seat k: fill its rows from its 13 cards and say how they
    were set (or a Preview saying why not)."""
    k = _arrange_seat(request, entries)
    if k is None:
        value = request.POST["arrange"][:20]
        return entry.Preview(
            error=f"arrange: {value!r} is not a seat of this deal (0 to {len(entries) - 1})",
            field="arrange",
        )
    try:
        found = entry.arrange(entries[k].cards13, rules)
    except ScoreError as exc:
        return entry.Preview(error=error_text(exc), field=f"players[{k}].cards13")
    entries[k].front, entries[k].middle, entries[k].back = found.rows
    return found.how


def _refusal(exc: services.ServiceError) -> str:
    """A service's refusal of the deal form, as the person at the table reads it."""
    if isinstance(exc, IdempotencyConflict):
        return gettext(
            "This form was already saved as deal %(number)s, with other cards: nothing new"
            " was saved. Check deal %(number)s on the scoreboard, or save again to record"
            " these cards as another deal."
        ) % {"number": exc.number}
    if exc.field == "Idempotency-Key":
        return gettext("Nothing was saved: the form's key is not valid (%(why)s). Save again.") % {
            "why": exc.message
        }
    return exc.message


def _deal_form(request: HttpRequest, session: Session, deal: Deal | None) -> HttpResponse:
    """Enter a new deal (``deal`` None) or correct one; a plain POST saves it."""
    names = seat_names(session)
    template = "web/deal_form.html"
    extra: dict[str, Any] = {"deal": deal, "dealers": names}
    if request.method == "GET":
        if deal is None:
            entries = [entry.SeatEntry(name) for name in names]
            extra["dealer"] = services.upcoming_dealer(session)
        else:
            entries = entry.entries_from_request(deal.request["players"], names)
            extra["dealer"] = dealer_name(deal.dealer, seat_numbers(session))
        return render(
            request,
            template,
            _entry_context(session, entries, show_feedback=deal is not None) | extra,
        )
    entries = entry.read_entries(request.POST, names)
    extra["reason"] = request.POST.get("reason", "")
    dealer = request.POST.get("dealer") or None
    extra["dealer"] = dealer
    rules = session_rules(session)
    if "arrange" in request.POST:
        arranged = _apply_arrange(request, entries, rules)
        problem = arranged if isinstance(arranged, entry.Preview) else None
        context = _entry_context(session, entries, show_feedback=True, error=problem)
        if problem is None:
            k = _arrange_seat(request, entries)
            assert k is not None  # _apply_arrange refuses any other value
            context["seats"][k]["arranged"] = arranged
        return render(request, template, context | extra, status=400 if problem else 200)
    # A natural declared with its 13 cards and no rows is sent as those cards: the engine
    # lays them out (the preview shows a layout from the same engine function).
    players = entry.request_players(entries, GAMES[session.game])
    user = user_of(request)
    try:
        if deal is None:
            key = request.POST.get("idempotency_key") or None
            saved = services.record_or_replay(session, players, user, key, dealer).deal
            # The scoreboard says so, with Undo and Next deal beside it.
            url = reverse("web:session", args=[session.pk])
            return redirect(f"{url}?saved={saved.number}#saved")
        else:
            saved = services.edit_deal(deal, players, user, extra["reason"], dealer)
            messages.success(
                request,
                gettext("Deal %(number)s corrected (version %(version)s).")
                % {"number": saved.number, "version": saved.version},
            )
    except ScoreError as exc:
        problem = entry.Preview(error=error_text(exc), field=exc.field)
        context = _entry_context(session, entries, show_feedback=True, error=problem)
        return render(request, template, context | extra, status=400)
    except (SessionClosed, DealNotActive) as exc:
        messages.error(request, exc.message)
        return redirect("web:session", pk=session.pk)
    except services.ServiceError as exc:
        # A reused key, a bad key or reason: the form again, as typed, with a fresh key.
        problem = entry.Preview(error=_refusal(exc))
        context = _entry_context(session, entries, show_feedback=True, error=problem)
        status = 409 if isinstance(exc, CONFLICTS) else 400
        return render(request, template, context | extra, status=status)
    return redirect(reverse("web:session", args=[session.pk]) + "#scoreboard")


@login_required
@require_http_methods(["GET", "POST"])
def deal_new(request: HttpRequest, pk: int) -> HttpResponse:
    session, _ = deal_session_for(request, pk)
    if not session.is_open:
        messages.error(request, gettext("This session is closed: its deals are read-only."))
        return redirect("web:summary", pk=session.pk)
    return _deal_form(request, session, None)


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, _ = session_for(request, pk)
    deal = get_object_or_404(session.deals, number=number)
    if not session.is_open or not deal.is_active:
        messages.error(
            request,
            (
                gettext("Deal %(number)s cannot be changed: the session is closed.")
                if not session.is_open
                else gettext("Deal %(number)s cannot be changed: it is void.")
            )
            % {"number": number},
        )
        return redirect("web:session", pk=session.pk)
    return _deal_form(request, session, deal)


@login_required
@require_POST
def deal_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, role = session_for(request, pk)
    require_owner_role(role)
    deal = get_object_or_404(session.deals, number=number)
    try:
        services.void_deal(deal, user_of(request), reason=request.POST.get("reason", ""))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            gettext("Deal %(number)s is void: it stays listed and counts for nothing.")
            % {"number": number},
        )
    return redirect(reverse("web:session", args=[session.pk]) + "#deals")


@login_required
@require_POST
def deal_restore(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """An owner undoes a void: the deal counts again, the void and the restore in its
    history."""
    session, role = session_for(request, pk)
    require_owner_role(role)
    deal = get_object_or_404(session.deals, number=number)
    try:
        services.restore_deal(deal, user_of(request), reason=request.POST.get("reason", ""))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, gettext("Deal %(number)s is restored: it counts again.") % {"number": number}
        )
    return redirect(reverse("web:session", args=[session.pk]) + f"#deal-{number}")


@login_required
@require_POST
def deal_preview(request: HttpRequest, pk: int) -> JsonResponse:
    """Live feedback as the deal is typed: rows, fouls, duplicates and the units, as JSON."""
    session, _ = session_for(request, pk)
    names = seat_names(session)
    rules = session_rules(session)
    entries = entry.read_entries(request.POST, names)
    body: dict[str, Any] = {}
    if "arrange" in request.POST:
        arranged = _apply_arrange(request, entries, rules)
        if isinstance(arranged, entry.Preview):
            return JsonResponse(
                {"arrange_error": arranged.error, "seat": arranged.seat}, status=400
            )
        k = _arrange_seat(request, entries)
        assert k is not None  # _apply_arrange refuses any other value
        rows = {row: getattr(entries[k], row) for row in entry.ROWS}
        body["arranged"] = {"seat": k, "how": arranged, **rows}
    game = GAMES[session.game]
    if game.has_naturals:
        entry.lay_out_naturals(entries, rules)
    seats = entry.analyse(entries, rules)
    body["seats"] = [
        {
            "name": seat.name,
            "sat_out": seat.sat_out,
            "foul": seat.foul,
            "rows": {
                row: {
                    "cards": fb.cards,
                    "label": fb.label,
                    "error": fb.error,
                    "duplicate": fb.duplicate,
                    "progress": fb.progress,
                }
                for row, fb in seat.rows.items()
            },
        }
        for seat in seats
    ]
    if entry.complete(entries, game):
        fantasy = services.fantasyland(session) if game.has_fantasyland else None
        result = entry.preview(entry.request_players(entries, game, fantasy), rules)
        if result.result is not None:
            body["units"] = [
                {
                    "name": p["name"],
                    "units": signed(Decimal(p["units"])),
                    "fouled": p.get("fouled", False),
                }
                for p in result.result["players"]
            ]
            body["pairs"] = [
                {
                    "players": pair["players"],
                    "units": signed(Decimal(pair["units"])),
                    "kind": pair["kind"],
                    "scoop": pair.get("scoop"),
                }
                for pair in result.result["pairs"]
            ]
        else:
            body["error"] = {"message": result.error, "seat": result.seat, "row": result.row}
    return JsonResponse(body)
