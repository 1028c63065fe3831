"""Reviews: how each player of a deal could have set their cards, worked out after it is
recorded (in the background with a broker, at the commit without one) and stored with it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction

from games.after_response import after_response
from games.engine import ScoreError
from games.engine.arrange import review_request
from games.models import Deal, ReviewLine, SessionSeat
from games.sitting_out import engine_request

log = logging.getLogger(__name__)


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
    return store_reviews([deal_pk]).get(deal_pk)


def store_reviews(deal_pks: Sequence[int]) -> dict[int, dict[str, Any] | None]:
    """``store_review`` for several deals at once: the deals and their seats read in two
    queries, each reviewed by the engine, and every review with its lines written in one
    transaction (the deals locked in id order, so that two batches never wait on each
    other in a circle). A review is stored only if its deal is still at the version
    reviewed. Answers each deal's review, None for a deal gone, edited meanwhile, or
    whose stored request the engine refuses (logged)."""
    deals = list(Deal.objects.filter(pk__in=deal_pks).order_by("pk"))
    seats: dict[int, dict[str, int]] = {}
    rows = SessionSeat.objects.filter(session_id__in={deal.session_id for deal in deals})
    for session_id, name, player_id in rows.values_list("session_id", "name", "player_id"):
        seats.setdefault(session_id, {})[name] = player_id
    reviewed: dict[int, tuple[Deal, dict[str, Any]]] = {}
    for deal in deals:
        # Who sat out is not reviewed.
        request = engine_request({"rules": deal.rules, **deal.request})
        try:
            reviewed[deal.pk] = deal, {**review_request(request), "version": deal.version}
        except ScoreError as exc:
            log.error("deal %s cannot be reviewed: %s", deal.pk, exc)
    stored: dict[int, dict[str, Any] | None] = dict.fromkeys(deal_pks)
    if not reviewed:
        return stored
    with transaction.atomic():
        locked = Deal.objects.select_for_update().filter(pk__in=reviewed).order_by("pk")
        current = dict(locked.values_list("pk", "version"))
        fresh = [pk for pk, (deal, _) in reviewed.items() if current.get(pk) == deal.version]
        if not fresh:
            return stored
        Deal.objects.bulk_update(
            [Deal(pk=pk, review=reviewed[pk][1]) for pk in fresh], ["review"], batch_size=100
        )
        ReviewLine.objects.filter(deal_id__in=fresh).delete()
        ReviewLine.objects.bulk_create(
            ReviewLine(
                deal_id=pk,
                player_id=seats[reviewed[pk][0].session_id][player["name"]],
                units_missed=Decimal(player["units_missed"]),
            )
            for pk in fresh
            for player in reviewed[pk][1]["players"]
            if player["reviewed"]
        )
    stored.update((pk, reviewed[pk][1]) for pk in fresh)
    return stored


BATCH = 20  # the most deals one review task takes


def pending_from(deal_pk: int, most: int | None = None) -> list[int]:
    """The deal and the deals after it (by id) still waiting for their review, at most
    ``most`` (``BATCH``); empty when the deal itself is reviewed already (or gone). One
    query, on the index of the deals waiting for their review."""
    ids = Deal.objects.filter(review__isnull=True, pk__gte=deal_pk).order_by("pk")
    pending = list(ids.values_list("pk", flat=True)[: most or BATCH])
    return pending if pending[:1] == [deal_pk] else []


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
    """Store how each player of the deal could have set their cards (``Deal.review``).

    When the queue is long, the deals queued after this one are waiting too: up to
    ``BATCH`` of them are reviewed with it in one batch (``store_reviews``), and their own
    tasks find them reviewed and end after one query. A deal already reviewed is left
    alone (an edit clears the review, so a stored one is of the current version)."""
    pending = pending_from(deal_id)
    if pending:
        store_reviews(pending)


@shared_task(
    name="games.tasks.review_deals",
    ignore_result=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def review_deals(deal_ids: list[int]) -> None:
    """Review these deals in one batch (``store_reviews``), whatever their reviews now."""
    store_reviews(deal_ids)
