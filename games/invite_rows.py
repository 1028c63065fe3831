"""An owner's invite link into a group (``games.services.invites``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GroupInvite(models.Model):
    """A link an owner shares to bring a friend into the group: signed, expiring, revocable.

    The link carries ``nonce`` signed with the site's key (games.services.invites), so an
    altered or made-up link is refused without a lookup; revoking stamps ``revoked_at``.
    """

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="invites")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="group_invites"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    nonce = models.CharField(max_length=32, unique=True)

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return f"invite to {self.group} by {self.created_by}"
