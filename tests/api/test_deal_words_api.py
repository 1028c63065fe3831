"""A stored deal's review and its earlier versions answer in the caller's language, as its
result does: each reason and each version's labels and foul reasons in the language of
``?lang=`` (else ``Accept-Language``), beside codes that are the same in every language."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Deal, Group, Player
from games.services.reviews import store_review
from tests.api.conftest import API
from tests.services.hands import deal, fouled

SURRENDERED = {"code": "surrendered_without_cards", "args": {}}
# Each language's words for Di's surrender and for hand A's back (three sevens).
WORDS = {
    "vi": ("đầu hàng, không lật bài", "Sám cô"),
    "zh-hans": ("投降，没有亮牌", "三条"),
}


@pytest.fixture
def corrected(as_bob: APIClient, group: Group, players: dict[str, Player]) -> str:
    """A deal Di surrendered, corrected once: Bob's hand fouled at first."""
    session = as_bob.post(
        f"{API}/sessions/",
        {"group": group.pk, "players": ["Ann", "Bob", "Cy", "Di"]},
        format="json",
    ).json()["id"]
    first = [*deal(Ann="A", Bob="B", Cy="C"), {"name": "Di", "surrender": True}]
    first[1].update(fouled("B"))
    url = f"{API}/sessions/{session}/deals/"
    number = as_bob.post(url, {"players": first}, format="json").json()["number"]
    again = [*deal(Ann="A", Bob="B", Cy="C"), {"name": "Di", "surrender": True}]
    edited = as_bob.put(f"{url}{number}/", {"players": again, "reason": "typo"}, format="json")
    assert edited.status_code == 200, edited.content
    # The review is queued to run once the answer has gone; here it runs now.
    assert store_review(edited.json()["id"]) is not None
    return f"{url}{number}/"


def read(client: APIClient, url: str, **how: Any) -> dict[str, Any]:
    response = client.get(url, **how)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def by_name(lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {line["name"]: line for line in lines}


@pytest.mark.parametrize(
    ("language", "how"),
    [("vi", {"data": {"lang": "vi"}}), ("zh-hans", {"HTTP_ACCEPT_LANGUAGE": "zh-CN,en;q=0.5"})],
)
def test_the_review_and_the_revisions_answer_in_the_callers_language(
    as_bob: APIClient, corrected: str, language: str, how: dict[str, Any]
) -> None:
    english = read(as_bob, corrected)
    said = read(as_bob, corrected, **how)
    surrender, trips = WORDS[language]

    review = by_name(said["review"]["players"])
    assert review["Di"]["reason"] == surrender
    assert review["Di"]["reason_code"] == SURRENDERED
    assert by_name(english["review"]["players"])["Di"]["reason"] == "surrendered without cards"
    # The reviewed players' numbers are the review's, untouched.
    assert review["Ann"] == by_name(english["review"]["players"])["Ann"]

    (revision,) = said["revisions"]
    (before,) = english["revisions"]
    assert revision["request"] == before["request"]
    ann = by_name(revision["result"]["players"])["Ann"]
    assert ann["rows"]["back"]["label"].startswith(trips)
    assert ann["rows"]["back"]["label_code"] == {"code": "trips", "args": {"rank": "7"}}
    bob, bob_before = (by_name(r["result"]["players"])["Bob"] for r in (revision, before))
    assert bob["foul_code"] == bob_before["foul_code"] is not None
    assert bob["foul_reason"] != bob_before["foul_reason"]
    assert by_name(before["result"]["players"])["Ann"]["rows"]["back"]["label"].startswith(
        "Three of a kind"
    )


def test_a_review_stored_before_the_codes_gets_them_and_its_words(
    as_bob: APIClient, corrected: str
) -> None:
    pk = read(as_bob, corrected)["id"]
    Deal.objects.filter(pk=pk).update(
        review={"reviewed": False, "reason": "big-two deals are not reviewed", "players": []}
    )
    review = read(as_bob, corrected, data={"lang": "vi"})["review"]
    assert review["reason_code"] == {"code": "not_reviewed_game", "args": {"game": "big-two"}}
    assert review["reason"].startswith("ván ") and review["reason"].endswith("không được xem lại")
    english = read(as_bob, corrected)["review"]
    assert english["reason"] == "big-two deals are not reviewed"  # as the engine wrote it
    assert english["reason_code"] == review["reason_code"]
