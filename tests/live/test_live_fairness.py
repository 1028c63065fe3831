"""No seat's hand leaves its seat before the showdown: a seat link is held by the phone
that opened it first, so a member shown every link reads nothing of another seat's draft
through it; the host reads a draft only by taking the seat over, which the phone is told;
a submit sent twice (a phone that lost the answer) is recorded once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Deal, LiveEntry, Session
from tests.api.conftest import client_for
from tests.live.helpers import hand, seat_token
from tests.services.hands import HANDS

pytestmark = pytest.mark.django_db


def phone(session: Session, seat: int, device: str = "") -> APIClient:
    """A phone holding seat ``seat``'s link; ``device``: its own secret, as the seat page
    sends it."""
    client = APIClient()
    headers = {"HTTP_X_SEAT_TOKEN": seat_token(session, seat)}
    if device:
        headers["HTTP_X_SEAT_DEVICE"] = device
    client.credentials(**headers)
    return client


def url(session: Session, rest: str = "") -> str:
    return f"/api/v1/sessions/{session.pk}/live/{rest}"


def put(client: APIClient, session: Session, seat: int, entry: Any) -> Any:
    return client.put(url(session, f"seats/{seat}/"), {"entry": entry}, format="json")


def submit(client: APIClient, session: Session, seat: int, entry: Any, key: str = "") -> Any:
    path = url(session, f"seats/{seat}/submit/")
    if not key:
        return client.post(path, {"entry": entry}, format="json")
    return client.post(path, {"entry": entry}, format="json", HTTP_IDEMPOTENCY_KEY=key)


def cards_of(seat_hand: dict[str, str]) -> set[str]:
    return {card for row in seat_hand.values() for card in row.split()}


def test_another_holder_of_the_link_reads_nothing_of_the_seat(
    session: Session, ann_user: User
) -> None:
    client_for(ann_user).post(url(session))
    di = phone(session, 4, device="di-phone")
    assert put(di, session, 4, hand(4)).status_code == 200  # Di's phone holds the seat
    # Ann, a member, was shown every seat link: she opens Di's on her own phone.
    snoop = phone(session, 4, device="ann-phone")
    bare = phone(session, 4)  # or through the API, with no device at all

    for other in (snoop, bare):
        read = other.get(url(session))
        assert read.status_code == 200
        assert read.json()["live"]["you"] is None
        assert "another phone" in read.json()["elsewhere"]
        assert not cards_of(HANDS["D"]) & set(json.dumps(read.json()).replace('"', " ").split())
        written = put(other, session, 4, hand(1))
        assert (written.status_code, written.json()["code"]) == (409, "seat_elsewhere")
        assert submit(other, session, 4, hand(4)).status_code == 409
    assert di.get(url(session)).json()["live"]["you"]["entry"] == hand(4)
    assert LiveEntry.objects.get(player__name="Di").entry == hand(4)


def test_the_host_frees_a_seat_for_a_new_phone(session: Session, bob_user: User) -> None:
    bob = client_for(bob_user)
    bob.post(url(session))
    old, new = phone(session, 2, device="old"), phone(session, 2, device="new")
    put(old, session, 2, hand(2))
    assert put(new, session, 2, hand(2)).status_code == 409

    freed = bob.post(url(session, "seats/2/release/"))
    taken = new.get(url(session))  # the first phone to come next holds the seat

    assert freed.status_code == 200
    assert taken.json()["live"]["you"]["entry"] == hand(2)
    assert old.get(url(session)).json()["live"]["you"] is None
    assert phone(session, 2, device="x").post(url(session, "seats/2/release/")).status_code == 403


def test_only_the_host_who_takes_a_seat_over_reads_its_draft(
    session: Session, bob_user: User
) -> None:
    bob = client_for(bob_user)
    bob.post(url(session))
    di = phone(session, 4, device="di")
    put(di, session, 4, {"front": HANDS["D"]["front"]})
    # Bob's own state shows his seat only, whatever the others typed.
    before = bob.get(url(session)).json()
    assert before["live"]["you"]["player"] == "Bob"
    assert HANDS["D"]["front"].split()[0] not in json.dumps(before)

    taken = bob.post(url(session, "seats/4/take-over/"))
    told = di.get(url(session)).json()["live"]

    assert taken.json()["taken"] == {"seat": 4, "entry": {"front": HANDS["D"]["front"]}}
    assert told["you"]["taken_over"] is True  # Di's phone knows the host has it
    assert [s["taken_over"] for s in told["seats"]] == [False, False, False, True]


def test_a_submit_sent_twice_with_its_key_is_recorded_once(
    session: Session, ann_user: User
) -> None:
    client_for(ann_user).post(url(session))
    for seat in (1, 2, 3):
        submit(phone(session, seat), session, seat, hand(seat), key=f"k{seat}")
    di = phone(session, 4, device="di")

    first = submit(di, session, 4, hand(4), key="di-submit-1")
    again = submit(di, session, 4, hand(4), key="di-submit-1")  # the answer was lost
    ann_again = submit(phone(session, 1), session, 1, hand(1), key="k1")
    other_key = submit(di, session, 4, hand(4), key="di-submit-2")

    assert first.status_code == again.status_code == ann_again.status_code == 200
    assert again.json()["live"]["status"] == "recorded"
    assert again.json()["live"]["deal"]["number"] == 1
    assert Deal.objects.filter(session=session).count() == 1
    assert other_key.status_code == 409  # a new submit: no deal in progress now
    too_long = submit(di, session, 4, hand(4), key="k" * 101)
    assert too_long.status_code == 400


def test_a_replayed_submit_does_not_undo_a_withdrawal(session: Session, ann_user: User) -> None:
    client_for(ann_user).post(url(session))
    ann = phone(session, 1, device="ann")
    submit(ann, session, 1, hand(1), key="once")
    ann.post(url(session, "seats/1/withdraw/"))

    late = submit(ann, session, 1, hand(1), key="once")  # a copy that arrived late

    assert late.status_code == 200
    assert late.json()["live"]["you"]["submitted"] is False
