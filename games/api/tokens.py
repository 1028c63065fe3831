"""API tokens, one per device (``games.models.accounts``): asked for with a password, listed and
revoked by their user (``games.api.authentication`` reads them).

``POST auth/token/`` checks the password through ``authenticate()``, so the login lock-out
(django-axes, ``games.lib.lockout``) holds here as on every login path; the key it answers is
never shown again. ``GET auth/tokens/`` lists the user's tokens (never a key) with when
each expires, ``DELETE auth/tokens/{id}/`` revokes one, the token in use included (signing
that device out).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.parsers import JSONParser
from games.api.schema import refusal
from games.api.serializers import FreeText
from games.lib.lockout import forget_failures
from games.models.accounts import DeviceToken


class TokenRequestSerializer(AuthTokenSerializer):
    """A username and password (checked by DRF's serializer), and the device's name."""

    device = FreeText(
        max_length=100,
        required=False,
        allow_null=True,
        help_text="the device the token is for, as its user calls it (Ann's phone);"
        f" {DeviceToken.DEFAULT_DEVICE!r} when not given",
    )


EXPIRES_HELP = (
    "when the token stops working unless used before (each use moves it on);"
    " null when tokens never expire"
)


class IssuedTokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="the key: send it as Authorization: Token KEY")
    id = serializers.IntegerField()
    device = serializers.CharField()
    expires = serializers.DateTimeField(allow_null=True, help_text=EXPIRES_HELP)


class DeviceTokenSerializer(serializers.ModelSerializer[DeviceToken]):
    current = serializers.SerializerMethodField(help_text="whether this request uses it")
    expires = serializers.DateTimeField(read_only=True, allow_null=True, help_text=EXPIRES_HELP)

    class Meta:
        model = DeviceToken
        fields = ("id", "device", "created", "last_used", "expires", "current")
        read_only_fields = fields

    def get_current(self, token: DeviceToken) -> bool:
        auth = getattr(self.context.get("request"), "auth", None)
        return isinstance(auth, DeviceToken) and auth.pk == token.pk


class ObtainTokenView(APIView):
    """A new token for a device, for a username and password."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    parser_classes = (JSONParser, FormParser, MultiPartParser)
    # JSON only: a locked-out login then answers 429 in the API's error shape
    # (games.lib.lockout.lockout_response).
    renderer_classes = (JSONRenderer,)

    @extend_schema(
        request=TokenRequestSerializer,
        responses={200: IssuedTokenSerializer, 429: refusal("Too many failed logins: locked out.")},
    )
    def post(self, request: Request) -> Response:
        # authenticate() gets Django's request, not DRF's: axes marks a lock-out on the
        # request it is handed, and its middleware reads the mark on Django's.
        django_request = request._request
        asked = TokenRequestSerializer(data=request.data, context={"request": django_request})
        asked.is_valid(raise_exception=True)
        user = asked.validated_data["user"]
        forget_failures(django_request, user.get_username())
        device = asked.validated_data.get("device") or DeviceToken.DEFAULT_DEVICE
        token, key = DeviceToken.issue(user, device)
        issued = {"token": key, "id": token.pk, "device": token.device, "expires": token.expires}
        return Response(IssuedTokenSerializer(issued).data)


class DeviceTokenViewSet(
    mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet[DeviceToken]
):
    """The signed-in user's tokens: list them, revoke one. Another user's id answers 404,
    and an expired token is neither listed nor found."""

    serializer_class = DeviceTokenSerializer

    def get_queryset(self) -> QuerySet[DeviceToken]:
        user = self.request.user
        if not user.is_authenticated:
            return DeviceToken.objects.none()
        return DeviceToken.objects.filter(user=user).exclude(DeviceToken.expired_q())
