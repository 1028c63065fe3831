"""Settling up on the pages: the group's balances across nights (with a date range), who
pays whom to clear everything, recording a payment, confirming or voiding one, correcting
one, and "settle this night" from the night's end.

Thin: every change is a service of ``games.services.payments``; every amount a report's.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import reports, services
from games.lib.locales import by_name, player_name
from games.models import Group, Payment, PaymentRevision
from games.present import money_in, signed
from games.services.payments import may_confirm
from games.web.common import group_for, session_for, user_of
from games.words.notes import note_of


def _date(text: str | None) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def balance_words(value: Decimal, currency: str, *, you: bool = False) -> str:
    """A balance as a sentence's end, from the reader's side: "is owed 14.50 EUR", "owes
    14.50 EUR", "even" (for the reader's own player: "you are owed ...", "you owe ...")."""
    amount = money_in(abs(value), currency, sign=False)
    if value > 0:
        return (
            _("you are owed %(amount)s") % {"amount": amount}
            if you
            else _("is owed %(amount)s") % {"amount": amount}
        )
    if value < 0:
        return (
            _("you owe %(amount)s") % {"amount": amount}
            if you
            else _("owes %(amount)s") % {"amount": amount}
        )
    return _("even")


def pending_words(value: Decimal, currency: str) -> str:
    """Payments recorded but not yet confirmed, from the player's side: what they sent
    (the payee still to confirm it) or what they are to confirm they received."""
    amount = money_in(abs(value), currency, sign=False)
    if value > 0:
        return _("%(amount)s sent, not yet confirmed") % {"amount": amount}
    if value < 0:
        return _("%(amount)s to confirm") % {"amount": amount}
    return ""


def _back(request: HttpRequest, default: str) -> HttpResponse:
    """To the page the form was on (a path of this site only), else ``default``."""
    target = request.POST.get("next", "")
    if (
        target.startswith("/")
        and "\x00" not in target
        and url_has_allowed_host_and_scheme(target, {request.get_host()})
    ):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(default)


def payment_rows(
    request: HttpRequest, group: Group, payments: Any, role: str
) -> list[dict[str, Any]]:
    """Payments as the pages list them, with what this user (of ``role``) may do to each."""
    user = user_of(request)
    rows = []
    edits = PaymentRevision.objects.filter(
        payment=OuterRef("pk"), action=PaymentRevision.Action.EDIT
    )
    rows_with = payments.select_related("payer", "payee", "session")
    for payment in rows_with.annotate(corrected=Exists(edits)):
        live = payment.status != Payment.Status.VOID
        rows.append(
            {
                "payment": payment,
                "amount": money_in(payment.amount, group.currency, sign=False),
                "note": note_of(payment),
                "may_confirm": live
                and payment.status == Payment.Status.PENDING
                and may_confirm(user, payment, role),
                "may_void": live and may_confirm(user, payment, role),
                "may_edit": live,
            }
        )
    return rows


@login_required
@require_http_methods(["GET"])
def group_balances(request: HttpRequest, pk: int) -> HttpResponse:
    """What everyone is owed across nights, per player and per opponent, and the fewest
    transfers that clear it; a form to record a payment; the payments of the dates."""
    group, role = group_for(request, pk)
    date_from, date_to = _date(request.GET.get("from")), _date(request.GET.get("to"))
    data = reports.group_balances(group, date_from, date_to)
    currency = group.currency

    def amount(value: Any) -> str:
        return money_in(value, currency)

    mine = set(group.players.filter(user=user_of(request)).values_list("pk", flat=True))
    players = [
        row
        | {
            "units_text": signed(row["units"]),
            "won_text": amount(row["won"]),
            "paid_text": amount(row["paid"]),
            "received_text": amount(row["received"]),
            "pending_text": pending_words(row["pending"], currency),
            "balance_text": balance_words(row["balance"], currency, you=row["id"] in mine),
        }
        for row in data["players"]
    ]
    opponents = [
        row
        | {
            "won_text": amount(row["won"]),
            "paid_text": amount(row["paid"]),
            "balance_text": amount(row["balance"]),
        }
        for row in data["opponents"]
        if row["balance"] or row["won"]
    ]
    ids = {p.name: p.pk for p in group.players.all()}
    transfers = [
        t
        | {
            "amount_text": money_in(t["amount"], currency, sign=False),
            # Tapped, it fills the payment form below with this transfer.
            "record": "?"
            + urlencode({"payer": ids[t["payer"]], "payee": ids[t["payee"]], "amount": t["amount"]})
            + "#record-h",
        }
        for t in data["transfers"]
    ]
    payments = group.payments.order_by("-date", "-pk")
    if date_from:
        payments = payments.filter(date__gte=date_from)
    if date_to:
        payments = payments.filter(date__lte=date_to)
    context = {
        "group": group,
        "role": role,
        "players": players,
        "opponents": opponents,
        "transfers": transfers,
        "date_from": date_from,
        "date_to": date_to,
        "payments": payment_rows(request, group, payments[:200], role),
        "all_players": by_name(group.players.all(), player_name),
        "today": datetime.date.today().isoformat(),
        "initial": {name: request.GET.get(name, "") for name in ("payer", "payee", "amount")},
        "statement_url": reverse("api:group-statement", args=[group.pk]),
    }
    return render(request, "web/balances.html", context)


@login_required
@require_POST
def payment_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Record a payment (pending; ticked "received" by the payee or an owner: confirmed)."""
    group, _role = group_for(request, pk)
    by_pk = {str(p.pk): p for p in group.players.all()}
    payer, payee = (
        by_pk.get(request.POST.get("payer", "")),
        by_pk.get(request.POST.get("payee", "")),
    )
    session = None
    if request.POST.get("session", "").isdecimal() and len(request.POST["session"]) < 12:
        session = group.sessions.filter(pk=int(request.POST["session"])).first()
    if payer is None or payee is None:
        messages.error(request, _("Pick who paid and who was paid."))
        return _back(request, reverse("web:balances", args=[group.pk]))
    try:
        services.record_payment(
            group,
            payer,
            payee,
            request.POST.get("amount", ""),
            user_of(request),
            date=_date(request.POST.get("date")),
            note=request.POST.get("note", ""),
            session=session,
            confirmed=request.POST.get("confirmed") == "on",
        )
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Payment recorded."))
    return _back(request, reverse("web:balances", args=[group.pk]))


def _payment(request: HttpRequest, pk: int, payment_pk: int) -> tuple[Group, Payment]:
    group, _role = group_for(request, pk)
    return group, get_object_or_404(group.payments.select_related("group", "payee"), pk=payment_pk)


@login_required
@require_POST
def payment_confirm(request: HttpRequest, pk: int, payment_pk: int) -> HttpResponse:
    group, payment = _payment(request, pk, payment_pk)
    try:
        services.confirm_payment(payment, user_of(request))
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Payment confirmed: it counts now."))
    return _back(request, reverse("web:balances", args=[group.pk]))


@login_required
@require_POST
def payment_void(request: HttpRequest, pk: int, payment_pk: int) -> HttpResponse:
    group, payment = _payment(request, pk, payment_pk)
    try:
        services.void_payment(payment, user_of(request), request.POST.get("reason", "").strip())
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Payment voided."))
    return _back(request, reverse("web:balances", args=[group.pk]))


@login_required
@require_http_methods(["GET", "POST"])
def payment_edit(request: HttpRequest, pk: int, payment_pk: int) -> HttpResponse:
    """Correct a payment; its earlier versions are listed under the form."""
    group, payment = _payment(request, pk, payment_pk)
    error = None
    if request.method == "POST":
        by_pk = {str(p.pk): p for p in group.players.all()}
        changes: dict[str, Any] = {
            "amount": request.POST.get("amount", ""),
            "note": request.POST.get("note", ""),
        }
        for field in ("payer", "payee"):
            if request.POST.get(field) in by_pk:
                changes[field] = by_pk[request.POST[field]]
        date = _date(request.POST.get("date"))
        if date:
            changes["date"] = date
        try:
            services.edit_payment(
                payment, changes, user_of(request), request.POST.get("reason", "").strip()
            )
        except services.ServiceError as exc:
            error = exc.message
        else:
            messages.success(request, _("Payment corrected."))
            return redirect("web:balances", pk=group.pk)
    context = {
        "group": group,
        "payment": payment,
        # A note written for each reader shows as the field's hint: typing one replaces it.
        "note_hint": "" if payment.note else note_of(payment),
        "players": by_name(group.players.all(), player_name),
        "history": payment.revisions.select_related("payer", "payee").order_by("version"),
        "error": error,
    }
    return render(request, "web/payment_edit.html", context, status=400 if error else 200)


@login_required
@require_POST
def session_settle(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Settle this night": what is still owed, recorded as pending payments at once."""
    session, _role = session_for(request, pk)
    try:
        made = services.settle_session(
            session, user_of(request), pair_by_pair=request.POST.get("how") == "pairs"
        )
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("%(n)d payments recorded, each to be confirmed when paid.") % {"n": len(made)},
        )
    return redirect(reverse("web:summary", args=[session.pk]) + "#night-payments")


def night_context(
    request: HttpRequest, session: Any, role: str, play: reports.PairSums | None = None
) -> dict[str, Any]:
    """The night's payments and what each player still has to settle, for its end page
    (``play``: the session's pair sums, when the page has read them)."""
    night = reports.night_settlement(session, listed=False, play=play)
    currency = session.group.currency
    mine = set(session.group.players.filter(user=user_of(request)).values_list("pk", flat=True))
    return {
        "night_players": [
            row
            | {
                "money_text": money_in(row["money"], currency),
                "payments_text": money_in(row["payments"], currency),
                "pending_text": pending_words(row["pending"], currency),
                "balance_text": balance_words(row["balance"], currency, you=row.get("id") in mine),
            }
            for row in night["players"]
        ],
        "night_payments": payment_rows(
            request,
            session.group,
            Payment.objects.filter(session=session).order_by("date", "pk"),
            role,
        ),
        "still_to_ask": bool(night["transfers"]),
    }
