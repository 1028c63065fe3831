"""Celery tasks. Each takes ids, loads what it needs, and records its outcome on a model row.

Queued with ``transaction.on_commit`` (see ``games.documents.request_document``), so a
worker never looks for a row that is not committed yet.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from games import documents

logger = logging.getLogger(__name__)

# Worth another try: the database or the storage went away for a moment.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, OSError)
MAX_RETRIES = 3


@shared_task(bind=True, max_retries=MAX_RETRIES)
def render_document(self: Task, document_id: int) -> str:
    """Render a pending ``Document`` and store its file; it ends ``ready`` or ``failed``.

    Transient errors are retried (after 2, 4, 8 s); after the last try, or on any other
    error, the row is marked failed with the reason. Returns the final status.
    """
    try:
        document = documents.render(document_id)
    except TRANSIENT_ERRORS as exc:
        if self.request.retries < MAX_RETRIES:
            logger.warning("document %s: %s; retrying", document_id, exc)
            raise self.retry(exc=exc, countdown=2 ** (self.request.retries + 1)) from exc
        logger.exception("document %s failed after %s tries", document_id, MAX_RETRIES + 1)
        documents.mark_failed(
            document_id, f"gave up after {MAX_RETRIES + 1} tries: {type(exc).__name__}: {exc}"
        )
        return "failed"
    except Exception as exc:
        logger.exception("document %s could not be rendered", document_id)
        documents.mark_failed(document_id, f"could not render: {type(exc).__name__}: {exc}")
        return "failed"
    return "ready" if document is not None else "skipped"
