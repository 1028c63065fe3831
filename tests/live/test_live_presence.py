"""The host's view of each seat's phone: not opened, here, or gone (and for how long), told
to every follower as it changes; and a nudge that reaches the seat's phone at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.utils import timezone

from games.live import table
from games.live.state import public_state
from games.models import SeatLink, Session
from tests.live.helpers import member, seat_token
from tests.live.test_push import _headers, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("either_layer")]


def _phone_path(session: Session, seat: int, device: str) -> str:
    return f"/ws/sessions/{session.pk}/?seat={seat_token(session, seat)}&device={device}"


def _phones(session: Session) -> list[tuple[str, Any]]:
    seats = public_state(session)["live"]["seats"]
    return [(s["phone"], s["quiet"]) for s in seats]


def test_the_host_sees_a_phone_come_and_go(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    seen: list[list[tuple[str, Any]]] = []
    di_path, host_headers = _phone_path(session, 4, "di-phone"), _headers(ann_user)

    async def night() -> list[dict[str, Any]]:
        host, connected, _ = await _open(f"/ws/sessions/{session.pk}/", host_headers)
        assert connected
        di, di_connected, _ = await _open(di_path, _headers(None))
        assert di_connected
        came = await host.receive_json_from(timeout=5)
        seen.append(await database_sync_to_async(_phones)(session))
        await di.send_json_to({"type": "ping"})
        while (answer := await di.receive_json_from(timeout=5))["type"] != "pong":
            assert answer["type"] == "changed"  # its own arrival, told to every follower
        await di.disconnect()
        went = await host.receive_json_from(timeout=5)
        seen.append(await database_sync_to_async(_phones)(session))
        await host.disconnect()
        return [came, went]

    came, went = async_to_sync(night)()

    assert [s["phone"] for s in came["state"]["live"]["seats"]] == ["none"] * 3 + ["online"]
    assert [s["phone"] for s in went["state"]["live"]["seats"]] == ["none"] * 3 + ["offline"]
    assert seen[0][3] == ("online", 0) and seen[1][3][0] == "offline"


def test_a_phone_silent_for_long_counts_as_offline(session: Session, ann_user: User) -> None:
    table.open_live(session, member(ann_user))
    link = SeatLink.objects.get(session=session, player__name="Cy", revoked_at=None)
    SeatLink.objects.filter(pk=link.pk).update(seen_at=timezone.now() - timedelta(seconds=45))

    cy = _phones(session)[2]

    assert cy[0] == "offline" and 45 <= cy[1] < 50


def test_a_socket_without_the_phone_that_holds_the_seat_is_not_its_presence(
    session: Session, ann_user: User
) -> None:
    table.open_live(session, member(ann_user))
    paths = [_phone_path(session, 2, "bob-phone"), _phone_path(session, 2, "someone-else")]

    async def night() -> None:
        owner, ok, _ = await _open(paths[0], _headers(None))
        assert ok
        other, ok2, _ = await _open(paths[1], _headers(None))
        assert ok2  # it may follow the table, as anyone with the link
        await owner.disconnect()
        await other.send_json_to({"type": "ping"})
        while (await other.receive_json_from(timeout=5))["type"] != "pong":
            pass
        await other.disconnect()

    async_to_sync(night)()

    assert _phones(session)[1][0] == "offline"


def test_the_host_nudges_a_seat(session: Session, ann_user: User, bob_user: User) -> None:
    table.open_live(session, member(ann_user))
    di_path = _phone_path(session, 4, "di")

    async def night() -> dict[str, Any]:
        di, connected, _ = await _open(di_path, _headers(None))
        assert connected
        await database_sync_to_async(table.nudge)(session, 4, bob_user)
        while True:
            message = await di.receive_json_from(timeout=5)
            if message["type"] == "nudge":
                await di.disconnect()
                return message

    assert async_to_sync(night)() == {"type": "nudge", "seat": 4}
