"""``POST auth/password/``: a signed-in user changes their password from a phone app.

The old password is checked through ``authenticate()``, so a wrong one counts as a failed
login of that user from that address, and a locked-out user is refused with 429
(django-axes, ``games.lib.lockout``). The new one passes the project's password
validators. Saving it revokes every API token of the user (``games.models.accounts``),
except the token the request came with when ``keep_this_device`` asks for it; the answer
names the tokens revoked and the one kept. A change made with a signed-in session keeps
that session and ends the user's others, as the web page does.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, update_session_auth_hash
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.groups import current_user
from games.api.parsers import JSONParser
from games.api.schema import refusal
from games.api.tokens import EXPIRES_HELP
from games.lib.lockout import forget_failures
from games.models.accounts import DeviceToken, keep_token, revoked_tokens


class PasswordChangeSerializer(serializers.Serializer[Any]):
    old_password = serializers.CharField(
        trim_whitespace=False, write_only=True, help_text="the password in use now"
    )
    new_password = serializers.CharField(
        trim_whitespace=False, write_only=True, help_text="the password from now on"
    )
    keep_this_device = serializers.BooleanField(
        default=False,
        help_text="keep the token this request is signed in with (every other one is"
        " revoked); false revokes it too",
    )


class TokenNameSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    device = serializers.CharField()


class KeptTokenSerializer(TokenNameSerializer):
    expires = serializers.DateTimeField(allow_null=True, help_text=EXPIRES_HELP)


class PasswordChangedSerializer(serializers.Serializer[Any]):
    revoked = TokenNameSerializer(many=True, help_text="the user's tokens that stopped working")
    kept = KeptTokenSerializer(
        allow_null=True,
        help_text="the token this request came with, when kept; null otherwise",
    )


class PasswordChangeView(APIView):
    """A new password for the signed-in user; their API tokens are revoked."""

    parser_classes = (JSONParser, FormParser, MultiPartParser)
    # JSON only: a locked-out user then gets 429 in the API's error shape
    # (games.lib.lockout.lockout_response).
    renderer_classes = (JSONRenderer,)

    @extend_schema(
        request=PasswordChangeSerializer,
        responses={
            200: PasswordChangedSerializer,
            400: refusal(
                "a wrong old password (counted as a failed login) or a new one the password"
                " rules refuse"
            ),
            429: refusal(
                "too many failed logins of this user from this address; Retry-After says when"
                " to try again"
            ),
        },
    )
    def post(self, request: Request) -> Response:
        asked = PasswordChangeSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        data = asked.validated_data
        user = current_user(request)
        username = user.get_username()
        # authenticate() gets Django's request, not DRF's: axes marks a lock-out on the
        # request it is handed, and its middleware reads the mark on Django's.
        django_request = request._request
        checked = authenticate(django_request, username=username, password=data["old_password"])
        if checked is None or checked.pk != user.pk:
            message = gettext("Your old password was entered incorrectly.")
            raise ValidationError({"old_password": [message]})
        try:
            validate_password(data["new_password"], user)
        except DjangoValidationError as refused:
            raise ValidationError({"new_password": list(refused.messages)}) from refused
        token = request.auth if isinstance(request.auth, DeviceToken) else None
        kept = token if data["keep_this_device"] else None
        user.set_password(data["new_password"])
        keep_token(user, kept)
        user.save(update_fields=["password"])
        forget_failures(django_request, username)
        if token is None:
            update_session_auth_hash(django_request, user)
        answer = {
            "revoked": revoked_tokens(user),
            "kept": None if kept is None else {**_named(kept), "expires": kept.expires},
        }
        return Response(PasswordChangedSerializer(answer).data)


def _named(token: DeviceToken) -> dict[str, Any]:
    return {"id": token.pk, "device": token.device}
