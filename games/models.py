"""Groups, players, rule sets, sessions, deals and the ledger.

Everything here is stored as entered or as the engine answered; nothing is a running
number. A balance is always a sum of ``LedgerEntry`` rows, and a voided deal has none
(its rows are deleted when it is voided; its last result stays in ``DealRevision``).
Data is changed only through ``games.services``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q

from games.engine.games import GAMES
from games.engine.rules import Rules
from games.rule_sets import LastRuleSet as LastRuleSet  # a group's rule versions
from games.rule_sets import RuleSet as RuleSet
from games.tokens import DeviceToken as DeviceToken  # API tokens: their own module

# The rules a group starts with when nobody named any (the admin, a script).
DEFAULT_PRESET = "standard"


class GroupQuerySet(models.QuerySet["Group"]):
    def bulk_create(self, objs: Iterable[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Groups made in bulk get their first rules too: no path leaves a group without."""
        with transaction.atomic(using=self.db):
            groups = super().bulk_create(objs, *args, **kwargs)
            for group in groups:
                if group.pk is None:
                    raise ValueError("groups made in bulk need their ids back to get rules")
                group.add_first_rules()
        return groups


class Group(models.Model):
    """Friends who keep their nights together: one currency, one unit value.

    A group always has a rule set: saving a new group stores its version 1 in the same
    transaction (``initial_rules`` as given, else the standard preset), and the last
    version is never deleted (``RuleSetQuerySet.delete``).
    """

    name = models.CharField(max_length=100)
    currency = models.CharField(max_length=3, default="EUR")
    unit_value = models.DecimalField(max_digits=14, decimal_places=4, default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="card_groups"
    )

    objects = GroupQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    # What version 1 is made of when the group is first saved; a property so that
    # ``Group.objects.create(..., initial_rules="ofc")`` takes it.
    @property
    def initial_rules(self) -> Any:
        return self.__dict__.get("_initial_rules", DEFAULT_PRESET)

    @initial_rules.setter
    def initial_rules(self, spec: Any) -> None:
        self.__dict__["_initial_rules"] = spec

    @property
    def initial_rules_by(self) -> Any:
        return self.__dict__.get("_initial_rules_by")

    @initial_rules_by.setter
    def initial_rules_by(self, user: Any) -> None:
        self.__dict__["_initial_rules_by"] = user

    def save(self, *args: Any, **kwargs: Any) -> None:
        adding = self._state.adding
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)
            if adding:
                self.add_first_rules()

    def add_first_rules(self) -> None:
        """Version 1 of the rules, from ``initial_rules``, unless the group has rules."""
        if self.rule_sets.exists():
            return
        spec = self.initial_rules
        RuleSet.objects.create(
            group=self,
            version=1,
            spec=spec,
            rules=Rules.from_mapping(spec).to_mapping(),
            created_by=self.initial_rules_by,
        )

    def current_rule_set(self) -> RuleSet:
        """The latest version of the group's agreed rules."""
        return self.rule_sets.latest("version")


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner"
        MEMBER = "member"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=("user", "group"), name="membership_unique"),)

    def __str__(self) -> str:
        return f"{self.user} in {self.group} ({self.role})"


class Player(models.Model):
    """A seat-taker: a group member's user, or a guest known only by name."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=50)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    retired_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="set while the player is retired: kept in every report, offered for no new"
        " session",
    )

    class Meta:
        ordering = ("name",)
        constraints = (
            models.UniqueConstraint(fields=("group", "name"), name="player_name_unique"),
            models.UniqueConstraint(
                fields=("group", "user"),
                condition=models.Q(user__isnull=False),
                name="player_user_unique",
            ),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None


class PairStake(models.Model):
    """Two players' agreed multiple of the group's unit; stored with player_a.pk < player_b.pk."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="pair_stakes")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    multiplier = models.DecimalField(max_digits=14, decimal_places=4)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("player_a", "player_b"), name="pairstake_unique"),
            models.CheckConstraint(
                condition=Q(player_a__lt=F("player_b")), name="pairstake_canonical_order"
            ),
            models.CheckConstraint(condition=Q(multiplier__gte=0), name="pairstake_multiplier"),
        )

    def __str__(self) -> str:
        return f"{self.player_a} / {self.player_b}: x{self.multiplier}"


class Session(models.Model):
    """A night at the table, played under one resolved rule set."""

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="sessions")
    # One of the engine's games (``games.engine.games.GAMES``), as the session's rules say.
    game = models.CharField(max_length=20)
    date = models.DateField()
    place = models.CharField(max_length=100, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    rule_set = models.ForeignKey(RuleSet, on_delete=models.PROTECT, related_name="sessions")
    rules_override = models.JSONField(null=True, blank=True)
    rules = models.JSONField(help_text="the resolved rules in force for every deal")
    target_score = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    players = models.ManyToManyField(Player, through="SessionSeat", related_name="sessions")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    last_deal_number = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="the number of the session's latest deal; recording a deal increments it,"
        " which also locks the session row until the deal is stored",
    )

    class Meta:
        ordering = ("-date", "-pk")
        indexes = (
            models.Index(fields=("group", "date"), name="session_group_date"),
            models.Index(fields=("group", "game"), name="session_group_game"),
        )

    def __str__(self) -> str:
        where = f" at {self.place}" if self.place else ""
        return f"{self.group}: {self.game} on {self.date}{where}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def game_name(self) -> str:
        """The game's name for people, as its descriptor gives it."""
        return GAMES[self.game].display_name

    def seat_names(self) -> dict[int, str]:
        """Player id -> the name the player sat down with, in seat order.

        The session's deals, results and ledgers use these names; a player renamed since
        keeps the old one here.
        """
        # Seats never change once a session has started: read once per object.
        names: dict[int, str] | None = self.__dict__.get("_seat_names")
        if names is None:
            names = dict(self.seats.order_by("seat").values_list("player_id", "name"))
            self.__dict__["_seat_names"] = names
        return dict(names)

    def seated(self) -> dict[str, int]:
        """The seat names, in seat order, with each seat's player id."""
        return {name: pk for pk, name in self.seat_names().items()}


class SessionSeat(models.Model):
    """A player's seat at one session, under the name they sat down with.

    The session's deals are entered, scored and stored under that name, so renaming the
    player later (even during the session) changes neither the night's deals nor its reports.
    """

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=50, help_text="the player's name at this session")

    class Meta:
        ordering = ("session", "seat")
        constraints = (
            models.UniqueConstraint(fields=("session", "player"), name="seat_player_unique"),
            models.UniqueConstraint(fields=("session", "seat"), name="seat_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.name} in seat {self.seat}"


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


# Rows of background work (PDF documents, imports) live in their own module; imported here,
# after the rows they point at, so that Django finds them as models of this app.
from games.invite_rows import GroupInvite as GroupInvite  # noqa: E402
from games.jobs import Document as Document  # noqa: E402
from games.jobs import ImportJob as ImportJob  # noqa: E402
from games.jobs import _document_path as _document_path  # noqa: E402  (migration 0004)
from games.languages import LanguagePreference as LanguagePreference  # noqa: E402
from games.live_rows import LiveDeal as LiveDeal  # noqa: E402
from games.live_rows import LiveEntry as LiveEntry  # noqa: E402
from games.live_rows import SeatLink as SeatLink  # noqa: E402
from games.payment_rows import Payment as Payment  # noqa: E402
from games.payment_rows import PaymentRevision as PaymentRevision  # noqa: E402
from games.player_rows import PlayerMerge as PlayerMerge  # noqa: E402
from games.review_lines import ReviewLine as ReviewLine  # noqa: E402
from games.session_events import SessionEvent as SessionEvent  # noqa: E402
