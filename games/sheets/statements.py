"""A player's statement (``games.reports.statement``) as a PDF, and the balances carried
into and out of a night, for the settlement sheet. Numbers read as ``games.present``
writes them."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Deal, DealRevision, Group, Payment, Session
from games.present import day, moment, money, money_in, multiple, signed
from games.reports import payment_list
from games.reports.ledger import NOTHING, nets, owed_pairs

ZERO = Decimal(0)


def ledger_payment_line(
    line: Mapping[str, Any], mark: str, me: str, other: str, currency: str
) -> str:
    """A payment of a ledger in words: who paid whom, when, the note, the balances after."""
    payer, payee = (me, other) if line["direction"] == "paid" else (other, me)
    text = _(
        "%(mark)s, %(date)s: %(payer)s paid %(payee)s %(amount)s; balance after it: "
        "%(units)s units, %(money)s"
    ) % {
        "mark": mark,
        "date": day(line["date"]),
        "payer": payer,
        "payee": payee,
        "amount": money_in(abs(line["money"]), currency, sign=False),
        "units": signed(line["balance_units"]),
        "money": money_in(line["balance_money"], currency, sign=True),
    }
    return f"{text} ({line['note']})" if line["note"] else text


def _line(line: dict[str, Any], currency: str) -> dict[str, Any]:
    if line["kind"] == "payment":
        what = _("payment paid") if line["direction"] == "paid" else _("payment received")
        if line.get("note"):
            what = f"{what}: {line['note']}"
        terms = ""
    else:
        what = _("night of session %(id)s") % {"id": line["session"]}
        terms = f"{money_in(line['unit_value'], currency, sign=False)}, {multiple(line['stake'])}"
    return {
        "date": line["date"],
        "what": what,
        "terms": terms,
        "units": "" if line["kind"] == "payment" else signed(line["units"]),
        "money": money(line["money"], currency, sign=True),
        "balance_units": signed(line["balance_units"]),
        "balance_money": money(line["balance_money"], currency, sign=True),
        "negative": line["balance_money"] < 0,
    }


def statement_context(group: Group, data: dict[str, Any]) -> dict[str, Any]:
    """What the statement PDF shows, formatted."""
    currency = group.currency
    return {
        "group": group.name,
        "player": data["player"]["name"],
        "currency": currency,
        "unit_value": money_in(group.unit_value, currency, sign=False),
        "date_from": data["date_from"],
        "date_to": data["date_to"],
        "produced_at": f"{moment(timezone.localtime())} {timezone.localtime():%Z}",
        "page_size": "A4",
        "opponents": [
            {
                "name": entry["name"],
                "stake": multiple(entry["stake"]),
                "carried_in": money(entry["carried_in"]["money"], currency, sign=True),
                "carried_in_units": signed(entry["carried_in"]["units"]),
                "carried_out": money(entry["carried_out"]["money"], currency, sign=True),
                "carried_out_units": signed(entry["carried_out"]["units"]),
                "lines": [_line(line, currency) for line in entry["lines"]],
            }
            for entry in data["opponents"]
        ],
        "carried_in": money(data["carried_in"], currency, sign=True),
        "carried_out": money(data["carried_out"], currency, sign=True),
    }


def statement_pdf(group: Group, data: dict[str, Any]) -> bytes:
    """The statement as a PDF (rendered at once: a statement has a line per night)."""
    from games.sheets import pdf  # WeasyPrint is imported only where a PDF is made

    return pdf.html_to_pdf(render_to_string("pdf/statement.html", statement_context(group, data)))


def night_money(session: Session) -> dict[str, Any]:
    """The night's payments and each seated player's balance carried in (everything dated
    before the night) and carried out (everything up to and including its date)."""
    group = session.group
    currency = group.currency
    before = nets(owed_pairs(group, None, session.date - datetime.timedelta(days=1)))
    after = nets(owed_pairs(group, None, session.date))
    carried = [
        {
            "name": name,
            "carried_in": money(before.get(pk, NOTHING).money, currency, sign=True),
            "carried_out": money(after.get(pk, NOTHING).money, currency, sign=True),
            "negative_in": before.get(pk, NOTHING).money < 0,
            "negative_out": after.get(pk, NOTHING).money < 0,
        }
        for pk, name in session.seat_names().items()
    ]
    statuses = dict(Payment.Status.choices)
    payments = [
        {
            "payer": p["payer"]["name"],
            "payee": p["payee"]["name"],
            "amount": money_in(p["amount"], currency, sign=False),
            "date": p["date"],
            "status": statuses[p["status"]],
            "void": p["status"] == Payment.Status.VOID,
            "note": p["note"],
        }
        for p in payment_list(Payment.objects.filter(session=session))
    ]
    return {"carried": carried, "payments": payments}


# A deal's review is queued as it is stored and takes seconds; one still missing after this
# was never queued (an imported deal) or its task was lost.
REVIEW_WAIT = datetime.timedelta(minutes=10)


def unreviewed_deals(session: Session) -> int:
    """The active deals with no review long after they were stored (imported ones)."""
    stale = timezone.now() - REVIEW_WAIT
    return session.deals.filter(
        status=Deal.Status.ACTIVE, review__isnull=True, updated_at__lt=stale
    ).count()


def deal_changes(session: Session) -> dict[int, str]:
    """Deal number -> what happened to it since it was first stored: corrected (with the
    reasons), void (with the reason), restored; for the deal-by-deal listing."""
    out: dict[int, list[str]] = {}
    revisions = DealRevision.objects.filter(deal__session=session).order_by(
        "deal__number", "version"
    )
    for at, action, reason in revisions.values_list("deal__number", "action", "reason"):
        word = {"edit": _("corrected"), "void": _("void"), "restore": _("restored")}[action]
        out.setdefault(at, []).append(f"{word}: {reason}" if reason else word)
    voids = set(session.deals.filter(status=Deal.Status.VOID).values_list("number", flat=True))
    return {
        at: "; ".join(notes) + (_(" (counts nowhere)") if at in voids else "")
        for at, notes in out.items()
    }
