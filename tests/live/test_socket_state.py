"""What the session WebSocket carries about the deal in progress: its public state with
every change (no seat's cards), and sockets closed when their right to listen ends while
they are open (a seat link revoked, a member removed from the group)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from games import services
from games.live import seat_links, table
from games.models import Membership, Player, Session
from tests.live.helpers import hand, member, seat_actor, seat_token
from tests.live.test_push import _headers, _open
from tests.services.hands import HANDS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("either_layer")]


def _seat_path(session: Session, seat: int) -> str:
    return f"/ws/sessions/{session.pk}/?seat={seat_token(session, seat)}"


def test_every_change_of_the_deal_carries_its_public_state(
    session: Session, ann_user: User
) -> None:
    def night() -> None:
        table.open_live(session, member(ann_user))
        table.save_draft(session, 2, hand(2), seat_actor(session, 2))
        for seat in (1, 2, 3, 4):
            table.submit(session, seat, hand(seat), seat_actor(session, seat))

    path = _seat_path(session, 1)

    async def follow() -> list[dict[str, Any]]:
        communicator, connected, _ = await _open(path, _headers(None))
        assert connected
        await database_sync_to_async(night)()
        heard = [await communicator.receive_json_from(timeout=5) for _ in range(7)]
        await communicator.disconnect()
        return heard

    heard = async_to_sync(follow)()

    lives = [m for m in heard if m["what"] == "live"]
    assert [m["what"] for m in heard].count("deals") == 1 and "state" not in heard[-2]
    assert len(lives) == 6 and all("state" in m for m in lives)
    states = [m["state"]["live"] for m in lives]
    assert [s["version"] for s in states] == sorted(s["version"] for s in states)
    assert [s["status"] for s in states] == ["open"] * 5 + ["recorded"]
    assert [s["state"] for s in states[1]["seats"]] == ["waiting", "entering", "waiting", "waiting"]
    assert [s["state"] for s in states[4]["seats"]] == ["submitted"] * 3 + ["waiting"]
    assert all(s["you"] is None for s in states)
    # Nobody's cards go to every follower: not one card of the four hands is in a message.
    text = json.dumps(heard)
    cards = {card for h in HANDS.values() for row in h.values() for card in row.split()}
    assert [card for card in cards if f'"{card}' in text or f" {card}" in text] == []
    deal = states[-1]["deal"]
    assert deal["units"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert deal["totals"] == deal["units"]
    assert lives[-1]["state"]["session"]["deals"] == 1


def test_revoking_a_link_closes_the_sockets_it_opened(session: Session, ann_user: User) -> None:
    bob_link = seat_links.make_links(session)[1]
    bob_path, cy_path = _seat_path(session, 2), _seat_path(session, 3)

    async def run() -> tuple[Any, Any]:
        bob, connected, _ = await _open(bob_path, _headers(None))
        cy, cy_connected, _ = await _open(cy_path, _headers(None))
        assert connected and cy_connected
        await database_sync_to_async(seat_links.revoke_link)(bob_link, ann_user)
        closed = await bob.receive_output(timeout=5)
        await database_sync_to_async(table.open_live)(session, member(ann_user))
        heard = await cy.receive_json_from(timeout=5)
        await cy.disconnect()
        return closed, heard

    closed, heard = async_to_sync(run)()

    assert closed == {"type": "websocket.close", "code": 4403}
    assert heard["what"] == "live"  # Cy's phone still follows


def test_a_member_removed_from_the_group_stops_hearing_it(
    session: Session, ann_user: User, bob_user: User, players: dict[str, Player]
) -> None:
    cy_user = User.objects.create_user("cy")
    services.add_member(session.group, cy_user, "member", by=ann_user)
    bob_membership = Membership.objects.get(group=session.group, user=bob_user)
    path = f"/ws/sessions/{session.pk}/"
    bob_headers, cy_headers = _headers(bob_user), _headers(cy_user)

    async def run() -> tuple[Any, Any]:
        bob, connected, _ = await _open(path, bob_headers)
        cy, cy_connected, _ = await _open(path, cy_headers)
        assert connected and cy_connected
        await database_sync_to_async(services.remove_member)(bob_membership, ann_user)
        closed = await bob.receive_output(timeout=5)
        assert await cy.receive_nothing(timeout=0.3)
        await cy.disconnect()
        return closed, None

    closed, _ = async_to_sync(run)()

    assert closed == {"type": "websocket.close", "code": 4403}


def test_a_write_through_the_api_is_announced_once_with_the_state_it_answered(
    session: Session, ann_user: User
) -> None:
    from rest_framework.test import APIClient

    def phone(seat: int) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_X_SEAT_TOKEN=seat_token(session, seat))
        return client

    base = f"/api/v1/sessions/{session.pk}/live/"
    path = _seat_path(session, 1)
    answers: list[Any] = []

    def writes() -> None:
        answers.append(phone(1).post(base))
        answers.append(phone(2).post(f"{base}seats/2/submit/", {"entry": hand(2)}, format="json"))
        clash = {**hand(3), "front": HANDS["B"]["front"]}  # Bob's cards
        answers.append(phone(3).post(f"{base}seats/3/submit/", {"entry": clash}, format="json"))

    async def follow() -> list[dict[str, Any]]:
        communicator, connected, _ = await _open(path, _headers(None))
        assert connected
        await database_sync_to_async(writes)()
        heard = [await communicator.receive_json_from(timeout=5) for _ in range(3)]
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
        return heard

    heard = async_to_sync(follow)()

    assert [a.status_code for a in answers] == [201, 200, 200]
    assert [m["what"] for m in heard] == ["live"] * 3
    for answer, message in zip(answers, heard, strict=True):
        assert message["state"]["live"] == {**answer.json()["live"], "you": None}
    # Both clashing hands are in: everyone hears that two seats clash (not the card).
    assert answers[2].json()["live"]["you"]["conflicts"][0]["player"] == "Bob"
    clashing = [s["conflict"] for s in heard[2]["state"]["live"]["seats"]]
    assert clashing == [False, True, True, False]


def test_a_draft_of_guessed_cards_tells_the_table_nothing(session: Session, ann_user: User) -> None:
    """Ann saves a draft holding every card of Bob's submitted hand: what the socket carries
    changes only in Ann's own line (now entering, with its count), never a clash or a card."""
    table.open_live(session, member(ann_user))
    table.submit(session, 2, hand(2), seat_actor(session, 2))
    guess = {"cards": " ".join(HANDS["B"].values())}
    path = _seat_path(session, 3)

    def guessed() -> None:
        table.save_draft(session, 1, guess, seat_actor(session, 1))

    async def follow() -> dict[str, Any]:
        communicator, connected, _ = await _open(path, _headers(None))
        assert connected
        await database_sync_to_async(guessed)()
        heard: dict[str, Any] = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return heard

    seats = async_to_sync(follow)()["state"]["live"]["seats"]

    assert [s["conflict"] for s in seats] == [False] * 4
    assert (seats[0]["state"], seats[0]["cards"]) == ("entering", 13)
    text = json.dumps(seats)
    assert [card for card in guess["cards"].split() if card in text] == []
