"""The API's token authentication: device tokens (``games.models.accounts``).

A module of its own, importing no DRF view: DRF reads DEFAULT_AUTHENTICATION_CLASSES while
``rest_framework.views`` is being imported, so this class's module must not import it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from games.models import Session
from games.models.accounts import DeviceToken
from games.services.deal_reads import token_and_session


class DeviceTokenAuthentication(TokenAuthentication):
    """``Authorization: Token KEY``, KEY a device token's key; ``request.auth`` is the
    DeviceToken, and its ``last_used`` is kept (to the minute), which carries its expiry
    on. An expired token is refused and deleted."""

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, DeviceToken]:
        return self.checked(DeviceToken.for_key(key))

    @staticmethod
    def checked(token: DeviceToken | None) -> tuple[AbstractBaseUser, DeviceToken]:
        """The token's user and the token; AuthenticationFailed for no token, an expired
        one (deleted then) or a user who can no longer sign in."""
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if token.expired():
            token.delete()
            raise exceptions.AuthenticationFailed(
                gettext("This token has expired: sign in again for a new one.")
            )
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        token.record_use()
        return token.user, token


class DealTokenAuthentication(DeviceTokenAuthentication):
    """``DeviceTokenAuthentication`` for recording a deal into session ``session_pk``: the
    token and the session are read in one statement (``token_and_session``), and the
    session (None: no such session, or not the user's) is kept in ``session`` for the view,
    which then reads it no more."""

    def __init__(self, session_pk: int) -> None:
        self.session_pk = session_pk
        self.session: Session | None = None

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, DeviceToken]:
        token, self.session = token_and_session(key, self.session_pk)
        return self.checked(token)
