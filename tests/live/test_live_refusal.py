"""A hand the scorer refuses at the live table: only its own seat reads it whole, every
other seat and follower reads it with the cards hidden, and each in their own language;
the named seat, not the last to submit, is the one that fixes its hand."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from games.engine import ScoreError
from games.live import table
from games.live.consumers import said_again
from games.live.state import live_state, public_state
from games.models import LiveDeal, Session
from scorekeeper.asgi import application
from tests.live.helpers import hand, member, seat_actor

# Ann's front holds two cards: the cards the message must not show to anyone else.
SHORT = {**hand(1), "front": "Ac Kc"}
WHOLE = "Ann, front: 2 cards given (Ac Kc), the front row needs 3"
HIDDEN = "Ann, front: 2 cards given (…), the front row needs 3"


def _refused_at_the_last_submit(session: Session) -> ScoreError:
    table.open_live(session, seat_actor(session, 1))
    table.submit(session, 1, SHORT, seat_actor(session, 1))
    for seat in (2, 3):
        table.submit(session, seat, hand(seat), seat_actor(session, seat))
    with pytest.raises(ScoreError) as refused:
        table.submit(session, 4, hand(4), seat_actor(session, 4))
    return refused.value


@pytest.mark.django_db
def test_only_the_named_seat_reads_its_cards(session: Session) -> None:
    refused = _refused_at_the_last_submit(session)
    ann, di = (session.players.get(name=name).pk for name in ("Ann", "Di"))

    assert refused.message == HIDDEN  # Di submitted last and is told, without Ann's cards
    assert refused.field == "players[0].front"
    assert refused.code is not None and refused.code["args"]["cards"] == "…"
    with translation.override("en"):
        own, other, everyone = (
            live_state(session, ann),
            live_state(session, di),
            public_state(session),
        )
    assert own["live"]["you"]["refusal"] == WHOLE
    assert other["live"]["you"]["refusal"] is None
    for state in (own, other, everyone):
        assert state["live"]["message"] == HIDDEN
        assert "Kc" not in str(state) or state is own
    # Ann fixes her hand; Di's stays submitted and the deal is recorded at Ann's submit.
    assert own["live"]["you"]["submitted"] is False
    assert other["live"]["you"]["submitted"] is True
    recorded = table.submit(session, 1, hand(1), seat_actor(session, 1))
    assert recorded.status == LiveDeal.Status.RECORDED
    assert live_state(session, ann)["live"]["message"] is None


@pytest.mark.django_db
def test_each_reader_reads_the_refusal_in_their_language(session: Session) -> None:
    _refused_at_the_last_submit(session)
    ann = session.players.get(name="Ann").pk
    with translation.override("vi"):
        vietnamese = live_state(session, ann)["live"]
    with translation.override("zh-hans"):
        chinese = public_state(session)["live"]
    assert vietnamese["message"] == "Ann, chi đầu: có 2 lá (…), chi đầu cần 3 lá"
    assert vietnamese["you"]["refusal"] == "Ann, chi đầu: có 2 lá (Ac Kc), chi đầu cần 3 lá"
    assert chinese["message"] == "Ann，头道：给了 2 张（…），头道需要 3 张"
    assert chinese["message_code"]["code"] == "row_size"
    assert "Kc" not in str(chinese)
    # A state pushed in one language is said again in each socket's.
    again = said_again(public_state(session), "zh-hant")
    assert again["live"]["message"] == "Ann，頭道：給了 2 張（…），頭道需要 3 張"


@pytest.mark.django_db
def test_a_cancelled_deal_reads_in_each_readers_language(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    with translation.override("vi"):
        table.cancel(session, ann_user)
    with translation.override("en"):
        assert public_state(session)["live"]["message"] == "the deal in progress was cancelled"
    assert LiveDeal.objects.get(session=session).message == "the deal in progress was cancelled"
    with translation.override("vi"):
        assert public_state(session)["live"]["message"] != "the deal in progress was cancelled"


@pytest.mark.django_db(transaction=True)
def test_a_socket_hears_the_refusal_in_its_own_language(session: Session, ann_user: User) -> None:
    client = Client()
    client.force_login(ann_user)
    headers = [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}; django_language=vi".encode()),
    ]

    async def follow() -> dict[str, Any]:
        communicator = WebsocketCommunicator(
            application, f"/ws/sessions/{session.pk}/", headers=headers
        )
        connected, _ = await communicator.connect()
        assert connected
        with translation.override("zh-hans"):  # the last submit is made in Chinese
            await database_sync_to_async(_refused_at_the_last_submit)(session)
        heard = None
        while heard is None or not heard.get("state", {}).get("live", {}).get("message"):
            heard = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return heard

    heard = async_to_sync(follow)()
    assert heard["state"]["live"]["message"] == "Ann, chi đầu: có 2 lá (…), chi đầu cần 3 lá"
