"""A review task takes a batch of deals when the queue is long: the reviews it
stores are those the one-deal path stores, deal for deal, line for line."""

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import F

from games import services
from games.engine.arrangement import review_request
from games.models import Deal, ReviewLine, Session
from games.services import reviews
from games.sitting_out import engine_request
from tests.services.hands import deal
from tests.services.test_night import play_the_night


@pytest.fixture
def night(session: Session, ann_user: User, bob_user: User) -> Session:
    """The hand-worked night, its deals not reviewed (no commit runs the reviews)."""
    play_the_night(session, ann_user, bob_user)
    assert not Deal.objects.filter(review__isnull=False).exists()
    return session


def stored() -> dict[int, Any]:
    lines: dict[int, list[Any]] = {}
    for line in ReviewLine.objects.order_by("deal_id", "player_id"):
        lines.setdefault(line.deal_id, []).append((line.player_id, line.units_missed))
    return {d.pk: (d.review, lines.get(d.pk, [])) for d in Deal.objects.order_by("pk")}


def forget() -> None:
    Deal.objects.update(review=None)
    ReviewLine.objects.all().delete()


def reference(deal_pk: int) -> Any:
    """What the review task stored before batches, worked out here on its own."""
    found = Deal.objects.select_related("session").get(pk=deal_pk)
    review = {
        **review_request(engine_request({"rules": found.rules, **found.request})),
        "version": found.version,
    }
    seated = found.session.seated()
    lines = sorted(
        (seated[p["name"]], Decimal(p["units_missed"])) for p in review["players"] if p["reviewed"]
    )
    return review, lines


def test_a_batch_stores_what_the_one_deal_path_stores(night: Session) -> None:
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    for pk in ids:
        services.store_review(pk)
    one_by_one = stored()
    forget()
    answers = reviews.store_reviews(ids)
    batched = stored()

    assert batched == one_by_one
    assert all(review is not None for review, _ in batched.values())
    assert {pk: reference(pk) for pk in ids} == {
        pk: (review, sorted(lines)) for pk, (review, lines) in batched.items()
    }
    assert answers == {pk: review for pk, (review, _) in batched.items()}


def test_a_batch_spans_sessions(
    night: Session, group: Any, players: Any, ann_user: User, bob_user: User
) -> None:
    # Another night, its players seated in another order: each deal's lines name its own.
    other = services.start_session(group, list(reversed(list(players.values()))), ann_user)
    services.record_deal(other, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    reviews.store_reviews(ids)
    assert {pk: (review, sorted(lines)) for pk, (review, lines) in stored().items()} == {
        pk: reference(pk) for pk in ids
    }


def test_a_deal_edited_meanwhile_keeps_no_stale_review(
    night: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    edited = ids[2]
    real = reviews.review_request
    calls = []

    def review_then_edit(request: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:  # the third deal is edited while the batch is reviewed
            Deal.objects.filter(pk=edited).update(version=F("version") + 1)
        return real(request)

    monkeypatch.setattr(reviews, "review_request", review_then_edit)
    answers = reviews.store_reviews(ids)

    assert answers[edited] is None
    assert Deal.objects.get(pk=edited).review is None
    assert not ReviewLine.objects.filter(deal_id=edited).exists()
    assert all(answers[pk] is not None for pk in ids if pk != edited)


def test_the_task_takes_the_deals_queued_after_its_own(
    night: Session, django_assert_num_queries: Any
) -> None:
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    assert len(ids) == 12

    reviews.review_deal(ids[3])  # deals 4 to 12 wait: one batch reviews them all

    pending = set(Deal.objects.filter(review__isnull=True).values_list("pk", flat=True))
    assert pending == set(ids[:3])
    for pk in ids[3:]:  # their own tasks find them reviewed, in one query each
        with django_assert_num_queries(1):
            reviews.review_deal(pk)
    reviews.review_deal(ids[0])
    assert not Deal.objects.filter(review__isnull=True).exists()


def test_a_task_takes_at_most_a_batch(night: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "BATCH", 5)
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    assert reviews.pending_from(ids[0]) == ids[:5]
    assert reviews.pending_from(ids[0], 3) == ids[:3]
    reviews.review_deal(ids[0])
    done = set(Deal.objects.filter(review__isnull=False).values_list("pk", flat=True))
    assert done == set(ids[:5])
    assert reviews.pending_from(ids[0]) == []  # reviewed: its task would do nothing


def test_the_batch_task_reviews_the_deals_it_is_given(night: Session) -> None:
    ids = list(Deal.objects.order_by("pk").values_list("pk", flat=True))
    reviews.review_deals(ids[::2])
    done = set(Deal.objects.filter(review__isnull=False).values_list("pk", flat=True))
    assert done == set(ids[::2])
