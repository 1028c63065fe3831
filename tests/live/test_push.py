"""The session WebSocket (games.live.consumers) through the whole ASGI application: who may
follow a session, and the announcement a recorded deal sends to everyone following it."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, Session
from scorekeeper.asgi import application
from tests.services.hands import deal

DEAL_1 = deal(Ann="A", Bob="B", Cy="C", Di="D")

pytestmark = pytest.mark.django_db(transaction=True)


def _headers(user: User | None, origin: str = "http://localhost") -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return headers


async def _open(path: str, headers: list[tuple[bytes, bytes]]) -> Any:
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


def test_a_member_hears_every_deal_recorded(
    session: Session, ann_user: User, players: dict[str, Player]
) -> None:
    headers = _headers(ann_user)

    async def follow() -> dict[str, Any]:
        communicator, connected, _ = await _open(f"/ws/sessions/{session.pk}/", headers)
        assert connected
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.record_deal)(session, DEAL_1, ann_user)
        message = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return message

    assert async_to_sync(follow)() == {"type": "changed", "what": "deals"}


@pytest.mark.parametrize(
    ("who", "path", "origin", "code"),
    [
        ("stranger", "/ws/sessions/{pk}/", "http://localhost", 4403),
        ("nobody", "/ws/sessions/{pk}/", "http://localhost", 4403),
        ("ann", "/ws/sessions/999999/", "http://localhost", 4404),
    ],
)
def test_who_may_not_follow(
    session: Session,
    ann_user: User,
    stranger: User,
    who: str,
    path: str,
    origin: str,
    code: int,
) -> None:
    headers = _headers({"stranger": stranger, "nobody": None, "ann": ann_user}[who], origin)

    async def attempt() -> tuple[bool, int | None]:
        communicator, connected, close_code = await _open(path.format(pk=session.pk), headers)
        await communicator.disconnect()
        return connected, close_code

    assert async_to_sync(attempt)() == (False, code)


def test_another_origin_is_refused(session: Session, ann_user: User) -> None:
    headers = _headers(ann_user, origin="http://evil.example")

    async def attempt() -> bool:
        communicator, connected, _ = await _open(f"/ws/sessions/{session.pk}/", headers)
        await communicator.disconnect()
        return bool(connected)

    assert async_to_sync(attempt)() is False


def test_group_of_another_session_hears_nothing(
    group: Group, session: Session, ann_user: User, players: dict[str, Player]
) -> None:
    other = services.start_session(group, [players["Ann"], players["Bob"]], ann_user)
    headers = _headers(ann_user)

    async def follow() -> bool:
        communicator, connected, _ = await _open(f"/ws/sessions/{other.pk}/", headers)
        assert connected
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.record_deal)(session, DEAL_1, ann_user)
        nothing = await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
        return bool(nothing)

    assert async_to_sync(follow)() is True
