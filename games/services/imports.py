"""An uploaded group export's import as an ``ImportJob`` row, and the task that runs it.

``request_import`` checks that the uploader owns the group and that it is empty, stores the
file (Django's storage, under ``MEDIA_ROOT``: never held in memory) in a ``pending`` row,
and queues ``import_group_file`` once the transaction commits (run inline when there is
no broker). ``run``, the task's work, reads the file with ijson (``games.lib.jsonfile``:
one deal at a time, the file never whole in memory), checks and writes it with
``games.services.transfer`` in one transaction, and marks the job ``done`` with what it
stored in that same transaction, or ``failed`` with the refusal (its message and
``field``, the culprit's path in the file). Either way the file is deleted. A job no
worker has taken after ``DOCUMENT_PENDING_TIMEOUT``, or still running after
``IMPORT_RUNNING_TIMEOUT`` (its worker killed), is marked failed when its status is
read; an import that finishes after that is rolled back, so a failed job stored nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
from collections.abc import Iterator

from celery import shared_task
from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.files import File
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games.errors import ImportRefused, ServiceError
from games.lib import jsonfile
from games.models import Group, ImportJob
from games.services import transfer

logger = logging.getLogger(__name__)

# The arrays of an export read one element at a time: sessions, and each session's deals.
LAZY: jsonfile.Lazy = {"sessions": {"deals": {}}}


def request_import(group: Group, upload: File, by: User) -> ImportJob:
    """A pending import of ``upload`` into ``group`` (owners, an empty group), queued once
    the transaction commits. ImportRefused while another import into it is pending."""
    with transaction.atomic():
        transfer.lock_empty(group, by)
        for pending in group.import_jobs.filter(status=ImportJob.Status.PENDING):
            if refresh(pending).status == ImportJob.Status.PENDING:
                raise ImportRefused(
                    f"import {pending.pk} into {group.name} has not ended yet: wait for it"
                )
        job = ImportJob.objects.create(group=group, requested_by=by, size=upload.size or 0)
        job.file.save(f"group-{group.pk}-import-{job.pk}.json", upload, save=True)
        transaction.on_commit(lambda: queue(job.pk))
    return job


def queue(job_id: int) -> None:
    """Send the job's task to the workers; a broker that cannot be reached fails it."""
    try:
        import_group_file.delay(job_id)
    except BrokerError as exc:
        logger.exception("could not queue import %s", job_id)
        mark_failed(job_id, f"could not queue the import: {exc}")


class _GivenUp(Exception):
    """The job was marked failed while it ran: its import is rolled back."""


def run(job_id: int) -> ImportJob | None:
    """Import a pending job's file; the job afterwards, or None if it was not pending
    (or another worker has begun it)."""
    claimed = ImportJob.objects.filter(
        pk=job_id, status=ImportJob.Status.PENDING, started_at__isnull=True
    ).update(started_at=timezone.now())
    if not claimed:
        return None
    job = ImportJob.objects.select_related("group", "requested_by").get(pk=job_id)
    try:
        _import(job)
    except _GivenUp:
        logger.warning("import %s ended after it was given up on; rolled back", job_id)
    except ServiceError as exc:
        mark_failed(job_id, exc.message, exc.field)
    except PermissionDenied as exc:
        mark_failed(job_id, str(exc))
    except Exception as exc:
        logger.exception("import %s failed", job_id)
        mark_failed(job_id, f"could not import: {type(exc).__name__}: {exc}")
    finally:
        _delete_file(job)
    job.refresh_from_db()
    return job


def _import(job: ImportJob) -> None:
    if job.requested_by is None:
        raise ImportRefused("the user who uploaded the file no longer exists")
    with read(job) as document, transaction.atomic():
        group = transfer.lock_empty(job.group, job.requested_by)
        if not mark_done(job, transfer.restore(document, group)):
            raise _GivenUp


def mark_done(job: ImportJob, restored: transfer.Restored) -> bool:
    """Record what the import stored, in its transaction, if the job is still pending."""
    return bool(
        ImportJob.objects.filter(pk=job.pk, status=ImportJob.Status.PENDING).update(
            status=ImportJob.Status.DONE,
            players=restored.players,
            sessions=restored.sessions,
            deals=restored.deals,
            finished_at=timezone.now(),
        )
    )


@contextlib.contextmanager
def read(job: ImportJob) -> Iterator[object]:
    """The job's file as a document whose sessions and deals are read from the file as they
    are used, within the ``with`` block. The whole file is checked first."""
    storage, name = job.file.storage, str(job.file.name)
    try:
        with jsonfile.load(lambda: storage.open(name, "rb"), LAZY) as document:
            yield document
    except jsonfile.NotUTF8 as exc:
        raise ImportRefused(
            f"file: not UTF-8 text (byte {exc.byte}): a group export is JSON", "file"
        ) from None
    except jsonfile.JSONError as exc:
        raise ImportRefused(f"file: not valid JSON: {exc.message}", "file") from None


def _delete_file(job: ImportJob) -> None:
    if job.file.name:
        job.file.delete(save=False)
        ImportJob.objects.filter(pk=job.pk).update(file="")


def mark_failed(job_id: int, reason: str, field: str | None = None, **only: object) -> bool:
    """Record why an import failed (only while it is still pending); whether it was."""
    return bool(
        ImportJob.objects.filter(pk=job_id, status=ImportJob.Status.PENDING, **only).update(
            status=ImportJob.Status.FAILED,
            error=_keepable(reason),
            field=_keepable(field or ""),
            finished_at=timezone.now(),
        )
    )


def _keepable(text: str) -> str:
    """Text PostgreSQL can keep: no NUL, no half of a surrogate pair (escaped instead)."""
    text = text[:2000].replace("\x00", "\\x00")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def refresh(job: ImportJob) -> ImportJob:
    """The job as it stands, a pending one past its timeout marked failed first."""
    if job.status != ImportJob.Status.PENDING:
        return job
    now = timezone.now()
    waited = datetime.timedelta(seconds=settings.DOCUMENT_PENDING_TIMEOUT)
    ran = datetime.timedelta(seconds=settings.IMPORT_RUNNING_TIMEOUT)
    failed = False
    if job.started_at is None and now - job.requested_at > waited:
        failed = mark_failed(
            job.pk,
            f"no worker took the import within {settings.DOCUMENT_PENDING_TIMEOUT} seconds;"
            " upload the file again",
            started_at__isnull=True,
        )
    elif job.started_at is not None and now - job.started_at > ran:
        failed = mark_failed(
            job.pk,
            f"still importing after {settings.IMPORT_RUNNING_TIMEOUT} seconds: its worker"
            " stopped (killed, or out of memory); nothing was stored, upload the file again",
        )
    job.refresh_from_db()
    if failed:
        _delete_file(job)
    return job


@shared_task(name="games.tasks.import_group_file")
def import_group_file(job_id: int) -> str:
    """Import a pending ``ImportJob``'s file; it ends ``done`` or ``failed``. Returns its
    status, or "skipped" (not pending, or begun by another worker)."""
    job = run(job_id)
    return "skipped" if job is None else str(job.status)
