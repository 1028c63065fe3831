"""The API's token authentication: device tokens (``games.tokens``).

A module of its own, importing no DRF view: DRF reads DEFAULT_AUTHENTICATION_CLASSES while
``rest_framework.views`` is being imported, so this class's module must not import it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from games.tokens import DeviceToken


class DeviceTokenAuthentication(TokenAuthentication):
    """``Authorization: Token KEY``, KEY a device token's key; ``request.auth`` is the
    DeviceToken, and its ``last_used`` is kept (to the minute)."""

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, DeviceToken]:
        token = DeviceToken.for_key(key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        token.record_use()
        return token.user, token
