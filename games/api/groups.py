"""Groups and what hangs off them: members, players, rule versions, stakes; the presets.

A user sees only the groups they belong to: every queryset is filtered by membership, so
another group's ids answer 404, never 403. Changes go through ``games.services``, which
check the role (owners govern the group) and raise errors the API renders as
``{"error", "field"}`` (``games.api.errors``).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db.models import Max, Model, QuerySet
from django.http import QueryDict
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from games import services
from games.api import serializers as s
from games.api.schema import CONFLICT
from games.engine import PRESETS, Rules
from games.errors import ServiceError
from games.lib.locales import by_name, player_name
from games.models import Group, Membership, PairStake, Player, RuleSet
from games.services.names import same_as

M = TypeVar("M", bound=Model)


def member_groups(user: Any) -> QuerySet[Group]:
    """The groups the user belongs to (none for an anonymous user)."""
    if not user.is_authenticated:
        return Group.objects.none()
    return Group.objects.filter(memberships__user=user)


def current_user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)  # IsAuthenticated has let only users through
    return user


def user_named(username: str, field: str = "username") -> User:
    user = User.objects.filter(username=username).first()
    if user is None:
        raise ServiceError(f"{field}: there is no user {username!r}", field)
    return user


CONFIRM_PARAMETER = OpenApiParameter(
    "confirm",
    OpenApiTypes.STR,
    description="the group's name, exactly: needed to delete a group that has deals",
)


@extend_schema_view(
    partial_update=extend_schema(request=s.GroupUpdateSerializer, responses=s.GroupSerializer)
)
class GroupViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet[Group],
):
    """The user's groups. Creating one makes the user its owner; owners change its name,
    currency and unit value (the stakes every deal is recorded at), and delete it (one
    with deals only with ``?confirm=<its name>``)."""

    serializer_class = s.GroupSerializer

    def get_queryset(self) -> QuerySet[Group]:
        return (
            member_groups(self.request.user)
            .annotate(rules_version=Max("rule_sets__version"))
            .order_by("name", "pk")
        )

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())
        if self.request.user.is_authenticated:
            context["roles"] = dict(
                Membership.objects.filter(user_id=self.request.user.pk).values_list(
                    "group_id", "role"
                )
            )
        return context

    def _render(self, group: Group, code: int = status.HTTP_200_OK) -> Response:
        group = self.get_queryset().get(pk=group.pk)
        return Response(self.get_serializer(group).data, status=code)

    @extend_schema(request=s.GroupCreateSerializer, responses={201: s.GroupSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.GroupCreateSerializer, request.data)
        group = services.create_group(
            current_user(request),
            data["name"],
            data["currency"],
            data["unit_value"],
            data.get("rules", "standard"),
            data.get("players", ()),
        )
        return self._render(group, status.HTTP_201_CREATED)

    @extend_schema(request=s.GroupUpdateSerializer, responses=s.GroupSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.GroupUpdateSerializer, request.data)
        group = services.update_group(self.get_object(), current_user(request), **data)
        return self._render(group)

    @extend_schema(parameters=[CONFIRM_PARAMETER], responses={204: None, 409: CONFLICT})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        confirm = request.query_params.get("confirm")
        services.delete_group(self.get_object(), current_user(request), confirm=confirm)
        return Response(status=status.HTTP_204_NO_CONTENT)


def check_json_types(serializer: BaseSerializer[Any], data: dict[str, Any]) -> None:
    """A JSON body's text is a string and its yes or no a boolean, as the schema says:
    DRF would take 5 for "5" and 0 for false (a form's values are all text, and pass)."""
    for name, field in getattr(serializer, "fields", {}).items():
        value = data.get(name)
        if value is None or field.read_only:
            continue
        if isinstance(field, serializers.CharField) and not isinstance(value, str):
            raise ServiceError(_("%(field)s: a string is expected") % {"field": name}, name)
        if isinstance(field, serializers.BooleanField) and not isinstance(value, bool):
            raise ServiceError(_("%(field)s: true or false is expected") % {"field": name}, name)


def check_no_empty_values(serializer: BaseSerializer[Any], data: QueryDict) -> None:
    """``?date_to=`` is refused, not read as no date: only text may be empty."""
    for name, field in getattr(serializer, "fields", {}).items():
        if data.get(name) == "" and not isinstance(field, serializers.CharField):
            raise ServiceError(_("%(field)s: a value is expected") % {"field": name}, name)


def validated(serializer_class: type[BaseSerializer[Any]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    if isinstance(data, QueryDict):
        check_no_empty_values(serializer, data)
    elif isinstance(data, dict):
        check_json_types(serializer, data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class GroupScopedViewSet(viewsets.GenericViewSet[M]):
    """For views under ``groups/<group_pk>/``: the group, 404 unless the user belongs to it."""

    @cached_property
    def group(self) -> Group:
        return get_object_or_404(member_groups(self.request.user), pk=self.kwargs["group_pk"])

    def is_schema_view(self) -> bool:
        return bool(getattr(self, "swagger_fake_view", False))


@extend_schema_view(
    partial_update=extend_schema(
        request=s.MembershipUpdateSerializer,
        responses={200: s.MembershipSerializer, 409: CONFLICT},
    )
)
class MemberViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    GroupScopedViewSet[Membership],
):
    """The group's members and their roles; owners add, promote, demote and remove them."""

    serializer_class = s.MembershipSerializer

    def get_queryset(self) -> QuerySet[Membership]:
        if self.is_schema_view():
            return Membership.objects.none()
        return self.group.memberships.select_related("user").order_by("joined_at", "pk")

    @extend_schema(request=s.MembershipCreateSerializer, responses={201: s.MembershipSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.MembershipCreateSerializer, request.data)
        membership = services.add_member(
            self.group, user_named(data["username"]), data["role"], by=current_user(request)
        )
        return Response(self.get_serializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.MembershipUpdateSerializer,
        responses={200: s.MembershipSerializer, 409: CONFLICT},
    )
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.MembershipUpdateSerializer, request.data)
        membership = services.set_member_role(
            self.get_object(), data["role"], by=current_user(request)
        )
        return Response(self.get_serializer(membership).data)

    @extend_schema(responses={204: None, 409: CONFLICT})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        services.remove_member(self.get_object(), by=current_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    partial_update=extend_schema(request=s.PlayerUpdateSerializer, responses=s.PlayerSerializer)
)
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    GroupScopedViewSet[Player],
):
    """The group's players: any member adds one (a guest, or linked to a member's user).
    Owners rename them, link or unlink their user, retire them or bring them back, merge
    one into another, and delete one who never sat down."""

    serializer_class = s.PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        if self.is_schema_view():
            return Player.objects.none()
        return self.group.players.select_related("user").order_by("name")

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The players in the reader's alphabetical order (``games.lib.locales.name_key``):
        the database's own order knows no language."""
        players = by_name(self.filter_queryset(self.get_queryset()), player_name)
        page = self.paginate_queryset(players)
        if page is not None:
            return self.get_paginated_response(self.get_serializer(page, many=True).data)
        return Response(self.get_serializer(players, many=True).data)

    @extend_schema(request=s.PlayerCreateSerializer, responses={201: s.PlayerSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.PlayerCreateSerializer, request.data)
        user = None
        if data.get("username"):
            user = user_named(data["username"])
            if not self.group.memberships.filter(user=user).exists():
                raise ServiceError(
                    f"username: {user.username} is not a member of {self.group.name}", "username"
                )
        player = services.add_player(self.group, data["name"], by=current_user(request), user=user)
        return Response(self.get_serializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.PlayerUpdateSerializer, responses=s.PlayerSerializer)
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.PlayerUpdateSerializer, request.data)
        changes: dict[str, Any] = {}
        if "name" in data:
            changes["name"] = data["name"]
        if "username" in data:
            username = data["username"]
            changes["user"] = None if username is None else user_named(username)
        if "retired" in data:
            changes["retired"] = data["retired"]
        player = services.update_player(self.get_object(), current_user(request), **changes)
        return Response(self.get_serializer(self.get_queryset().get(pk=player.pk)).data)

    @extend_schema(responses={204: None, 409: CONFLICT})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        services.delete_player(self.get_object(), by=current_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=s.PlayerMergeRequestSerializer, responses=s.PlayerMergeSerializer)
    @action(detail=True, methods=["post"])
    def merge(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Merge this player into ``into`` (owners): everything of theirs follows."""
        gone = self.get_object()
        into = validated(s.PlayerMergeRequestSerializer, request.data)["into"]
        keep = self._named_or_numbered(into)
        record = services.merge_players(self.group, keep, gone, by=current_user(request))
        return Response(s.PlayerMergeSerializer(record).data)

    def _named_or_numbered(self, into: Any) -> Player:
        players = self.group.players.select_related("user")
        if isinstance(into, int) and not isinstance(into, bool):
            player = players.filter(pk=into).first()
        elif isinstance(into, str):
            same = same_as(into, players.values_list("name", flat=True))
            player = None if same is None else players.filter(name=same).first()
        else:
            raise ServiceError(_("into: a player's id or name"), "into")
        if player is None:
            raise ServiceError(
                _("into: %(group)s has no player %(into)r")
                % {"group": self.group.name, "into": into},
                "into",
            )
        return player


class RuleSetViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    GroupScopedViewSet[RuleSet],
):
    """Every version of the group's rules (``current/`` is the latest). Owners add a
    version; the engine validates it and names the bad field."""

    serializer_class = s.RuleSetSerializer
    lookup_field = "version"

    def get_queryset(self) -> QuerySet[RuleSet]:
        if self.is_schema_view():
            return RuleSet.objects.none()
        return self.group.rule_sets.select_related("created_by").order_by("version")

    @action(detail=False)
    def current(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(self.get_serializer(self.get_queryset().last()).data)

    @extend_schema(request=s.RuleSetCreateSerializer, responses={201: s.RuleSetSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.RuleSetCreateSerializer, request.data)
        rule_set = services.set_rules(self.group, data["rules"], by=current_user(request))
        return Response(self.get_serializer(rule_set).data, status=status.HTTP_201_CREATED)


class PairStakeViewSet(
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    GroupScopedViewSet[PairStake],
):
    """Per-pair multiples of the group's unit. Owners set one by naming the two players;
    setting a pair again replaces its multiple. Only that pair's money changes. Deleting
    one puts the pair back at 1x; deals already recorded keep their money."""

    serializer_class = s.PairStakeSerializer

    def get_queryset(self) -> QuerySet[PairStake]:
        if self.is_schema_view():
            return PairStake.objects.none()
        return self.group.pair_stakes.select_related("player_a", "player_b").order_by("pk")

    @extend_schema(request=s.PairStakeCreateSerializer, responses={201: s.PairStakeSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = validated(s.PairStakeCreateSerializer, request.data)
        first, second = (self._player(name, k) for k, name in enumerate(data["players"]))
        stake = services.set_pair_stake(
            self.group, first, second, data["multiplier"], by=current_user(request)
        )
        return Response(self.get_serializer(stake).data, status=status.HTTP_201_CREATED)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        services.delete_pair_stake(self.get_object(), by=current_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _player(self, name: str, k: int) -> Player:
        player = self.group.players.filter(name=name).first()
        if player is None:
            raise ServiceError(
                f"players[{k}]: {self.group.name} has no player named {name!r}", f"players[{k}]"
            )
        return player


class PresetsView(APIView):
    """The engine's presets, each with every option spelled out."""

    permission_classes = (AllowAny,)

    @extend_schema(responses=s.PresetSerializer(many=True))
    def get(self, request: Request) -> Response:
        presets = []
        for name in PRESETS:
            rules = Rules.from_mapping(name)
            presets.append({"name": name, "game": rules.game, "rules": rules.to_mapping()})
        return Response(presets)
