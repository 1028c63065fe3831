"""Celery tasks. They take ids, call the services and run after the transaction commits.

Without a broker (the embedded default) they run inline, in the process that queued them.
Queued with ``transaction.on_commit`` (see ``games.documents.request_document`` and
``games.services``), so a worker never looks for a row that is not committed yet.
"""

from __future__ import annotations

import logging

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from games import documents, services

logger = logging.getLogger(__name__)


@shared_task(
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def review_deal(deal_id: int) -> None:
    """Store how each player of the deal could have set their cards (``Deal.review``)."""
    services.store_review(deal_id)


# Worth another try: the database or the storage went away for a moment.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, OSError)
MAX_RETRIES = 3


# Acknowledged once done, not when taken: if the worker dies mid-render (SIGKILL, out of
# memory) the broker hands the task out again instead of dropping it. A pool process lost
# is requeued at once; a whole worker lost, after the broker's visibility timeout
# (settings). ``documents.render`` counts the renders lost, so this cannot loop for ever.
@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True, reject_on_worker_lost=True)
def render_document(self: Task, document_id: int) -> str:
    """Render a pending ``Document`` and store its file; it ends ``ready`` or ``failed``.

    Transient errors are retried: on a worker after 2, 4 and 8 s (the worker is free in
    between); run eagerly (no broker), at once, in the caller, since Celery's eager mode
    propagates a retry as an error. After the last try, or on any other error, the row is
    marked failed with the reason. Returns "ready", "failed", or "skipped" (not pending).
    """
    tries = self.request.retries
    while True:
        try:
            document = documents.render(document_id, tries)
        except TRANSIENT_ERRORS as exc:
            if tries >= MAX_RETRIES:
                logger.exception("document %s failed after %s tries", document_id, tries + 1)
                documents.mark_failed(
                    document_id,
                    f"gave up after {tries + 1} tries: {type(exc).__name__}: {exc}",
                )
                return "failed"
            logger.warning("document %s: %s; retrying", document_id, exc)
            if not self.request.is_eager:
                raise self.retry(exc=exc, countdown=2 ** (tries + 1)) from exc
            tries += 1
        except Exception as exc:
            logger.exception("document %s could not be rendered", document_id)
            documents.mark_failed(document_id, f"could not render: {type(exc).__name__}: {exc}")
            return "failed"
        else:
            return str(document.status) if document is not None else "skipped"
