"""A user's API tokens, one per device, and the language they read.

API tokens are kept as the SHA-256 of their key.

A key is 40 random hexadecimal characters, shown once, when the token is made; the
database keeps only its hash, so a copy of the database gives no usable token (keys are
random, so a hash without a salt is safe to keep). A user keeps at most ``LIMIT`` tokens:
making one more revokes the least recently used.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, models, transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.lib import hot_sql

# How long a use may go unrecorded: ``last_used`` is written at most once a minute per
# token, not on every request.
LAST_USED_STEP = datetime.timedelta(minutes=1)


def key_hash(key: str) -> str:
    """The stored form of a key: its SHA-256, in hexadecimal."""
    return hashlib.sha256(key.encode()).hexdigest()


class DeviceToken(models.Model):
    """One device's API token (``Authorization: Token KEY``)."""

    LIMIT = 20
    DEFAULT_DEVICE = "API client"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens"
    )
    device = models.CharField(max_length=100, help_text="the name its user gave the device")
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("created", "id")

    def __str__(self) -> str:
        return f"{self.device} ({self.user})"

    @classmethod
    def issue(cls, user: AbstractBaseUser, device: str = DEFAULT_DEVICE) -> tuple[DeviceToken, str]:
        """A new token for the user's device and its key (the only time the key is seen);
        beyond ``LIMIT``, the user's least recently used tokens are revoked."""
        key = secrets.token_hex(20)
        with transaction.atomic():
            token = cls.objects.create(user=user, device=device, key_hash=key_hash(key))
            stale = (
                cls.objects.filter(user=user)
                .order_by(Coalesce("last_used", "created").desc(), "-id")
                .values_list("id", flat=True)[cls.LIMIT :]
            )
            cls.objects.filter(id__in=list(stale)).delete()
        return token, key

    @classmethod
    def for_key(cls, key: str) -> DeviceToken | None:
        """The token whose key this is, with its user; None for no token's key. Every API
        request asks: one statement, without the ORM (``games.lib.hot_sql``)."""
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {token_columns()} FROM {token_join()} WHERE {by_key()}", [key_hash(key)]
            )
            row = cursor.fetchone()
        return None if row is None else token_from(row)[0]

    def record_use(self) -> None:
        """Note that the token was just used (to the minute, to spare the writes)."""
        now = timezone.now()
        if self.last_used is None or now - self.last_used >= LAST_USED_STEP:
            DeviceToken.objects.filter(pk=self.pk).update(last_used=now)
            self.last_used = now


def token_columns() -> str:
    """The SQL selecting a token's columns and then its user's (``token_from`` reads them)."""
    user_model = get_user_model()
    return f"{hot_sql.columns(DeviceToken).sql}, {hot_sql.columns(user_model).sql}"


def token_join() -> str:
    """The tokens joined to their users, for a FROM clause."""
    user_model = get_user_model()
    name = connection.ops.quote_name
    tokens, users = hot_sql.quoted(DeviceToken), hot_sql.quoted(user_model)
    user_id, pk = DeviceToken._meta.get_field("user").column, str(user_model._meta.pk.column)
    return f"{tokens} INNER JOIN {users} ON {users}.{name(pk)} = {tokens}.{name(user_id)}"


def by_key() -> str:
    """The condition on a key's hash (a unique column: one token or none), its parameter."""
    return f"{hot_sql.quoted(DeviceToken)}.{connection.ops.quote_name('key_hash')} = %s"


def token_from(row: Sequence[Any]) -> tuple[DeviceToken, Sequence[Any]]:
    """The token with its user from a row that begins with ``token_columns()``, and the
    rest of the row."""
    token_columns, user_columns = hot_sql.columns(DeviceToken), hot_sql.columns(get_user_model())
    token = token_columns.instance(row[: token_columns.width])
    end = token_columns.width + user_columns.width
    token.user = user_columns.instance(row[token_columns.width : end])
    return token, row[end:]


class LanguagePreference(models.Model):
    """The language a user chose with the switcher."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} reads {self.language}"
