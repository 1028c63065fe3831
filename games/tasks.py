"""Celery tasks. They take ids, call the services and run after the transaction commits.

Without a broker (the embedded default) they run inline, in the process that queued them.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from games import services


@shared_task(
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def review_deal(deal_id: int) -> None:
    """Store how each player of the deal could have set their cards (``Deal.review``)."""
    services.store_review(deal_id)
