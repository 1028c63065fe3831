"""A deal, its history and its ledger rows, and what each player missed on it.

Everything here is stored as entered or as the engine answered; nothing is a running
number. A balance is always a sum of ``LedgerEntry`` rows, and a voided deal has none
(its rows are deleted when it is voided; its last result stays in ``DealRevision``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models.groups import Player
from games.models.sessions import Session


class Deal(models.Model):
    """One scored deal: what was entered, the rules it was scored under, and the result.

    ``request`` is the engine request without its rules (``players`` and ``stakes``), so
    ``{"rules": deal.rules, **deal.request}`` rescores it exactly once the entries of
    players who sat the deal out are left out (``games.sitting_out.engine_request``).
    """

    class Status(models.TextChoices):
        ACTIVE = "active"
        VOID = "void"

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    request = models.JSONField()
    rules = models.JSONField()
    result = models.JSONField()
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.ACTIVE)
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)
    idempotency_fingerprint = models.CharField(
        max_length=64,
        null=True,
        blank=True,
        editable=False,
        help_text="the SHA-256 of the players list as first sent with the idempotency key"
        " (games.services.deals.fingerprint); null on a deal stored before fingerprints,"
        " which any retry with its key matches",
    )
    version = models.PositiveIntegerField(default=1)
    dealer = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="the seat (SessionSeat.seat) that dealt; null on a deal stored before"
        " dealers were recorded",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    review = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="how each player could have set their cards (the engine's review of this"
        " version), filled in by a background task; null until then",
    )
    tally = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="what the summary counts of the result per player (games.engine.tally),"
        " written with it; null on a deal stored before tallies, counted from its result",
    )

    class Meta:
        ordering = ("session", "number")
        constraints = (
            models.UniqueConstraint(fields=("session", "number"), name="deal_number_unique"),
            models.UniqueConstraint(
                fields=("session", "idempotency_key"), name="deal_idempotency_key_unique"
            ),
        )
        # The deals still waiting for their review, in id order: what a review task
        # gathers into one batch when the queue is long (games.services.reviews).
        indexes = (
            models.Index(
                fields=("id",), condition=Q(review__isnull=True), name="deal_review_pending"
            ),
        )

    def __str__(self) -> str:
        void = " (void)" if self.status == self.Status.VOID else ""
        return f"deal {self.number} of session {self.session_id}{void}"

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE


class DealRevision(models.Model):
    """A deal as it was before an edit, a void or a restore: history is never overwritten."""

    class Action(models.TextChoices):
        EDIT = "edit"
        VOID = "void"
        RESTORE = "restore"  # a void undone: the row keeps the deal as it was while void

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField(help_text="the deal's version this row preserves")
    request = models.JSONField()
    result = models.JSONField()
    action = models.CharField(max_length=7, choices=Action.choices)
    reason = models.TextField(blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("deal", "version")
        constraints = (
            models.UniqueConstraint(fields=("deal", "version"), name="revision_version_unique"),
        )

    def __str__(self) -> str:
        return f"{self.deal} v{self.version} ({self.action})"


class LedgerEntry(models.Model):
    """One pair of one active deal, as the engine reports it: player_a won ``units`` from b;
    or one confirmed payment: player_a (the payer) got ``money`` back from player_b (the
    payee), with no units. Exactly one of ``deal`` and ``payment`` is set, as ``kind`` says."""

    class Kind(models.TextChoices):
        DEAL = "deal"
        PAYMENT = "payment"

    kind = models.CharField(max_length=7, choices=Kind.choices, default=Kind.DEAL)
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, null=True, blank=True, related_name="ledger"
    )
    payment = models.ForeignKey(
        "games.Payment", on_delete=models.CASCADE, null=True, blank=True, related_name="ledger"
    )
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    units = models.DecimalField(max_digits=14, decimal_places=4)
    # Wide enough for the largest deal at the largest stakes (games/services/checks.py).
    money = models.DecimalField(max_digits=18, decimal_places=4)

    class Meta:
        verbose_name_plural = "ledger entries"
        constraints = (
            models.UniqueConstraint(fields=("deal", "player_a", "player_b"), name="ledger_pair"),
            models.UniqueConstraint(fields=("payment",), name="ledger_one_row_per_payment"),
            models.CheckConstraint(
                condition=Q(kind="deal", deal__isnull=False, payment__isnull=True)
                | Q(kind="payment", deal__isnull=True, payment__isnull=False),
                name="ledger_deal_or_payment",
            ),
        )

    def __str__(self) -> str:
        what = self.deal if self.deal_id else f"payment {self.payment_id}"
        return f"{what}: {self.player_a} {self.units:+} from {self.player_b}"


class ReviewLine(models.Model):
    """What one player missed on one deal by how they set their cards (from its review).

    Written with ``Deal.review``, so reports add up units missed with one query.
    """

    deal = models.ForeignKey("games.Deal", on_delete=models.CASCADE, related_name="review_lines")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    units_missed = models.DecimalField(max_digits=14, decimal_places=4)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("deal", "player"), name="review_line_player"),
        )

    def __str__(self) -> str:
        return f"{self.deal}: {self.player} missed {self.units_missed}"
