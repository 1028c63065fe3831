"""A user's API tokens, one per device, and the language they read.

API tokens are kept as the SHA-256 of their key.

A key is 40 random hexadecimal characters, shown once, when the token is made; the
database keeps only its hash, so a copy of the database gives no usable token (keys are
random, so a hash without a salt is safe to keep). A user keeps at most ``LIMIT`` tokens:
making one more revokes the least recently used.

A token expires ``TOKEN_EXPIRY_DAYS`` days after its last use (after it was made, when
never used; 0: never); ``last_used``, written as it is used, carries it on. Setting a new
password revokes every token of the user (``revoke_on_new_password``), but the one the
change was made with when its caller asked to keep it (``keep_token``).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import is_password_usable
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, models, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone

from games.lib import hot_sql

# How long a use may go unrecorded: ``last_used`` is written at most once a minute per
# token, not on every request.
LAST_USED_STEP = datetime.timedelta(minutes=1)


def oldest_live_use(now: datetime.datetime) -> datetime.datetime | None:
    """The earliest last use (or making, for a token never used) that still leaves a token
    working at ``now``; None while tokens never expire (``TOKEN_EXPIRY_DAYS`` 0)."""
    days: int = settings.TOKEN_EXPIRY_DAYS
    return now - datetime.timedelta(days=days) if days else None


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

    @property
    def expires(self) -> datetime.datetime | None:
        """When the token stops working unless it is used before (None: never)."""
        days: int = settings.TOKEN_EXPIRY_DAYS
        if not days:
            return None
        return (self.last_used or self.created) + datetime.timedelta(days=days)

    def expired(self, now: datetime.datetime | None = None) -> bool:
        """Whether the token went unused too long to work at ``now`` (this moment)."""
        expires = self.expires
        return expires is not None and expires <= (now or timezone.now())

    @staticmethod
    def expired_q(now: datetime.datetime | None = None) -> Q:
        """The condition picking the expired tokens (none while tokens never expire)."""
        oldest = oldest_live_use(now or timezone.now())
        if oldest is None:
            return Q(pk__in=[])
        return Q(last_used__lte=oldest) | Q(last_used__isnull=True, created__lte=oldest)

    @classmethod
    def issue(cls, user: AbstractBaseUser, device: str = DEFAULT_DEVICE) -> tuple[DeviceToken, str]:
        """A new token for the user's device and its key (the only time the key is seen);
        beyond ``LIMIT``, the user's least recently used tokens are revoked."""
        key = secrets.token_hex(20)
        with transaction.atomic():
            cls.objects.filter(cls.expired_q(), user=user).delete()
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

    @classmethod
    def revoke_all(
        cls, user: AbstractBaseUser, keep: DeviceToken | None = None
    ) -> list[dict[str, Any]]:
        """Deletes every token of the user but ``keep``; the ``id`` and ``device`` of each
        one deleted."""
        mine = cls.objects.filter(user=user)
        if keep is not None:
            mine = mine.exclude(pk=keep.pk)
        with transaction.atomic():
            revoked = list(mine.order_by("created", "id").values("id", "device"))
            mine.delete()
        return revoked

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


# Django's ``set_password`` keeps the new password in ``_password`` until the user is saved
# (it is how ``AbstractBaseUser.save`` knows to tell the password validators), and a hash
# upgraded at login is saved without it: so a user saved with ``_password`` set has a new
# password, whichever path set it (the pages, the reset link, the admin, ``changepassword``,
# the API).
_KEEP = "_device_token_kept"
_DISABLED = "_password_disabled"
REVOKED = "revoked_device_tokens"


def keep_token(user: AbstractBaseUser, token: DeviceToken | None) -> None:
    """Spares ``token`` when the user's next save sets a new password."""
    setattr(user, _KEEP, token)


def revoked_tokens(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The tokens (``id``, ``device``) the user's last save revoked with a new password."""
    revoked: list[dict[str, Any]] = getattr(user, REVOKED, [])
    return revoked


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.tokens.disabled")
def note_password_disabled(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """Notes a usable password about to become unusable (the admin's "disable
    password-based authentication"), which revokes the tokens as a new password does. Only
    a user saved with an unusable password costs a read."""
    if raw or instance._state.adding or instance.has_usable_password():
        return
    if update_fields is not None and "password" not in update_fields:
        return
    stored = sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True)
    setattr(instance, _DISABLED, any(is_password_usable(password) for password in stored))


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.tokens.revoke")
def revoke_on_new_password(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    created: bool = False,
    raw: bool = False,
    **kwargs: Any,
) -> None:
    """Revokes the user's tokens once a new password (or none) is saved: a stolen device
    is signed out by changing the password. What was revoked is kept on the user
    (``revoked_tokens``)."""
    if created or raw:
        return
    if getattr(instance, "_password", None) is None and not getattr(instance, _DISABLED, False):
        return
    kept = getattr(instance, _KEEP, None)
    setattr(instance, _DISABLED, False)
    setattr(instance, _KEEP, None)
    setattr(instance, REVOKED, DeviceToken.revoke_all(instance, keep=kept))


class LanguagePreference(models.Model):
    """The language a user chose with the switcher."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} reads {self.language}"
