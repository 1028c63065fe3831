"""The live table's announcements through the Redis channel layer (production's), as the
phones of a seat link and of a member hear them."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth.models import User

from games.live import table
from games.models import Session
from tests.live.helpers import hand, member, seat_actor, seat_token
from tests.live.test_push import _headers, _open

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_seat_and_a_member_hear_the_deal_through_redis(
    redis_layer: None, session: Session, ann_user: User
) -> None:
    seat_path = f"/ws/sessions/{session.pk}/?seat={seat_token(session, 3)}"
    member_path = f"/ws/sessions/{session.pk}/"
    nobody, ann = _headers(None), _headers(ann_user)

    def night() -> None:
        table.open_live(session, member(ann_user))
        for seat in (1, 2, 3, 4):
            table.submit(session, seat, hand(seat), seat_actor(session, seat))

    async def follow() -> list[list[Any]]:
        phone, phone_ok, _ = await _open(seat_path, nobody)
        host, host_ok, _ = await _open(member_path, ann)
        assert phone_ok and host_ok
        await database_sync_to_async(night)()
        heard = []
        for communicator in (phone, host):
            messages = [await communicator.receive_json_from(timeout=5) for _ in range(6)]
            heard.append([message["what"] for message in messages])
            await communicator.disconnect()
        return heard

    expected = ["live", "live", "live", "live", "deals", "live"]
    assert async_to_sync(follow)() == [expected, expected]
