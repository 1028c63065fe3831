"""Payments: recording one, confirming it, correcting it, voiding it, settling a night.

A payment counts in balances only once its payee has it: confirming writes its one ledger
row (``LedgerEntry`` of kind ``payment``), voiding deletes it, and correcting a confirmed
payment rewrites it. Each change keeps the payment as it was in a ``PaymentRevision``.

Who may do what: any member records a payment and corrects one; the payee (the user linked
to the paid player) or an owner confirms it; the payee or an owner voids it. A correction
by someone who may not confirm sends a confirmed payment back to pending, so that nobody
but the payee (or an owner) can change what a payee has confirmed.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import NothingOwed, PaymentNotPending, PaymentVoid, ServiceError
from games.models import Group, LedgerEntry, Membership, Payment, PaymentRevision, Player, Session
from games.permissions import require_member, role_of
from games.reports.balances import night_transfers
from games.services import texts
from games.services.reasons import checked_reason

NOTE_LENGTH = Payment._meta.get_field("note").max_length or 200
_AMOUNT = Payment._meta.get_field("amount")
_STEP = Decimal(1).scaleb(-_AMOUNT.decimal_places)
_LIMIT = Decimal(10) ** (_AMOUNT.max_digits - _AMOUNT.decimal_places)


def checked_amount(value: object, field: str = "amount") -> Decimal:
    """An amount as a payment keeps it: above zero, in 0.0001 steps, below 10^14."""
    try:
        amount = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise ServiceError(_("amount: a number such as 12.50"), field) from None
    if not amount.is_finite() or amount <= 0:
        raise ServiceError(_("amount: more than zero"), field)
    if amount >= _LIMIT or amount != amount.quantize(_STEP):
        raise ServiceError(
            _("amount: at most four decimal places, below %(limit)s") % {"limit": f"{_LIMIT:,}"},
            field,
        )
    return amount


def checked_note(note: object) -> str:
    """A payment's note as stored: one line of free text (``games.services.texts``)."""
    return texts.clean(note, "note", max_length=NOTE_LENGTH)


def may_confirm(user: User, payment: Payment, role: str | None = None) -> bool:
    """The payee's own user, or an owner of the group (``role``: the user's, if known)."""
    if payment.payee.user_id is not None and payment.payee.user_id == user.pk:
        return True
    if role is None:
        role = role_of(user, payment.group)
    return role == Membership.Role.OWNER


def _players(group: Group, payer: Player, payee: Player) -> None:
    for player, field in ((payer, "payer"), (payee, "payee")):
        if player.group_id != group.pk:
            raise ServiceError(
                _("%(field)s: %(group)s has no such player") % {"field": field, "group": group},
                field,
            )
    if payer.pk == payee.pk:
        raise ServiceError(_("payee: a payment is between two different players"), "payee")


def record_payment(
    group: Group,
    payer: Player,
    payee: Player,
    amount: object,
    by: User,
    *,
    date: datetime.date | None = None,
    note: str = "",
    session: Session | None = None,
    confirmed: bool = False,
) -> Payment:
    """Store a payment, pending unless ``confirmed`` (allowed to the payee or an owner)."""
    require_member(by, group)
    _players(group, payer, payee)
    if session is not None and session.group_id != group.pk:
        raise ServiceError(_("session: not a session of this group"), "session")
    payment = Payment(
        group=group,
        session=session,
        payer=payer,
        payee=payee,
        amount=checked_amount(amount),
        date=date or timezone.localdate(),
        note=checked_note(note),
        recorded_by=by,
    )
    if confirmed and not may_confirm(by, payment):
        raise ServiceError(_("status: only the payee or an owner confirms a payment"), "status")
    with transaction.atomic():
        payment.save()
        if confirmed:
            _confirm(payment, by)
    return payment


def _lock(payment: Payment) -> Payment:
    locked = Payment.objects.select_for_update().select_related("group", "payee").get(pk=payment.pk)
    if locked.status == Payment.Status.VOID:
        raise PaymentVoid(_("payment %(id)d is void") % {"id": locked.pk})
    return locked


def _keep_revision(payment: Payment, action: str, reason: str, by: User) -> None:
    PaymentRevision.objects.create(
        payment=payment,
        version=payment.version,
        payer_id=payment.payer_id,
        payee_id=payment.payee_id,
        amount=payment.amount,
        date=payment.date,
        note=payment.note,
        note_code=payment.note_code,
        status=payment.status,
        action=action,
        reason=reason,
        changed_by=by,
    )


def _write_row(payment: Payment) -> None:
    LedgerEntry.objects.filter(payment=payment).delete()
    if payment.is_confirmed:
        LedgerEntry.objects.create(
            kind=LedgerEntry.Kind.PAYMENT,
            payment=payment,
            player_a_id=payment.payer_id,
            player_b_id=payment.payee_id,
            units=Decimal(0),
            money=payment.amount,
        )


def _confirm(payment: Payment, by: User) -> None:
    payment.status = Payment.Status.CONFIRMED
    payment.confirmed_by = by
    payment.confirmed_at = timezone.now()
    payment.save()
    _write_row(payment)


def confirm_payment(payment: Payment, by: User) -> Payment:
    """The payee (or an owner) says the money arrived: the payment now counts."""
    require_member(by, payment.group)
    with transaction.atomic():
        locked = _lock(payment)
        if locked.status != Payment.Status.PENDING:
            raise PaymentNotPending(_("payment %(id)d is already confirmed") % {"id": locked.pk})
        if not may_confirm(by, locked):
            raise ServiceError(_("status: only the payee or an owner confirms a payment"), "status")
        _keep_revision(locked, PaymentRevision.Action.CONFIRM, "", by)
        locked.version += 1
        _confirm(locked, by)
    return locked


def edit_payment(
    payment: Payment, changes: Mapping[str, Any], by: User, reason: str = ""
) -> Payment:
    """Correct a payment's payer, payee, amount, date or note; the old one is kept."""
    require_member(by, payment.group)
    reason = checked_reason(reason)
    with transaction.atomic():
        locked = _lock(payment)
        _keep_revision(locked, PaymentRevision.Action.EDIT, reason, by)
        if "payer" in changes:
            locked.payer = changes["payer"]
        if "payee" in changes:
            locked.payee = changes["payee"]
        _players(locked.group, locked.payer, locked.payee)
        if "amount" in changes:
            locked.amount = checked_amount(changes["amount"])
        if "date" in changes:
            locked.date = changes["date"]
        if "note" in changes:
            note = checked_note(changes["note"])
            if note:  # typed: it takes the place of a note written for each reader
                locked.note, locked.note_code = note, Payment.NoteCode.TYPED
            elif not locked.note_code:
                locked.note = ""
        if locked.is_confirmed and not may_confirm(by, locked):
            locked.status = Payment.Status.PENDING
            locked.confirmed_by = None
            locked.confirmed_at = None
        locked.version += 1
        locked.save()
        _write_row(locked)
    return locked


def void_payment(payment: Payment, by: User, reason: str = "") -> Payment:
    """The payee or an owner withdraws a payment: it stays, marked void, and counts nowhere."""
    require_member(by, payment.group)
    reason = checked_reason(reason)
    with transaction.atomic():
        locked = _lock(payment)
        if not may_confirm(by, locked):
            raise ServiceError(_("status: only the payee or an owner voids a payment"), "status")
        _keep_revision(locked, PaymentRevision.Action.VOID, reason, by)
        locked.status = Payment.Status.VOID
        locked.version += 1
        locked.save()
        _write_row(locked)
    return locked


def settle_session(session: Session, by: User, *, pair_by_pair: bool = False) -> list[Payment]:
    """Record what is still owed for the night as pending payments, in one transaction:
    the fewest transfers, or one per pair. Each is confirmed by its payee when paid.
    Payments already recorded for the night (pending or confirmed) are not asked again."""
    require_member(by, session.group)
    with transaction.atomic():
        # The session row is locked so that two people settling at once record it once.
        Session.objects.select_for_update().filter(pk=session.pk).first()
        players = {player.name: player for player in session.group.players.all()}
        transfers = night_transfers(session, pair_by_pair=pair_by_pair)
        if not transfers:
            raise NothingOwed(_("nothing is owed for this night"), "session")
        return [
            Payment.objects.create(
                group=session.group,
                session=session,
                payer=players[payer],
                payee=players[payee],
                amount=amount,
                date=timezone.localdate(),
                # Written for each reader, in their language (games.words.notes).
                note_code=Payment.NoteCode.SETTLES_NIGHT,
                recorded_by=by,
            )
            for payer, payee, amount in transfers
        ]
