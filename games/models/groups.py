"""A group and who is in it: members, players, pair stakes, invite links and merges.

Everything here is stored as entered; nothing is a running number. Data is changed only
through ``games.services``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q

from games.engine.rules import Rules
from games.models.rules import RuleSet

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


class GroupInvite(models.Model):
    """A link an owner shares to bring a friend into the group: signed, expiring, revocable.

    The link carries ``nonce`` signed with the site's key (games.services.invites), so an
    altered or made-up link is refused without a lookup; revoking stamps ``revoked_at``.
    """

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="invites")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_invites"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    nonce = models.CharField(max_length=32, unique=True)

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return f"invite to {self.group} by {self.created_by}"


class PlayerMerge(models.Model):
    """``gone_name``'s seats, ledger rows, payments and stakes now belong to ``kept``."""

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="merges")
    kept = models.ForeignKey(
        "games.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kept_name = models.CharField(max_length=50, help_text="the kept player's name at the merge")
    gone_name = models.CharField(max_length=50, help_text="the merged-away player's name")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    merged_at = models.DateTimeField(auto_now_add=True)
    moved = models.JSONField(
        default=dict, help_text="how many rows followed, by kind: seats, ledger, payments, ..."
    )

    class Meta:
        ordering = ("-merged_at", "-pk")

    def __str__(self) -> str:
        return f"{self.gone_name} merged into {self.kept_name}"
