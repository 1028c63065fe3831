"""Who deals: the button moves to the next seat after the previous deal's dealer; a dealer
given is recorded; an edit keeps or changes it (games.services.dealers)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.errors import ServiceError
from games.models import Deal, Session
from games.services.dealers import next_dealer
from tests.services.hands import deal

NAMES = ("Ann", "Bob", "Cy", "Di")
FOUR = {"Ann": "A", "Bob": "B", "Cy": "C", "Di": "D"}


@pytest.mark.parametrize(
    ("last", "playing", "expected"),
    [
        (None, None, 1),  # the first deal: seat 1
        ((1, 1), None, 2),
        ((7, 4), None, 1),  # round the table
        ((3, 2), {1, 2, 4}, 4),  # seat 3 sits out: the button goes on to seat 4
        ((3, 4), {2, 3}, 2),
        ((5, None), None, 2),  # after 5 deals without dealers, as if from seat 1: the sixth
        ((4, None), None, 1),
    ],
)
def test_next_dealer_table(
    last: tuple[int, int | None] | None, playing: set[int] | None, expected: int
) -> None:
    assert next_dealer([1, 2, 3, 4], last, playing) == expected


def test_the_first_deal_is_dealt_by_the_first_seat_then_the_button_moves(
    session: Session, ann_user: User
) -> None:
    dealers = [services.record_deal(session, deal(**FOUR), ann_user).dealer for _ in range(5)]

    assert dealers == [1, 2, 3, 4, 1]


def test_a_player_sitting_out_does_not_deal_and_a_void_deal_counts(
    session: Session, ann_user: User
) -> None:
    first = services.record_deal(session, deal(**FOUR), ann_user)  # Ann deals
    services.void_deal(first, ann_user, "misdeal")
    second = services.record_deal(session, deal(**FOUR), ann_user)
    third = services.record_deal(session, deal(Ann="A", Bob="B", Di="D", sat_out=("Cy",)), ann_user)

    assert (second.dealer, third.dealer) == (2, 4)


def test_a_dealer_given_is_recorded_and_the_button_moves_on_from_there(
    session: Session, ann_user: User
) -> None:
    given_one = services.record_deal(session, deal(**FOUR), ann_user, dealer="Cy")
    after = services.record_deal(session, deal(**FOUR), ann_user)

    assert (given_one.dealer, after.dealer) == (3, 4)
    assert services.upcoming_dealer(session) == "Ann"


def test_a_dealer_who_is_not_seated_is_refused_with_nothing_stored(
    session: Session, ann_user: User
) -> None:
    with pytest.raises(ServiceError) as refused:
        services.record_deal(session, deal(**FOUR), ann_user, dealer="Eve")

    assert refused.value.field == "dealer"
    assert not session.deals.exists()


def test_an_edit_keeps_the_dealer_or_changes_it(session: Session, ann_user: User) -> None:
    recorded = services.record_deal(session, deal(**FOUR), ann_user, dealer="Bob")
    kept = services.edit_deal(recorded, deal(Ann="B", Bob="A", Cy="C", Di="D"), ann_user)
    assert kept.dealer == 2

    changed = services.edit_deal(kept, deal(**FOUR), ann_user, "wrong dealer", dealer="Di")
    assert Deal.objects.get(pk=changed.pk).dealer == 4
    assert services.upcoming_dealer(session) == "Ann"


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(st.one_of(st.none(), st.sampled_from(NAMES)), min_size=1, max_size=8))
def test_the_default_is_always_the_seat_after_the_previous_dealer(
    session: Session, ann_user: User, given_dealers: list[str | None]
) -> None:
    Deal.objects.filter(session=session).delete()
    Session.objects.filter(pk=session.pk).update(last_deal_number=0)
    session.refresh_from_db()
    previous: int | None = None
    for dealer in given_dealers:
        recorded = services.record_deal(session, deal(**FOUR), ann_user, dealer=dealer)
        if dealer is not None:
            assert recorded.dealer == NAMES.index(dealer) + 1
        elif previous is None:
            assert recorded.dealer == 1
        else:
            assert recorded.dealer == previous % 4 + 1
        previous = recorded.dealer
