"""A seat's entry checked as it is typed (``POST .../live/seats/{seat}/check/``): the hand
names, progress and foul of that one seat, for whoever may save its draft, telling nothing
of any other seat and writing nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import LiveDeal, LiveEntry, Session
from tests.api.conftest import client_for
from tests.live.helpers import hand
from tests.live.test_live_api import phone, put, url
from tests.services.hands import HANDS

pytestmark = pytest.mark.django_db

# Kings in front over threes in the middle: three complete rows that foul.
KINGS_OVER_THREES = {"front": "Kc Kd 2h", "middle": "3c 3d 4h 5s 7d", "back": "Ac Ad As 9c 9d"}
SIX_PAIRS = " ".join(HANDS["D"].values())  # Di's 13 cards: AA KK QQ JJ 99 33


def check(client: APIClient, session: Session, seat: int, entry: Any, **extra: Any) -> Any:
    return client.post(
        url(session, f"seats/{seat}/check/"), {"entry": entry}, format="json", **extra
    )


def labels(answer: dict[str, Any]) -> dict[str, str]:
    return {row: told["label"] for row, told in answer["rows"].items()}


def test_each_row_is_named(session: Session) -> None:
    answer = check(phone(session, 1), session, 1, hand(1))

    assert answer.status_code == 200
    body = answer.json()
    assert (body["seat"], body["player"]) == (1, "Ann")
    assert labels(body) == {
        "front": "Ace high, K 3 kickers",
        "middle": "Pair of Fours, Q J 9 kickers",
        "back": "Three of a kind, Sevens",
    }
    assert [card["text"] for card in body["rows"]["front"]["cards"]] == ["Ac", "Kc", "3d"]
    assert body["rows"]["front"]["cards"][0] == {
        "rank": "A",
        "suit": "♣",
        "red": False,
        "text": "Ac",
    }
    assert (body["foul"], body["natural"], body["surrender"]) == ("", None, False)


def test_kings_in_front_over_threes_in_the_middle_foul_with_the_reason(session: Session) -> None:
    body = check(phone(session, 1), session, 1, KINGS_OVER_THREES).json()

    assert (
        body["foul"] == "front Pair of Kings, 2 kicker beats middle Pair of Threes, 7 5 4 kickers"
    )
    assert labels(body)["back"] == "Full house, Aces over Nines"


def test_a_row_being_filled_says_how_far(session: Session) -> None:
    body = check(phone(session, 1), session, 1, {"front": "Kc Kd", "middle": "3c 3d"}).json()

    assert [body["rows"][row]["progress"] for row in ("front", "middle", "back")] == [
        "2 of 3",
        "2 of 5",
        "",
    ]
    assert labels(body) == {"front": "", "middle": "", "back": ""}
    assert body["foul"] == ""


def test_a_card_typed_wrong_or_twice_is_told(session: Session) -> None:
    body = check(phone(session, 1), session, 1, {"front": "Kc Kc Kd", "middle": "3c 3d Zz"}).json()

    assert body["rows"]["front"]["duplicate"] == "Kc is also in this front row"
    assert body["rows"]["middle"]["error"]


def test_a_declared_natural_is_named_and_laid_out(session: Session) -> None:
    entry = {"cards": SIX_PAIRS, "natural": "six_pairs"}

    body = check(phone(session, 4), session, 4, entry).json()
    vietnamese = check(phone(session, 4), session, 4, entry, HTTP_ACCEPT_LANGUAGE="vi").json()

    assert body["natural"] == {"code": "six_pairs", "name": "six pairs"}
    assert all(labels(body).values())  # the 13 cards laid out in rows, each named
    assert body["foul"] == ""
    assert vietnamese["natural"]["name"] == "lục phé bôn"


def test_a_surrender_is_declared_and_never_fouls(session: Session) -> None:
    alone = check(phone(session, 1), session, 1, {"surrender": True}).json()
    with_rows = check(phone(session, 1), session, 1, {**KINGS_OVER_THREES, "surrender": True})

    assert (alone["surrender"], alone["foul"]) == (True, "")
    assert (with_rows.json()["surrender"], with_rows.json()["foul"]) == (True, "")


def test_a_hand_not_shown_is_declared_and_its_rows_never_foul(session: Session) -> None:
    body = check(phone(session, 1), session, 1, {**KINGS_OVER_THREES, "fouled": True}).json()

    assert (body["not_shown"], body["foul"]) == (True, "")


def test_who_may_check_is_who_may_save_the_draft(
    session: Session, bob_user: User, stranger: User
) -> None:
    other_seat = check(phone(session, 1), session, 2, hand(2))
    member = check(client_for(bob_user), session, 4, hand(4))
    no_seat = check(client_for(bob_user), session, 9, hand(4))

    assert (other_seat.status_code, other_seat.json()["error"]) == (
        403,
        "this seat link is for Ann's seat",
    )
    assert member.status_code == 200 and member.json()["player"] == "Di"
    assert no_seat.status_code == 404  # a path naming no seat, as any other object
    assert check(client_for(stranger), session, 1, hand(1)).status_code == 404
    assert check(APIClient(), session, 1, hand(1)).status_code in (401, 403)


def test_an_entry_the_draft_would_refuse_is_refused(session: Session) -> None:
    unknown = check(phone(session, 1), session, 1, {"front": "Kc Kd 2h", "name": "Bob"})
    not_text = check(phone(session, 1), session, 1, {"front": 7})

    assert (unknown.status_code, unknown.json()["field"]) == (400, "entry")
    assert (not_text.status_code, not_text.json()["field"]) == (400, "entry.front")


def test_no_other_seats_cards_even_when_they_share_a_card(session: Session, ann_user: User) -> None:
    client_for(ann_user).post(url(session))
    mine = {**hand(1), "front": "2c Kc 3d"}  # 2c is in Bob's front
    before = check(phone(session, 1), session, 1, mine).json()

    put(phone(session, 2), session, 2, hand(2))
    after = check(phone(session, 1), session, 1, mine).json()

    assert after == before
    text = json.dumps(after)
    assert "Bob" not in text
    bobs_other_cards = set(" ".join(hand(2).values()).split()) - {"2c"}
    assert not any(f'"{card}"' in text for card in bobs_other_cards)
    assert after["rows"]["front"]["duplicate"] == ""


def test_a_check_writes_nothing(session: Session, ann_user: User) -> None:
    client_for(ann_user).post(url(session))
    put(phone(session, 1), session, 1, {"front": "Ac Kc"})
    live = LiveDeal.objects.get(session=session)
    entries = list(LiveEntry.objects.filter(live_deal=live).order_by("pk").values())

    answers = [
        check(phone(session, 1), session, 1, hand(1)),
        check(phone(session, 1), session, 1, KINGS_OVER_THREES),
        check(client_for(ann_user), session, 3, hand(3)),
    ]

    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert list(LiveEntry.objects.filter(live_deal=live).order_by("pk").values()) == entries
    assert LiveDeal.objects.get(pk=live.pk).version == live.version


def test_a_check_needs_no_deal_in_progress(session: Session) -> None:
    answer = check(phone(session, 2), session, 2, hand(2))

    assert answer.status_code == 200
    assert not session.live_deals.exists()
