"""The live table's rows: seat links and the deal in progress (``games.live.table``).

A deal in progress is a draft of one deal that every seat fills in from its own phone; it
is recorded as an ordinary ``Deal`` once every seat has submitted, and stays here (with a
link to that deal) so that every phone still shows the result until the next one opens.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q


class SeatLink(models.Model):
    """A link that lets whoever holds it enter the hands of one seat of one session.

    The token signs ``nonce`` with the site's key (games.live.seat_links), so an altered
    link is refused without a lookup; revoking stamps ``revoked_at`` and a new link with a
    new nonce takes its place. A link works only while its session is open.
    """

    session = models.ForeignKey(
        "games.Session", on_delete=models.CASCADE, related_name="seat_links"
    )
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    nonce = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    device = models.CharField(
        max_length=64,
        blank=True,
        help_text="the hash of the phone that opened the link first: only it reads the draft",
    )
    seen_at = models.DateTimeField(
        null=True, blank=True, help_text="when the seat's phone was last heard from"
    )
    gone_at = models.DateTimeField(
        null=True, blank=True, help_text="when the seat's phone closed its socket (null: open)"
    )

    class Meta:
        ordering = ("session", "pk")
        constraints = (
            # One working link per seat: a revoke and its replacement happen together.
            models.UniqueConstraint(
                fields=("session", "player"),
                condition=Q(revoked_at__isnull=True),
                name="seat_link_one_active",
            ),
        )

    # How long a seat's phone may stay silent (its socket pings every 10 s) before it
    # counts as offline.
    QUIET_AFTER = timedelta(seconds=30)

    def phone(self, now: datetime) -> tuple[str, int | None]:
        """Whether the seat's phone is here: "none" (the link never opened), "online" or
        "offline", with the seconds since it was last heard from."""
        if self.seen_at is None:
            return "none", None
        quiet = max(timedelta(0), now - self.seen_at)
        away = self.gone_at is not None or quiet > self.QUIET_AFTER
        return ("offline" if away else "online"), int(quiet.total_seconds())

    def __str__(self) -> str:
        state = " (revoked)" if self.revoked_at else ""
        return f"seat link of player {self.player_id} at session {self.session_id}{state}"


class LiveDeal(models.Model):
    """A deal being entered seat by seat; at most one is open per session."""

    class Status(models.TextChoices):
        OPEN = "open"
        RECORDED = "recorded"
        CANCELLED = "cancelled"

    session = models.ForeignKey(
        "games.Session", on_delete=models.CASCADE, related_name="live_deals"
    )
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(
        default=1, help_text="bumped by every write, so a phone can tell it has the latest"
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    opened_at = models.DateTimeField(auto_now_add=True)
    deal = models.ForeignKey(
        "games.Deal", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    message = models.TextField(
        blank=True, help_text="why it was cancelled, or why the last submit could not score"
    )
    message_code = models.JSONField(
        null=True,
        blank=True,
        help_text="the message as a code, said in each reader's language: {said, player}",
    )

    class Meta:
        ordering = ("session", "pk")
        constraints = (
            models.UniqueConstraint(
                fields=("session",), condition=Q(status="open"), name="live_deal_one_open"
            ),
        )

    def __str__(self) -> str:
        return f"deal in progress {self.pk} of session {self.session_id} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class LiveEntry(models.Model):
    """One seat's entry of a deal in progress: a draft until ``submitted_at`` is set."""

    class By(models.TextChoices):
        PHONE = "phone"
        HOST = "host"

    live_deal = models.ForeignKey(LiveDeal, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    entry = models.JSONField(null=True, blank=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    by = models.CharField(max_length=5, choices=By.choices, default=By.PHONE)
    taken_over = models.BooleanField(
        default=False, help_text="the host took the seat: the seat's link may no longer write"
    )
    submit_key = models.CharField(
        max_length=100, blank=True, help_text="the Idempotency-Key of the seat's last submit"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("live_deal", "pk")
        constraints = (
            models.UniqueConstraint(fields=("live_deal", "player"), name="live_entry_unique"),
        )

    def __str__(self) -> str:
        return f"entry of player {self.player_id} in {self.live_deal}"
