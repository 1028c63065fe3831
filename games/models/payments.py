"""Payments between two players of a group, and their history.

A payment is money handed from its ``payer`` to its ``payee``. It counts in balances once
the payee has confirmed it: a confirmed payment has one ``LedgerEntry`` of kind
``payment`` (the payer "won" the amount back from the payee), a pending or void one has
none, so every balance stays a plain sum of ledger rows. Every correction, confirmation
and void keeps the payment as it was in a ``PaymentRevision``.

Merging two players moves their payments with one update of ``payer`` and ``payee``
(and of the ledger rows' ``player_a`` and ``player_b``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Payment(models.Model):
    """``payer`` paid ``amount`` (in the group's currency) to ``payee`` on ``date``."""

    class Status(models.TextChoices):
        PENDING = "pending"  # recorded, not yet confirmed by the payee: counts nowhere
        CONFIRMED = "confirmed"  # the payee has it: one ledger row
        VOID = "void"  # withdrawn: kept with its history, counts nowhere

    class NoteCode(models.TextChoices):
        """A note written for whoever reads it, in their language, instead of stored text."""

        TYPED = ""  # the note is ``note``, as typed (or none)
        SETTLES_NIGHT = "settles-night"  # "settles the night of <the session's date>"

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="payments")
    session = models.ForeignKey(
        "games.Session",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="payments",
        help_text="the night this payment settles, if any",
    )
    payer = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="payments_made"
    )
    payee = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="payments_received"
    )
    amount = models.DecimalField(max_digits=18, decimal_places=4)
    date = models.DateField()
    note = models.CharField(max_length=200, blank=True)
    note_code = models.CharField(
        max_length=16,
        choices=NoteCode.choices,
        blank=True,
        default=NoteCode.TYPED,
        help_text="a note rendered in the reader's language when ``note`` is empty",
    )
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveIntegerField(default=1)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("date", "pk")
        indexes = (models.Index(fields=("group", "date"), name="payment_group_date"),)
        constraints = (
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
            models.CheckConstraint(condition=~Q(payer=F("payee")), name="payment_two_players"),
        )

    def __str__(self) -> str:
        return f"{self.payer} paid {self.amount} to {self.payee} on {self.date} ({self.status})"

    @property
    def is_confirmed(self) -> bool:
        return self.status == self.Status.CONFIRMED


class PaymentRevision(models.Model):
    """A payment as it was before a correction, a confirmation or a void."""

    class Action(models.TextChoices):
        EDIT = "edit"
        CONFIRM = "confirm"
        VOID = "void"

    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField(help_text="the payment's version this row preserves")
    payer = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(max_digits=18, decimal_places=4)
    date = models.DateField()
    note = models.CharField(max_length=200, blank=True)
    note_code = models.CharField(
        max_length=16, choices=Payment.NoteCode.choices, blank=True, default=Payment.NoteCode.TYPED
    )
    status = models.CharField(max_length=9, choices=Payment.Status.choices)
    action = models.CharField(max_length=7, choices=Action.choices)
    reason = models.TextField(blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("payment", "version")
        constraints = (
            models.UniqueConstraint(
                fields=("payment", "version"), name="payment_revision_version_unique"
            ),
        )

    def __str__(self) -> str:
        return f"{self.payment_id} v{self.version} ({self.action})"
