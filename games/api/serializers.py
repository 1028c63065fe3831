"""What the API reads and writes.

Output serializers render the stored rows. Input serializers only check the shape of a
request (types, lengths); every rule about cards and scoring is the engine's, and every
rule about who may change what is the services'.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

# The deals' serializers, kept in a module of their own, are read from here too.
from games.api.deal_serializers import DealRevisionSerializer as DealRevisionSerializer
from games.api.deal_serializers import DealSerializer as DealSerializer
from games.engine.games import GAMES
from games.engine.rules import decimal_text
from games.errors import ServiceError
from games.models import (
    Group,
    Membership,
    PairStake,
    Player,
    RuleSet,
    Session,
)
from games.services import checks, names, texts
from games.services.reasons import REASON_LENGTH

# A rule spec as the engine takes it: a preset name or {"preset": NAME, OPTION: VALUE}.
RULES_HELP = "a preset name, or {'preset': NAME, OPTION: VALUE, ...}"

# The games a session may name, for the schema as for validation.
GAME_CHOICES = [(key, game.display_name) for key, game in GAMES.items()]


class FreeText(serializers.CharField):
    """Free text checked here by the services' one policy (``games.services.texts``), so
    that the API refuses what the pages refuse, with the same words: a line break only
    when ``multiline``, no control or invisible character, no NUL, the length last. With
    ``name`` (what is named: "a player", "a group"), the names' rules instead; a blank
    name goes on to the service, which refuses it as the pages do."""

    def __init__(self, *, multiline: bool = False, name: str | None = None, **kwargs: Any):
        self.multiline = multiline
        self.name = name
        if name is not None:
            kwargs.setdefault("allow_blank", True)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        field = self.field_name or ""
        try:
            if self.name is not None:
                return names.clean(text, field, max_length=self.max_length or 0, what=self.name)
            return texts.clean(text, field, max_length=self.max_length, multiline=self.multiline)
        except ServiceError as exc:
            raise serializers.ValidationError(exc.message.removeprefix(f"{field}: ")) from None


@extend_schema_field(OpenApiTypes.STR)
class DecimalText(serializers.Field[Decimal, Any, str, Any]):
    """A stored decimal as the engine writes it: ``"0.5"``, ``"5"`` (never ``"0.5000"``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: Decimal) -> str:
        return decimal_text(value)


@extend_schema_field(OpenApiTypes.STR)
class NumberText(serializers.Field[Any, Any, str, Any]):
    """A number sent as JSON or as text, passed on for its bounds to be checked (a
    ``check`` from ``games.services.checks``, or the rules' bounds in the engine); its
    errors keep the one message every caller reads."""

    def __init__(self, check: Callable[[object, str], Decimal] | None = None, **kwargs: Any):
        self.check = check
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, (int, float, str)):
            raise serializers.ValidationError(f"expected a number, got {type(data).__name__}")
        if isinstance(data, str) and len(data) > 100:
            raise serializers.ValidationError("expected a number, got a long text")
        # ServiceError passes through: the API answers 400 with its message and field.
        return self.check(data, self.field_name or "") if self.check else data

    def to_representation(self, value: Any) -> str:
        return decimal_text(Decimal(value))


class GroupSerializer(serializers.ModelSerializer[Group]):
    unit_value = DecimalText(help_text="what one unit is worth, in the group's currency")
    role = serializers.SerializerMethodField(help_text="the requesting user's role")
    rules_version = serializers.SerializerMethodField()

    class Meta:
        model = Group
        fields = ("id", "name", "currency", "unit_value", "role", "rules_version", "created_at")
        read_only_fields = fields

    def get_role(self, group: Group) -> str | None:
        roles: dict[int, str] = self.context.get("roles", {})
        return roles.get(group.pk)

    def get_rules_version(self, group: Group) -> int | None:
        version: int | None = getattr(group, "rules_version", None)
        return version


class GroupCreateSerializer(serializers.Serializer[Any]):
    name = FreeText(name="a group", max_length=100)
    currency = serializers.CharField(max_length=3, default="EUR")
    unit_value = NumberText(checks.unit_value, default=Decimal(1))
    rules = serializers.JSONField(required=False, help_text=RULES_HELP + "; standard if omitted")
    players = serializers.ListField(
        child=serializers.CharField(max_length=50, allow_blank=True, trim_whitespace=False),
        required=False,
        max_length=100,
        help_text="the group's players, by name (unique after case-folding); a bad name"
        " creates nothing",
    )


class GroupUpdateSerializer(serializers.Serializer[Any]):
    name = FreeText(name="a group", max_length=100, required=False)
    currency = serializers.CharField(max_length=3, required=False)
    unit_value = NumberText(checks.unit_value, required=False)


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ("id", "username", "role", "joined_at")
        read_only_fields = fields


class MembershipCreateSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices, default="member")


class MembershipUpdateSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class PlayerSerializer(serializers.ModelSerializer[Player]):
    username = serializers.CharField(
        source="user.username", read_only=True, allow_null=True, default=None
    )

    retired = serializers.BooleanField(
        source="is_retired", read_only=True, help_text="kept in history, seated at no new session"
    )

    class Meta:
        model = Player
        fields = ("id", "name", "username", "retired", "retired_at")
        read_only_fields = fields


class PlayerCreateSerializer(serializers.Serializer[Any]):
    name = FreeText(name="a player", max_length=50)
    username = serializers.CharField(
        max_length=150, required=False, help_text="link the player to a member of the group"
    )


class PlayerUpdateSerializer(serializers.Serializer[Any]):
    name = FreeText(
        name="a player",
        max_length=50,
        required=False,
        help_text="a new name, used from the next session on",
    )
    username = serializers.CharField(
        max_length=150,
        required=False,
        allow_null=True,
        help_text="link the player to a member of the group; null unlinks",
    )
    retired = serializers.BooleanField(
        required=False,
        help_text="true retires the player (kept in history, seated at no new session);"
        " false brings them back",
    )


class PlayerMergeRequestSerializer(serializers.Serializer[Any]):
    into = serializers.JSONField(
        help_text="the player who stays (an id, or a name): this player's seats, ledger rows,"
        " payments, stakes and user follow them, and this player is deleted"
    )


class PlayerMergeSerializer(serializers.Serializer[Any]):
    kept = PlayerSerializer(read_only=True)
    kept_name = serializers.CharField(read_only=True)
    gone_name = serializers.CharField(read_only=True)
    merged_by = serializers.CharField(source="merged_by.username", read_only=True, default=None)
    merged_at = serializers.DateTimeField(read_only=True)
    moved = serializers.DictField(
        child=serializers.IntegerField(), read_only=True, help_text="rows that followed, by kind"
    )


class RuleSetSerializer(serializers.ModelSerializer[RuleSet]):
    created_by = serializers.CharField(source="created_by.username", read_only=True, default=None)

    class Meta:
        model = RuleSet
        fields = ("version", "spec", "rules", "created_by", "created_at")
        read_only_fields = fields


class RuleSetCreateSerializer(serializers.Serializer[Any]):
    rules = serializers.JSONField(help_text=RULES_HELP)


class PairStakeSerializer(serializers.ModelSerializer[PairStake]):
    players = serializers.SerializerMethodField()
    multiplier = DecimalText()

    class Meta:
        model = PairStake
        fields = ("id", "players", "multiplier")
        read_only_fields = fields

    def get_players(self, stake: PairStake) -> list[str]:
        return [stake.player_a.name, stake.player_b.name]


class PairStakeCreateSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=serializers.CharField(max_length=50),
        min_length=2,
        max_length=2,
        help_text="the two players' names",
    )
    multiplier = NumberText(checks.multiplier)


class SessionSerializer(serializers.ModelSerializer[Session]):
    players = serializers.SerializerMethodField(help_text="names in seat order")
    target_score = DecimalText(allow_null=True)
    rules_version = serializers.IntegerField(source="rule_set.version", read_only=True)

    class Meta:
        model = Session
        fields = (
            "id",
            "group",
            "game",
            "date",
            "place",
            "notes",
            "status",
            "players",
            "rules_version",
            "rules_override",
            "rules",
            "target_score",
            "created_at",
            "closed_at",
        )
        read_only_fields = fields

    def get_players(self, session: Session) -> list[str]:
        return [seat.name for seat in session.seats.all()]


class SessionCreateSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    players = serializers.ListField(
        child=serializers.CharField(max_length=50),
        min_length=2,
        max_length=4,
        help_text="2 to 4 of the group's player names, in seat order",
    )
    game = serializers.ChoiceField(choices=GAME_CHOICES, required=False)
    rules_override = serializers.JSONField(required=False, help_text=RULES_HELP)
    target_score = NumberText(required=False, help_text="Big Two: at most 1000000")
    date = serializers.DateField(required=False)
    place = serializers.CharField(max_length=100, required=False, default="")
    notes = FreeText(multiline=True, required=False, default="", allow_blank=True)


class SessionUpdateSerializer(serializers.Serializer[Any]):
    date = serializers.DateField(required=False)
    place = serializers.CharField(max_length=100, required=False, allow_blank=True)
    notes = FreeText(multiline=True, required=False, allow_blank=True)


class DealInputSerializer(serializers.Serializer[Any]):
    """A deal's ``players`` go to the engine as they are: it names any bad card itself.
    A seated player who sat the deal out is ``{"name": ..., "sat_out": true}``."""

    players = serializers.JSONField(
        help_text="the score request's players: name plus rows, surrender, natural, or cards;"
        " every seated player once, {'name': NAME, 'sat_out': true} for one who sat it out"
    )
    reason = FreeText(required=False, default="", allow_blank=True, max_length=REASON_LENGTH)
    dealer = serializers.CharField(
        required=False,
        default=None,
        allow_null=True,
        max_length=50,
        help_text="the seated player who dealt; by default the next seat after the previous"
        " deal's dealer (on an edit: unchanged)",
    )


class ReopenSerializer(serializers.Serializer[Any]):
    reason = FreeText(required=False, default="", allow_blank=True, max_length=REASON_LENGTH)


class VoidSerializer(serializers.Serializer[Any]):
    reason = FreeText(required=False, default="", allow_blank=True, max_length=REASON_LENGTH)


class WhatIfSerializer(serializers.Serializer[Any]):
    """One option of the option table and the value to try it at."""

    option = serializers.CharField(
        max_length=40,
        help_text="the name of a rule option of the deal's game, as in the rules"
        " (bonus, foul_penalty, surrender_cost, royalty_mode, royalty_best_only,"
        " natural_ranking, multipliers, ...)",
    )
    value = serializers.JSONField(
        allow_null=True,
        help_text='its value, as the rules take it: "2-4", "sweep", 3, true, null,'
        " [[10, 2]], a table's name, or a mapping that updates the deal's own table",
    )


class WhatIfPlayerSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    recorded = serializers.CharField(help_text="units as recorded")
    what_if = serializers.CharField(help_text="units under the changed option")
    difference = serializers.CharField(help_text="what_if less recorded")
    recorded_money = serializers.CharField(required=False, help_text="when the deal has stakes")
    what_if_money = serializers.CharField(required=False)
    money_difference = serializers.CharField(required=False)


class WhatIfAnswerSerializer(serializers.Serializer[Any]):
    """A deal scored again with one option changed; nothing is stored."""

    deal = serializers.IntegerField(help_text="the deal's number in its session")
    option = serializers.CharField()
    value = serializers.JSONField(help_text="the option's value as the engine read it")
    recorded_value = serializers.JSONField(help_text="the option's value the deal was scored under")
    players = WhatIfPlayerSerializer(many=True)
    result = serializers.JSONField(help_text="the engine's whole result under the changed rules")


class PresetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    game = serializers.CharField()
    rules = serializers.JSONField()
