"""Reviews: how each player of a deal could have set their cards, worked out after it is
recorded (in the background with a broker, at the commit without one) and stored with it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction

from games.engine import ScoreError
from games.engine.arrangement import review_request
from games.lib.after_response import after_response
from games.models import Deal, ReviewLine, SessionSeat
from games.sitting_out import engine_request

log = logging.getLogger(__name__)


def review_after_commit(deal: Deal) -> None:
    """Queue the deal's review for when its transaction commits. With a broker it is sent
    once the response has gone out (``games.lib.after_response``); run eagerly (no broker) it
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
    """``store_review`` for several deals at once: the deals (the columns the review needs)
    and their seats read in two queries, each reviewed by the engine, and every review with
    its lines written in one transaction (the deals locked in id order, so that two batches
    never wait on each other in a circle). A review is stored only if its deal is still at
    the version reviewed. Answers each deal's review, None for a deal gone, edited
    meanwhile, or whose stored request the engine refuses (logged)."""
    deals = Deal.objects.filter(pk__in=deal_pks).order_by("pk")
    rows = list(deals.values_list("pk", "session_id", "version", "rules", "request"))
    seats: dict[int, dict[str, int]] = {}
    seated = SessionSeat.objects.filter(session_id__in={row[1] for row in rows})
    for session_id, name, player_id in seated.values_list("session_id", "name", "player_id"):
        seats.setdefault(session_id, {})[name] = player_id
    reviewed: dict[int, tuple[int, int, dict[str, Any]]] = {}
    for pk, session_id, version, rules, request in rows:
        # Who sat out is not reviewed.
        try:
            review = review_request(engine_request({"rules": rules, **request}))
        except ScoreError as exc:
            log.error("deal %s cannot be reviewed: %s", pk, exc)
        else:
            reviewed[pk] = session_id, version, {**review, "version": version}
    stored: dict[int, dict[str, Any] | None] = dict.fromkeys(deal_pks)
    if not reviewed:
        return stored
    with transaction.atomic():
        if connection.vendor == "postgresql":
            fresh = _write_reviews_pg(reviewed)
        else:
            fresh = _write_reviews(reviewed)
        ReviewLine.objects.bulk_create(
            ReviewLine(
                deal_id=pk,
                player_id=seats[reviewed[pk][0]][player["name"]],
                units_missed=Decimal(player["units_missed"]),
            )
            for pk in fresh
            for player in reviewed[pk][2]["players"]
            if player["reviewed"]
        )
    stored.update((pk, reviewed[pk][2]) for pk in fresh)
    return stored


def _write_reviews(reviewed: dict[int, tuple[int, int, dict[str, Any]]]) -> list[int]:
    """Store the reviews of the deals still at the version reviewed and drop their old
    review lines; answers those deals' ids (in a transaction)."""
    locked = Deal.objects.select_for_update().filter(pk__in=reviewed).order_by("pk")
    current = dict(locked.values_list("pk", "version"))
    fresh = [pk for pk, (_, version, _) in reviewed.items() if current.get(pk) == version]
    Deal.objects.bulk_update(
        [Deal(pk=pk, review=reviewed[pk][2]) for pk in fresh], ["review"], batch_size=100
    )
    ReviewLine.objects.filter(deal_id__in=fresh).delete()
    return fresh


# The batch's deals locked in id order first, in a statement of their own: a statement
# that waited for a lock still reads from the snapshot it began with, so the review lines
# another batch committed meanwhile would be missed and the insert would collide with them.
_LOCK_DEALS = f"SELECT id FROM {Deal._meta.db_table} WHERE id = ANY(%(ids)s) ORDER BY id FOR UPDATE"
# Then one statement: store each review where the deal is still at the version reviewed,
# drop those deals' old review lines.
_WRITE_REVIEWS = f"""
WITH stored AS (
    UPDATE {Deal._meta.db_table} AS deal SET review = given.review::jsonb
    FROM unnest(%(ids)s::bigint[], %(versions)s::integer[], %(reviews)s::text[])
        AS given (id, version, review)
    WHERE deal.id = given.id AND deal.version = given.version
    RETURNING deal.id
), dropped AS (
    DELETE FROM {ReviewLine._meta.db_table} WHERE deal_id IN (SELECT id FROM stored)
)
SELECT id FROM stored ORDER BY id
"""


def _write_reviews_pg(reviewed: dict[int, tuple[int, int, dict[str, Any]]]) -> list[int]:
    """``_write_reviews`` in two statements (the lock, then the writes), each review
    encoded once as JSON, as the field would (its encoder)."""
    encoder = Deal._meta.get_field("review").encoder
    ids = list(reviewed)
    params: dict[str, Any] = {
        "ids": ids,
        "versions": [reviewed[pk][1] for pk in ids],
        "reviews": [json.dumps(reviewed[pk][2], cls=encoder) for pk in ids],
    }
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_DEALS, {"ids": ids})
        cursor.execute(_WRITE_REVIEWS, params)
        return [pk for (pk,) in cursor.fetchall()]


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
