"""Invite links through the API: owners make, list and revoke them; a signed-in user
accepts one, joining the group as a member and playing as a player
(games.services.invites)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games import services
from games.api.groups import current_user, validated
from games.api.reports import user_group
from games.errors import ServiceError
from games.lib.public_url import public_url
from games.models import GroupInvite
from games.permissions import require_owner
from games.services import invites


class InviteCreate(serializers.Serializer[Any]):
    days = serializers.IntegerField(
        required=False,
        default=invites.DEFAULT_DAYS,
        min_value=1,
        max_value=invites.MAX_DAYS,
        help_text="how long the link holds",
    )


class InviteAccept(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="the token of the invite link")
    player = serializers.CharField(
        required=False, help_text="an unlinked player of the group to play as: id or name"
    )
    new_player = serializers.CharField(required=False, help_text="or a new player's name")


LIST_OF_OBJECTS = build_array_type(build_basic_type(OpenApiTypes.OBJECT) or {})


def _body(request: Request, invite: GroupInvite) -> dict[str, Any]:
    token = invites.token_for(invite)
    return {
        "id": invite.pk,
        "group": invite.group_id,
        "created_by": invite.created_by.get_username(),
        "created_at": invite.created_at.isoformat(),
        "expires_at": invite.expires_at.isoformat(),
        "revoked_at": invite.revoked_at.isoformat() if invite.revoked_at else None,
        "token": token,
        "link": public_url(request, reverse("web:invite", args=[token])),
    }


@extend_schema(
    methods=["GET"], responses={200: LIST_OF_OBJECTS}, operation_id="v1_groups_invites_list"
)
@extend_schema(
    methods=["POST"],
    request=InviteCreate,
    responses={201: OpenApiTypes.OBJECT},
    operation_id="v1_groups_invites_create",
)
@api_view(["GET", "POST"])
def group_invites(request: Request, pk: int) -> Response:
    """Owners only. GET: the group's active invites. POST: a new one (``days``, 7 unless
    given): 201 with its ``link``, ``token`` and ``expires_at``."""
    group = user_group(request, pk)
    user = current_user(request)
    if request.method == "POST":
        data = validated(InviteCreate, request.data)
        invite = services.create_invite(group, by=user, days=data["days"])
        return Response(_body(request, invite), status=status.HTTP_201_CREATED)
    require_owner(user, group)
    return Response([_body(request, invite) for invite in invites.active_invites(group)])


@extend_schema(request=None, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def invite_revoke(request: Request, pk: int, invite_pk: int) -> Response:
    """Owners revoke an invite: its link is refused from now on."""
    group = user_group(request, pk)
    invite = get_object_or_404(group.invites, pk=invite_pk)
    return Response(_body(request, services.revoke_invite(invite, by=current_user(request))))


@extend_schema(request=InviteAccept, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def invite_accept(request: Request) -> Response:
    """Join the invite's group as a member, playing as ``player`` (an unlinked player, id or
    name) or as a ``new_player``: 201 with the group and the player."""
    data = validated(InviteAccept, request.data)
    if "player" in data and "new_player" in data:
        raise ServiceError("player: give player or new_player, not both", "player")
    joined = services.accept_invite(
        data["token"],
        current_user(request),
        player=data.get("player"),
        new_player=data.get("new_player"),
    )
    return Response(
        {
            "group": joined.invite.group_id,
            "group_name": joined.invite.group.name,
            "role": joined.membership.role,
            "player": {"id": joined.player.pk, "name": joined.player.name},
        },
        status=status.HTTP_201_CREATED,
    )
