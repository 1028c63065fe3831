"""Rows of work done in the background: a session's PDF documents and a group's imports.

Each has a status (pending, then ready or done, or failed with the reason) and a file
under ``MEDIA_ROOT`` that goes with its row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.db.models.signals import post_delete
from django.dispatch import receiver


def document_path(document: Document, filename: str) -> str:
    session = document.session
    group = document.group_id if session is None else session.group_id
    return f"documents/{group}/{filename}"


class Document(models.Model):
    """A PDF of a session, or of a group's season, rendered in the background: its status,
    its file, what it showed.

    ``fingerprint`` is taken from the session (or the season) when rendering starts (see
    ``games.sheets.documents.fingerprint``); a different one now means the file is stale.
    A season's document names its ``group``, its dates (either open) and its ``game``
    (blank: every game), and no session.
    """

    class Kind(models.TextChoices):
        SHEET = "sheet"
        LEDGER = "ledger"
        SEASON = "season"

    class Paper(models.TextChoices):
        A4 = "A4"
        LETTER = "Letter"

    class Status(models.TextChoices):
        PENDING = "pending"
        READY = "ready"
        FAILED = "failed"

    session = models.ForeignKey(
        "games.Session",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="documents",
        help_text="the session shown (sheets and ledgers)",
    )
    group = models.ForeignKey(
        "games.Group",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="season_documents",
        help_text="the group whose season is shown (seasons only)",
    )
    date_from = models.DateField(null=True, blank=True, help_text="a season's first date")
    date_to = models.DateField(null=True, blank=True, help_text="a season's last date")
    game = models.CharField(max_length=20, blank=True, help_text="a season's game; blank: all")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    player = models.ForeignKey(
        "games.Player",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="whose ledger (ledgers only)",
    )
    paper = models.CharField(max_length=6, choices=Paper.choices, default=Paper.A4)
    language = models.CharField(
        max_length=8, default="en", help_text="the language it is rendered in (settings.LANGUAGES)"
    )
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True, help_text="why it failed")
    file = models.FileField(upload_to=document_path, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-requested_at", "-pk")
        constraints = (
            models.CheckConstraint(
                condition=Q(kind="sheet", player__isnull=True)
                | Q(kind="ledger", player__isnull=False)
                | Q(kind="season", player__isnull=True),
                name="document_ledger_has_player",
            ),
            models.CheckConstraint(
                condition=Q(kind="season", session__isnull=True, group__isnull=False)
                | (~Q(kind="season") & Q(session__isnull=False, group__isnull=True)),
                name="document_session_or_season",
            ),
        )

    def __str__(self) -> str:
        if self.kind == self.Kind.SEASON:
            return f"season of group {self.group_id} ({self.status})"
        whose = f" of {self.player}" if self.player_id else ""
        return f"{self.kind}{whose} for session {self.session_id} ({self.status})"


class ImportJob(models.Model):
    """An uploaded group export, imported into an empty group in the background: pending,
    then done (with what it stored) or failed (why, and ``field``, the culprit's path in
    the file). The file is deleted once the job ends (``games.services.imports``)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        DONE = "done"
        FAILED = "failed"

    group = models.ForeignKey("games.Group", on_delete=models.CASCADE, related_name="import_jobs")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(max_length=7, choices=Status.choices, default=Status.PENDING)
    file = models.FileField(upload_to="imports/", blank=True)
    size = models.PositiveBigIntegerField(default=0, help_text="the upload's bytes")
    error = models.TextField(blank=True)
    field = models.TextField(blank=True)
    players = models.PositiveIntegerField(null=True, blank=True)
    sessions = models.PositiveIntegerField(null=True, blank=True)
    deals = models.PositiveIntegerField(null=True, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"import {self.pk} into group {self.group_id} ({self.status})"


@receiver(post_delete, sender=Document)
@receiver(post_delete, sender=ImportJob)
def _delete_document_file(sender: type[Document], instance: Document, **kwargs: Any) -> None:
    """A document's file goes with its row (also when its session or group is deleted),
    once the deletion commits: a deletion rolled back keeps it."""
    name, storage = instance.file.name, instance.file.storage
    if name:
        transaction.on_commit(lambda: storage.delete(name))
