"""A payment's note as its reader reads it: the note typed by hand as it was typed; the one
settling a night writes (``Payment.NoteCode.SETTLES_NIGHT``, no text stored) in the
reader's language, with the night's date as the reader's locale writes it."""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _

from games import present
from games.models import Payment


def payment_note(note: str, code: str, night: datetime.date | None) -> str:
    """``note`` if one was typed, else the sentence ``code`` stands for ("settles the night
    of Dec 6, 2026", "thanh toán đêm 6 thg 12, 2026"), of the night dated ``night``."""
    if note or code != Payment.NoteCode.SETTLES_NIGHT:
        return note
    if night is None:  # the night was deleted since
        return _("settles a night")
    return _("settles the night of %(date)s") % {"date": present.day(night)}


def note_of(payment: Payment) -> str:
    """``payment_note`` of a payment (its session read, if not already, for its date)."""
    night = payment.session.date if payment.session_id and payment.session else None
    return payment_note(payment.note, payment.note_code, night)
