"""A session's history of closes and reopens (``games.services.sessions``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SessionEvent(models.Model):
    """A close or a reopen of a session: its history, shown on the scoreboard."""

    class Action(models.TextChoices):
        CLOSE = "close"
        REOPEN = "reopen"

    session = models.ForeignKey("games.Session", on_delete=models.CASCADE, related_name="events")
    action = models.CharField(max_length=6, choices=Action.choices)
    reason = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("session", "at", "id")

    def __str__(self) -> str:
        return f"{self.action} of session {self.session_id}"
