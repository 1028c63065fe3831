"""``X-Seat-Token``: the live table's requests from a seat link's holder (no account).

A module of its own, importing no DRF view (as ``games.api.authentication``). The request's
``user`` stays anonymous and ``request.auth`` is the ``Seat`` the link speaks for; each
live view checks that it is a seat of the session it is about.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from games.live.seat_links import Seat, SeatLinkRefused, claim, heard, open_seat

HEADER = "HTTP_X_SEAT_TOKEN"
# The phone's own random secret: the first phone to open a seat holds it (``claim``).
DEVICE = "HTTP_X_SEAT_DEVICE"


class SeatTokenAuthentication(BaseAuthentication):
    """The seat of a valid ``X-Seat-Token``; a token sent but not valid is refused (403)
    rather than read as no token, so a revoked phone learns why."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, Seat] | None:
        token = request.META.get(HEADER)
        if token is None:
            return None  # an empty header is a token sent, and refused below
        device = request.META.get(DEVICE, "")
        try:
            seat = claim(open_seat(token), device)
        except SeatLinkRefused as refused:
            raise exceptions.PermissionDenied(refused.message) from None
        if device:  # a phone, which the host's page follows
            # A write writes it with its lock (``games.live.api`` settles what is left).
            heard(seat, later=request.method not in SAFE_METHODS)
        return AnonymousUser(), seat


class MemberOrSeat(BasePermission):
    """A signed-in user (the view then checks membership) or a seat link's holder."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated) or isinstance(
            request.auth, Seat
        )


class SeatTokenScheme(OpenApiAuthenticationExtension):
    """Describes ``X-Seat-Token`` in the OpenAPI schema (registered by being defined)."""

    target_class = "games.live.seat_auth.SeatTokenAuthentication"
    name = "seatToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "X-Seat-Token"}
