"""The table-side pages: groups, sessions, deal entry, scoreboard and the night's end.

Every page needs a login; a group's pages answer 404 to anyone outside the group, and
owner-only actions 403. All changes go through ``games.services`` (the code the API uses)
and every number shown comes from the engine or the ledger reports.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import reports, services
from games.engine import Rules, ScoreError
from games.engine.cards import parse_cards
from games.engine.rules import PRESETS, decimal_text
from games.models import Deal, Group, Membership, Player, Session
from games.permissions import NotAllowed, role_of
from games.web import entry, rules_form

GAME_NAMES = {"chinese": "Chinese poker", "open-face": "Open-face", "big-two": "Big Two"}
ZERO = Decimal(0)
# Fields of the deal form with a feedback line of their own: errors go beside them.
ROW_FIELDS = frozenset({"front", "middle", "back", "cards", "cards_left", "discards", "cards13"})


# --- helpers ---------------------------------------------------------------------------


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)  # every view is behind login_required
    return user


def _group(request: HttpRequest, pk: int) -> tuple[Group, str]:
    """The group and the user's role in it; 404 for anyone outside it."""
    group = get_object_or_404(Group, pk=pk)
    role = role_of(_user(request), group)
    if role is None:
        raise Http404("no such group")
    return group, role


def _session(request: HttpRequest, pk: int) -> tuple[Session, str]:
    session = get_object_or_404(Session.objects.select_related("group"), pk=pk)
    role = role_of(_user(request), session.group)
    if role is None:
        raise Http404("no such session")
    return session, role


def _require_owner(role: str) -> None:
    if role != Membership.Role.OWNER:
        raise NotAllowed("only an owner of the group may do this")


def signed(value: Decimal) -> str:
    """Units with their sign: "+6", "-2.5", "0"."""
    text = decimal_text(value)
    return f"+{text}" if value > 0 else text


def money(value: Decimal, currency: str) -> str:
    return f"{signed(value)} {currency}"


def _names(session: Session) -> list[str]:
    return list(session.seats.order_by("seat").values_list("name", flat=True))


def _rules(session: Session) -> Rules:
    return Rules.from_mapping(session.rules)


def _rules_summary(spec: Any, rules: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(option, value, sentence) for every option of the rules' game.

    A royalty or naturals table is named as agreed (or as the preset names it).
    """
    preset = str(rules.get("preset", "standard"))
    agreed = spec if isinstance(spec, Mapping) else {}
    rows = []
    for option in rules_form.options_for(preset):
        value = rules.get(option.name)
        if isinstance(value, Mapping) and isinstance(agreed.get(option.name), str):
            text = agreed[option.name]
        elif isinstance(value, Mapping) and option.name not in agreed:
            text = rules_form.preset_value(preset, option)
        else:
            text = rules_form.describe_value(option, value)
        rows.append((option.name, text, option.sentence))
    return rows


# --- groups ------------------------------------------------------------------------------


@login_required
@require_GET
def group_list(request: HttpRequest) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=_user(request))
        .select_related("group")
        .annotate(open_sessions=Count("group__sessions", filter=Q(group__sessions__status="open")))
        .order_by("group__name")
    )
    return render(request, "web/group_list.html", {"memberships": memberships})


def _group_context(group: Group, role: str) -> dict[str, Any]:
    rule_set = group.current_rule_set()
    standings = reports.group_standings(group)
    for row in standings["players"]:
        row["units_text"] = signed(row["units"])
        row["money_text"] = money(row["money"], group.currency)
    players = list(group.players.all())
    stakes = [
        (stake, decimal_text(stake.multiplier))
        for stake in group.pair_stakes.select_related("player_a", "player_b")
    ]
    return {
        "group": group,
        "role": role,
        "is_owner": role == Membership.Role.OWNER,
        "sessions": group.sessions.annotate(
            deal_count=Count("deals", filter=Q(deals__status="active"))
        ).prefetch_related("seats"),
        "standings": standings["players"],
        "rule_set": rule_set,
        "rules_summary": _rules_summary(rule_set.spec, rule_set.rules),
        "players": players,
        "stakes": stakes,
        "unit_value": decimal_text(group.unit_value),
        "game_names": GAME_NAMES,
    }


@login_required
@require_http_methods(["GET", "POST"])
def group_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's sessions, standings, rules and players; members add players here."""
    group, role = _group(request, pk)
    context = _group_context(group, role)
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            services.add_player(group, name, by=_user(request))
        except services.ServiceError as error:
            context.update(player_error=error.message, player_name=name)
            return render(request, "web/group_detail.html", context, status=400)
        messages.success(request, f"{name.strip()} joined the table.")
        return redirect("web:group", pk=group.pk)
    return render(request, "web/group_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def group_rules(request: HttpRequest, pk: int) -> HttpResponse:
    """Owners pick a preset and override options; the engine validates the result."""
    group, role = _group(request, pk)
    _require_owner(role)
    rule_set = group.current_rule_set()
    values = rules_form.initial_from_spec(rule_set.spec)
    error, error_field = "", None
    if request.method == "POST":
        values = {key: str(value) for key, value in request.POST.items()}
    if request.method == "POST" and "show" not in request.POST:
        spec = rules_form.spec_from_form(request.POST, rule_set.spec)
        try:
            services.set_rules(group, spec, by=_user(request))
        except ScoreError as exc:
            error, error_field = exc.message, exc.field
        else:
            messages.success(request, "New rules saved: sessions started from now use them.")
            return redirect("web:group", pk=group.pk)
    typed = values.get("preset", "")
    preset: str = typed if typed in PRESETS else str(rule_set.rules["preset"])
    option_name = (error_field or "").removeprefix("rules.").split(".")[0]
    same_preset = isinstance(rule_set.spec, Mapping) and rule_set.spec.get("preset") == preset
    kept = rules_form.custom_tables(rule_set.spec) if same_preset else {}
    options = [
        {
            "option": option,
            "value": values.get(option.name, ""),
            "preset_value": "the agreed custom table"
            if option.name in kept
            else rules_form.preset_value(preset, option),
            "error": error if option_name == option.name else "",
        }
        for option in rules_form.OPTIONS
    ]
    applies = {option.name for option in rules_form.options_for(preset)}
    context = {
        "group": group,
        "presets": [(name, PRESETS[name].get("game", "chinese")) for name in PRESETS],
        "preset": values.get("preset", ""),
        "options": options,
        "applies": applies,
        "error": error if not any(o["error"] for o in options) else "",
        "rule_set": rule_set,
    }
    return render(request, "web/group_rules.html", context, status=400 if error else 200)


def _player(group: Group, pk: str) -> Player:
    if not pk.isdigit():
        raise Http404("no such player")
    return get_object_or_404(group.players, pk=pk)


@login_required
@require_POST
def group_stakes(request: HttpRequest, pk: int) -> HttpResponse:
    """Owners change the unit's value and currency, or one pair's multiple of it."""
    group, role = _group(request, pk)
    _require_owner(role)
    user = _user(request)
    try:
        if "multiplier" in request.POST:
            first = _player(group, request.POST.get("first", ""))
            second = _player(group, request.POST.get("second", ""))
            services.set_pair_stake(group, first, second, request.POST["multiplier"], by=user)
            messages.success(
                request, f"{first} and {second} now play at x{request.POST['multiplier']}."
            )
        else:
            services.update_group(
                group,
                user,
                unit_value=request.POST.get("unit_value", ""),
                currency=request.POST.get("currency", ""),
            )
            messages.success(request, "Stakes saved: deals recorded from now use them.")
    except services.ServiceError as error:
        context = _group_context(group, role)
        context.update(stakes_error=error.message, stakes_values=request.POST)
        return render(request, "web/group_detail.html", context, status=400)
    return redirect(reverse("web:group", args=[group.pk]) + "#stakes")


# --- sessions ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick the game, two to four players in seat order, and tonight's rules."""
    group, role = _group(request, pk)
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
                session = services.start_session(
                    group,
                    seated,
                    _user(request),
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


def _deal_rows(session: Session, names: Sequence[str]) -> list[dict[str, Any]]:
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
            note = ""
            if p.get("fouled"):
                note = "foul"
            elif p.get("surrendered"):
                note = "surrender"
            elif p.get("natural"):
                note = entry.NATURAL_NAMES.get(p["natural"], p["natural"])
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
        units = Decimal(pair["units"]) * (1 if a == pair["players"][0] else -1)
        detail = PAIR_KINDS.get(pair.get("kind", ""), "")
        if pair.get("scoop"):
            detail = "scoop"
        if units < 0:
            text = f"{b} wins {decimal_text(-units)} from {a}"
        elif units > 0:
            text = f"{a} wins {decimal_text(units)} from {b}"
        else:
            text = f"{a} and {b} are even"
        pairs.append({"a": a, "b": b, "text": text, "units": signed(units), "detail": detail})
    return deal, pairs


def _review(deal: Deal | None) -> dict[str, Any] | None:
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
            how = f"declare {entry.NATURAL_NAMES.get(line['natural'], line['natural'])}"
        elif line["declare"] == "surrender":
            how = "surrender"
        else:
            how = ""
        rows = [
            entry.card_faces(parse_cards(line["best"][row], row, row))
            for row in ("front", "middle", "back")
        ]
        players.append(
            {
                "name": line["name"],
                "missed": decimal_text(missed),
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
    session, role = _session(request, pk)
    names = _names(session)
    summary = reports.session_summary(session)
    running = [
        {"deal": row["deal"], "units": [signed(row["units"][n]) for n in names]}
        for row in summary["running"]
    ]
    totals = [
        {
            "name": p["name"],
            "units": signed(p["units"]),
            "money": money(p["money"], summary["currency"]),
            "sign": (p["units"] > 0) - (p["units"] < 0),
        }
        for p in summary["players"]
    ]
    last, pairs = _last_pairs(session, names)
    fantasy = services.fantasyland(session) if session.game == Session.Game.OPEN_FACE else {}
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
        "review": _review(last),
        "deals": _deal_rows(session, names),
        "fantasy": fantasy,
        "game_name": GAME_NAMES[session.game],
    }
    return render(request, "web/session_detail.html", context)


def _entry_context(
    session: Session,
    entries: Sequence[entry.SeatEntry],
    *,
    show_feedback: bool,
    error: entry.Preview | None = None,
) -> dict[str, Any]:
    rules = _rules(session)
    feedback = (
        entry.analyse(entries, rules)
        if show_feedback
        else [entry.SeatFeedback(e.name) for e in entries]
    )
    fantasy = services.fantasyland(session) if session.game == Session.Game.OPEN_FACE else {}
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
            }
        )
    form_error = error.error if error is not None and error.seat is None and error.error else ""
    return {
        "session": session,
        "group": session.group,
        "seats": seats,
        "naturals": entry.allowed_naturals(rules) if session.game == Session.Game.CHINESE else [],
        "surrender_allowed": rules.surrender_cost is not None,
        "form_error": form_error,
        "game_name": GAME_NAMES[session.game],
        "idempotency_key": uuid.uuid4().hex,
        "criss_cross": rules.criss_cross,
    }


def _apply_arrange(
    request: HttpRequest, entries: list[entry.SeatEntry], rules: Rules
) -> entry.Preview | None:
    """The "arrange" button of seat k: fill its rows from its 13 cards (or say why not)."""
    k = int(request.POST["arrange"]) if request.POST["arrange"].isdigit() else -1
    if not 0 <= k < len(entries):
        return None
    try:
        entries[k].front, entries[k].middle, entries[k].back = entry.arrange(
            entries[k].cards13, rules
        )
    except ScoreError as exc:
        return entry.Preview(error=exc.message, field=f"players[{k}].cards13")
    return None


def _deal_form(request: HttpRequest, session: Session, deal: Deal | None) -> HttpResponse:
    """Enter a new deal (``deal`` None) or correct one; a plain POST saves it."""
    names = _names(session)
    template = "web/deal_form.html"
    extra: dict[str, Any] = {"deal": deal}
    if request.method == "GET":
        if deal is None:
            entries = [entry.SeatEntry(name) for name in names]
        else:
            entries = entry.entries_from_request(deal.request["players"], names)
        return render(
            request,
            template,
            _entry_context(session, entries, show_feedback=deal is not None) | extra,
        )
    entries = entry.read_entries(request.POST, names)
    extra["reason"] = request.POST.get("reason", "")
    rules = _rules(session)
    if "arrange" in request.POST:
        problem = _apply_arrange(request, entries, rules)
        context = _entry_context(session, entries, show_feedback=True, error=problem)
        return render(request, template, context | extra, status=400 if problem else 200)
    players = entry.request_players(entries, session.game)
    user = _user(request)
    try:
        if deal is None:
            key = request.POST.get("idempotency_key") or None
            saved = services.record_or_replay(session, players, user, key).deal
            messages.success(request, f"Deal {saved.number} saved.")
        else:
            saved = services.edit_deal(deal, players, user, reason=extra["reason"])
            messages.success(request, f"Deal {saved.number} corrected (version {saved.version}).")
    except ScoreError as exc:
        problem = entry.Preview(error=exc.message, field=exc.field)
        context = _entry_context(session, entries, show_feedback=True, error=problem)
        return render(request, template, context | extra, status=400)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("web:session", pk=session.pk)
    return redirect(reverse("web:session", args=[session.pk]) + "#scoreboard")


@login_required
@require_http_methods(["GET", "POST"])
def deal_new(request: HttpRequest, pk: int) -> HttpResponse:
    session, _ = _session(request, pk)
    if not session.is_open:
        messages.error(request, "This session is closed: its deals are read-only.")
        return redirect("web:summary", pk=session.pk)
    return _deal_form(request, session, None)


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, _ = _session(request, pk)
    deal = get_object_or_404(session.deals, number=number)
    if not session.is_open or not deal.is_active:
        messages.error(
            request,
            f"Deal {number} cannot be changed: "
            + ("the session is closed." if not session.is_open else "it is void."),
        )
        return redirect("web:session", pk=session.pk)
    return _deal_form(request, session, deal)


@login_required
@require_POST
def deal_void(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    session, role = _session(request, pk)
    _require_owner(role)
    deal = get_object_or_404(session.deals, number=number)
    try:
        services.void_deal(deal, _user(request), reason=request.POST.get("reason", ""))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Deal {number} is void: it stays listed and counts for nothing.")
    return redirect(reverse("web:session", args=[session.pk]) + "#deals")


@login_required
@require_POST
def deal_preview(request: HttpRequest, pk: int) -> JsonResponse:
    """Live feedback as the deal is typed: rows, fouls, duplicates and the units, as JSON."""
    session, _ = _session(request, pk)
    names = _names(session)
    rules = _rules(session)
    entries = entry.read_entries(request.POST, names)
    body: dict[str, Any] = {}
    if "arrange" in request.POST:
        problem = _apply_arrange(request, entries, rules)
        if problem is not None:
            return JsonResponse({"arrange_error": problem.error, "seat": problem.seat}, status=400)
        k = int(request.POST["arrange"])
        body["arranged"] = {"seat": k, **{row: getattr(entries[k], row) for row in entry.ROWS}}
    seats = entry.analyse(entries, rules)
    body["seats"] = [
        {
            "name": seat.name,
            "foul": seat.foul,
            "rows": {
                row: {
                    "cards": fb.cards,
                    "label": fb.label,
                    "error": fb.error,
                    "duplicate": fb.duplicate,
                }
                for row, fb in seat.rows.items()
            },
        }
        for seat in seats
    ]
    if entry.complete(entries, session.game):
        fantasy = services.fantasyland(session) if session.game == Session.Game.OPEN_FACE else None
        result = entry.preview(entry.request_players(entries, session.game, fantasy), rules)
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


@login_required
@require_POST
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    session, _ = _session(request, pk)
    try:
        services.close_session(session, _user(request))
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
    session, role = _session(request, pk)
    summary = reports.session_summary(session)
    currency = summary["currency"]
    settle = reports.settlement(session)
    players = [
        p
        | {
            "units_text": signed(p["units"]),
            "money_text": money(p["money"], currency),
            "royalties_text": decimal_text(p["royalties"]),
            "missed_text": decimal_text(p["units_missed"]),
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
                        "money": money(o["money"], currency),
                        "deals": len(o["deals"]),
                    }
                    for o in ledger["opponents"]
                ],
            }
        )

    def transfers(items: list[dict[str, Any]]) -> list[dict[str, str]]:
        return [
            {"from": t["from"], "to": t["to"], "amount": f"{decimal_text(t['amount'])} {currency}"}
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
        "game_name": GAME_NAMES[session.game],
    }
    return render(request, "web/session_summary.html", context)


@login_required
@require_GET
def ledger_csv(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    """One player's ledger against each opponent for this session, as CSV."""
    session, _ = _session(request, pk)
    seat = get_object_or_404(session.seats.select_related("player"), player_id=player_pk)
    text = reports.opponent_ledger_csv(session.group, seat.player, session=session)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    filename = f"session-{session.pk}-{seat.name}.csv".replace(" ", "_").replace('"', "")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
