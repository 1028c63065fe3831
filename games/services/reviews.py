"""Reviews: how each player of a deal could have set their cards, worked out after it is
recorded (in the background with a broker, at the commit without one) and stored with it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction

from games.after_response import after_response
from games.engine.arrange import review_request
from games.models import Deal, ReviewLine
from games.sitting_out import engine_request


def review_after_commit(deal: Deal) -> None:
    """Queue the deal's review for when its transaction commits. With a broker it is sent
    once the response has gone out (``games.after_response``); run eagerly (no broker) it
    runs at the commit, so the next page already shows it. A broker that cannot be reached
    is logged, not raised: the deal is stored, and ``manage.py review_deals`` catches up."""
    deal_pk = deal.pk

    def queue() -> None:
        review_deal.delay(deal_pk)

    if settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(queue, robust=True)
    else:
        transaction.on_commit(lambda: after_response(queue), robust=True)


def store_review(deal_pk: int) -> dict[str, Any] | None:
    """Review the deal's current version with the engine and store it with its review lines.

    Returns the review, or None when the deal is gone or was edited meanwhile (the task
    queued by the edit reviews the new version).
    """
    deal = Deal.objects.filter(pk=deal_pk).select_related("session").first()
    if deal is None:
        return None
    request = engine_request({"rules": deal.rules, **deal.request})  # who sat out is not reviewed
    review = {**review_request(request), "version": deal.version}
    seated = deal.session.seated()
    with transaction.atomic():
        if not Deal.objects.filter(pk=deal_pk, version=deal.version).update(review=review):
            return None
        ReviewLine.objects.filter(deal_id=deal_pk).delete()
        ReviewLine.objects.bulk_create(
            ReviewLine(
                deal_id=deal_pk,
                player_id=seated[player["name"]],
                units_missed=Decimal(player["units_missed"]),
            )
            for player in review["players"]
            if player["reviewed"]
        )
    return review


# Named as before the services became a package, so that tasks queued by an older release
# are still found by the workers.
@shared_task(
    name="games.tasks.review_deal",
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def review_deal(deal_id: int) -> None:
    """Store how each player of the deal could have set their cards (``Deal.review``)."""
    store_review(deal_id)
