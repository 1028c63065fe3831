"""Two review batches of one deal at once (PostgreSQL): the second waits for the first's
lock, then drops the lines the first committed meanwhile instead of colliding with them."""

import threading
import time
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import connection, transaction

from games import services
from games.models import Deal, Player, ReviewLine, Session
from games.services import reviews
from tests.services.hands import deal
from tests.services.test_concurrency import POSTGRES_ONLY

pytestmark = POSTGRES_ONLY


def test_a_batch_that_waited_for_a_lock_sees_the_lines_stored_meanwhile(
    session: Session, players: dict[str, Player], ann_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    pk = recorded.pk if isinstance(recorded, Deal) else recorded.deal.pk
    # The commit reviewed it already (tasks run eagerly): start from no review.
    ReviewLine.objects.filter(deal_id=pk).delete()
    Deal.objects.filter(pk=pk).update(review=None)
    locked, release = threading.Event(), threading.Event()

    def other_batch() -> None:
        # Holds the deal's row lock and commits a review line while the batch waits.
        try:
            with transaction.atomic():
                Deal.objects.select_for_update().get(pk=pk)
                locked.set()
                release.wait(10)
                ReviewLine.objects.create(
                    deal_id=pk, player=players["Ann"], units_missed=Decimal("9")
                )
        finally:
            connection.close()

    thread = threading.Thread(target=other_batch)
    thread.start()
    assert locked.wait(10)
    threading.Timer(0.5, release.set).start()
    started = time.monotonic()
    stored = reviews.store_reviews([pk])
    thread.join(10)

    assert time.monotonic() - started >= 0.4  # it did wait for the other lock
    review = stored[pk]
    assert review is not None
    lines = dict(ReviewLine.objects.filter(deal_id=pk).values_list("player__name", "units_missed"))
    expected = {p["name"]: Decimal(p["units_missed"]) for p in review["players"] if p["reviewed"]}
    assert lines == expected
