"""The record of two players merged into one (``games.services.merges``).

The merged-away player is deleted once everything of theirs follows the kept one, so the
row keeps both names as they were, who merged them, when, and how many rows moved.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PlayerMerge(models.Model):
    """``gone_name``'s seats, ledger rows, payments and stakes now belong to ``kept``."""

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="merges")
    kept = models.ForeignKey(
        "games.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kept_name = models.CharField(max_length=50, help_text="the kept player's name at the merge")
    gone_name = models.CharField(max_length=50, help_text="the merged-away player's name")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    merged_at = models.DateTimeField(auto_now_add=True)
    moved = models.JSONField(
        default=dict, help_text="how many rows followed, by kind: seats, ledger, payments, ..."
    )

    class Meta:
        ordering = ("-merged_at", "-pk")

    def __str__(self) -> str:
        return f"{self.gone_name} merged into {self.kept_name}"
