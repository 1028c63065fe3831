"""A group's payments in its export, and read back from it on import.

Each payment names its payer and payee by player name and the night it settles by its
place in the export's ``sessions`` list (0 for the first; null for none); its history
comes with it. Every value is checked as the services check it; a confirmed payment gets
its ledger row back, pending and void ones none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from django.contrib.auth.models import User

from games.engine.rules import decimal_text
from games.errors import ServiceError
from games.models import Group, LedgerEntry, Payment, PaymentRevision, Player, Session
from games.services.import_values import (
    at,
    choice,
    date,
    free_text,
    items,
    mapping,
    refuse,
    required,
    text,
    username,
)
from games.services.payments import checked_amount
from games.services.reasons import REASON_LENGTH

NOTE = Payment._meta.get_field("note").max_length or 200
STATUSES = tuple(Payment.Status.values)
ACTIONS = tuple(PaymentRevision.Action.values)
NOTE_CODES = tuple(Payment.NoteCode.values)


def _username(user: User | None) -> str | None:
    return None if user is None else user.get_username()


def export_payments(group: Group) -> list[dict[str, Any]]:
    """The group's payments in date order, with their history."""
    sessions = {
        pk: k
        for k, pk in enumerate(group.sessions.order_by("date", "pk").values_list("pk", flat=True))
    }
    payments = (
        group.payments.select_related("payer", "payee", "recorded_by", "confirmed_by")
        .prefetch_related("revisions__payer", "revisions__payee", "revisions__changed_by")
        .order_by("date", "pk")
    )
    return [
        {
            "payer": p.payer.name,
            "payee": p.payee.name,
            "amount": decimal_text(p.amount),
            "date": p.date.isoformat(),
            "note": p.note,
            "note_code": p.note_code,
            "status": p.status,
            "session": sessions.get(p.session_id) if p.session_id else None,
            "recorded_by": _username(p.recorded_by),
            "confirmed_by": _username(p.confirmed_by),
            "revisions": [
                {
                    "version": r.version,
                    "payer": r.payer.name,
                    "payee": r.payee.name,
                    "amount": decimal_text(r.amount),
                    "date": r.date.isoformat(),
                    "note": r.note,
                    "note_code": r.note_code,
                    "status": r.status,
                    "action": r.action,
                    "reason": r.reason,
                    "changed_by": _username(r.changed_by),
                }
                for r in sorted(p.revisions.all(), key=lambda r: r.version)
            ],
        }
        for p in payments
    ]


class _Values(NamedTuple):
    payer: Player
    payee: Player
    amount: Any
    date: Any
    note: str
    note_code: str
    status: str


def _values(entry: Mapping[str, Any], path: str, players: Mapping[str, Player]) -> _Values:
    def player(key: str) -> Player:
        called = text(required(entry, key, path), at(path, key), max_length=50)
        if called not in players:
            refuse(at(path, key), f"no player named {called!r} in the file")
        return players[called]

    payer, payee = player("payer"), player("payee")
    if payer.pk == payee.pk:
        refuse(at(path, "payee"), "a payment is between two different players")
    raw = required(entry, "amount", path)
    if isinstance(raw, bool) or not isinstance(raw, (str, int)):
        refuse(at(path, "amount"), f"expected a number as text, got {raw!r}")
    try:
        amount = checked_amount(raw)
    except ServiceError as exc:
        refuse(at(path, "amount"), exc.message)
    return _Values(
        payer,
        payee,
        amount,
        date(required(entry, "date", path), at(path, "date")),
        free_text(entry.get("note", ""), at(path, "note"), max_length=NOTE),
        choice(entry.get("note_code", ""), at(path, "note_code"), NOTE_CODES),
        choice(required(entry, "status", path), at(path, "status"), STATUSES),
    )


def restore_payments(
    data: Mapping[str, Any],
    group: Group,
    players: Mapping[str, Player],
    sessions: Sequence[Session],
    user: Callable[[str | None], User | None],
) -> int:
    """Check and write the file's ``payments`` (absent: none); how many were stored."""
    count = 0
    for path, entry in items(data.get("payments", []), "payments"):
        entry = mapping(entry, path)
        values = _values(entry, path, players)
        night = entry.get("session")
        session = None
        if night is not None:
            if type(night) is not int or not 0 <= night < len(sessions):
                refuse(at(path, "session"), f"no session {night!r} in the file")
            session = sessions[night]
        revisions = [
            (r_path, mapping(revision, r_path))
            for r_path, revision in items(entry.get("revisions", []), at(path, "revisions"))
        ]
        payment = Payment.objects.create(
            group=group,
            session=session,
            payer=values.payer,
            payee=values.payee,
            amount=values.amount,
            date=values.date,
            note=values.note,
            note_code=values.note_code,
            status=values.status,
            version=len(revisions) + 1,
            recorded_by=user(username(entry.get("recorded_by"), at(path, "recorded_by"))),
            confirmed_by=user(username(entry.get("confirmed_by"), at(path, "confirmed_by"))),
        )
        for k, (r_path, revision) in enumerate(revisions, start=1):
            version = revision.get("version")
            if version != k:
                refuse(at(r_path, "version"), f"expected {k}, got {version!r}")
            old = _values(revision, r_path, players)
            PaymentRevision.objects.create(
                payment=payment,
                version=k,
                payer=old.payer,
                payee=old.payee,
                amount=old.amount,
                date=old.date,
                note=old.note,
                note_code=old.note_code,
                status=old.status,
                action=choice(required(revision, "action", r_path), at(r_path, "action"), ACTIONS),
                reason=free_text(
                    revision.get("reason", ""), at(r_path, "reason"), max_length=REASON_LENGTH
                ),
                changed_by=user(username(revision.get("changed_by"), at(r_path, "changed_by"))),
            )
        if payment.is_confirmed:
            LedgerEntry.objects.create(
                kind=LedgerEntry.Kind.PAYMENT,
                payment=payment,
                player_a=values.payer,
                player_b=values.payee,
                units=0,
                money=values.amount,
            )
        count += 1
    return count
