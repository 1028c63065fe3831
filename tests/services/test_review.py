"""Reviews of recorded deals: how each player could have set their cards.

The night is ``test_night``'s, hand-worked there. What the review adds can be bounded by
hand: in deal 5 Bob fouled hand B (-9); set as dealt, B wins +4 against that table (see
``hands.py``), so the best setting wins at least 4 and Bob missed at least 13.
"""

from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.engine import score_request
from games.engine.cards import parse_cards
from games.models import Deal, ReviewLine, Session
from games.services import reviews
from tests.services.hands import deal
from tests.services.test_night import play_the_night

D = Decimal
Capture = Callable[..., AbstractContextManager[list[Callable[[], Any]]]]


@pytest.fixture
def reviewed_night(
    session: Session,
    ann_user: User,
    bob_user: User,
    django_capture_on_commit_callbacks: Capture,
) -> Session:
    """The night, with the reviews each deal queues run as its transaction commits."""
    with django_capture_on_commit_callbacks(execute=True):
        play_the_night(session, ann_user, bob_user)
    return session


def player(review: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in review["players"] if p["name"] == name)
    return found


def test_every_deal_gets_a_review_of_its_current_version(reviewed_night: Session) -> None:
    for stored in reviewed_night.deals.all():
        assert stored.review is not None, stored.number
        assert stored.review["version"] == stored.version
        assert stored.review["reviewed"] is True
        assert [p["name"] for p in stored.review["players"]] == [
            p["name"] for p in stored.result["players"]
        ]


def test_the_best_setting_scores_what_the_review_says(reviewed_night: Session) -> None:
    """Never less than what was won, and legal: re-scored with the engine, the best setting
    gives the player exactly ``best_units`` (with the same cards, and no foul)."""
    checked = 0
    for stored in reviewed_night.deals.all():
        assert stored.review is not None
        won = {p["name"]: D(p["units"]) for p in stored.result["players"]}
        for line in stored.review["players"]:
            if not line["reviewed"]:
                continue
            name = line["name"]
            assert D(line["actual_units"]) == won[name], (stored.number, name)
            assert D(line["units_missed"]) >= 0
            assert D(line["best_units"]) - D(line["actual_units"]) == D(line["units_missed"])
            if line["declare"] is not None:
                continue
            players = [
                {"name": name, **line["best"]} if p["name"] == name else p
                for p in stored.request["players"]
            ]
            entered = next(p for p in stored.request["players"] if p["name"] == name)
            assert sorted(cards(line["best"])) == sorted(cards(entered))
            rescored = score_request({"rules": stored.rules, **stored.request, "players": players})
            mine = next(p for p in rescored["players"] if p["name"] == name)
            assert not mine["fouled"]
            assert D(mine["units"]) == D(line["best_units"]), (stored.number, name)
            checked += 1
    assert checked >= 30


def cards(rows: dict[str, Any]) -> list[int]:
    return [c for row in ("front", "middle", "back") for c in parse_cards(rows[row])]


def test_a_foul_is_reviewed_with_its_nearest_legal_setting(reviewed_night: Session) -> None:
    fifth = reviewed_night.deals.get(number=5).review
    assert fifth is not None
    bob = player(fifth, "Bob")

    assert D(bob["actual_units"]) == -9
    assert D(bob["best_units"]) >= 4  # hand B as dealt wins 4 here
    assert D(bob["units_missed"]) >= 13
    assert bob["nearest_legal"] is not None
    assert player(fifth, "Ann")["nearest_legal"] is None  # Ann's hand was legal


def test_a_surrender_without_cards_has_nothing_to_review(reviewed_night: Session) -> None:
    sixth = reviewed_night.deals.get(number=6).review
    assert sixth is not None

    assert player(sixth, "Di") == {
        "name": "Di",
        "reviewed": False,
        "reason": "surrendered without cards",
        "reason_code": {"code": "surrendered_without_cards", "args": {}},
    }


def test_review_lines_hold_each_players_units_missed(reviewed_night: Session) -> None:
    for stored in reviewed_night.deals.all():
        assert stored.review is not None
        lines = {
            line.player.name: line.units_missed
            for line in ReviewLine.objects.filter(deal=stored).select_related("player")
        }
        assert lines == {
            p["name"]: D(p["units_missed"]) for p in stored.review["players"] if p["reviewed"]
        }


def test_the_summary_adds_up_units_missed_over_active_deals(reviewed_night: Session) -> None:
    summary = reports.session_summary(reviewed_night)

    expected = dict.fromkeys(("Ann", "Bob", "Cy", "Di"), D(0))
    for stored in reviewed_night.deals.filter(status=Deal.Status.ACTIVE):
        assert stored.review is not None
        for line in stored.review["players"]:
            if line["reviewed"]:
                expected[line["name"]] += D(line["units_missed"])
    assert {p["name"]: p["units_missed"] for p in summary["players"]} == expected
    assert summary["reviewed_deals"] == 11  # deal 9 is void
    assert expected["Bob"] >= 13  # his foul alone


def test_an_edit_replaces_the_review(
    session: Session, bob_user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        first = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        edited = services.edit_deal(first, deal(Ann="B", Bob="A", Cy="C", Di="D"), bob_user)
    edited.refresh_from_db()
    assert edited.review is None  # pending until the queued review runs
    assert not edited.review_lines.exists()

    for callback in queued:
        callback()

    edited.refresh_from_db()
    assert edited.review is not None
    assert edited.review["version"] == 2
    assert player(edited.review, "Ann")["actual_units"] == "4"  # hand B, worked out in hands.py


def test_a_review_of_an_outdated_version_is_not_stored(
    session: Session, bob_user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    engine_review = reviews.review_request

    def edited_meanwhile(request: object) -> dict[str, Any]:
        Deal.objects.filter(pk=recorded.pk).update(version=2)
        return engine_review(request)

    monkeypatch.setattr(reviews, "review_request", edited_meanwhile)

    assert services.store_review(recorded.pk) is None
    recorded.refresh_from_db()
    assert recorded.review is None
    assert not recorded.review_lines.exists()
    assert services.store_review(0) is None  # a deal since deleted
