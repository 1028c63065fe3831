"""Frames the session socket does not take (not JSON, binary, not a ping) are answered with
an error, logged once at WARNING per socket, and never raise; a socket that keeps sending
them is closed with 4400."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from games.models import Session
from tests.live.helpers import seat_token
from tests.live.test_push import _headers, _open

pytestmark = pytest.mark.django_db(transaction=True)

BAD: list[dict[str, Any]] = [
    {"text_data": "{not json"},
    {"bytes_data": b"\x00\x01"},
    {"text_data": "[1, 2]"},
    {"text_data": '{"type": "deal", "cards": "As Ks"}'},
    {"text_data": '"ping"'},
]


def _path(session: Session) -> str:
    return f"/ws/sessions/{session.pk}/?seat={seat_token(session, 1)}"


def test_a_malformed_frame_is_answered_not_raised(
    session: Session, caplog: pytest.LogCaptureFixture
) -> None:
    path = _path(session)

    async def talk() -> list[Any]:
        socket, connected, _ = await _open(path, _headers(None))
        assert connected
        answers = []
        for frame in BAD:
            await socket.send_to(**frame)
            answers.append(await socket.receive_json_from(timeout=5))
        await socket.send_json_to({"type": "ping"})
        answers.append(await socket.receive_json_from(timeout=5))
        await socket.disconnect()
        return answers

    with caplog.at_level(logging.WARNING, logger="games.live.consumers"):
        answers = async_to_sync(talk)()

    assert [a["type"] for a in answers] == ["error"] * len(BAD) + ["pong"]
    assert "not JSON" in answers[0]["error"] and "text" in answers[1]["error"]
    refused = [r for r in caplog.records if r.name == "games.live.consumers"]
    assert [(r.levelname, r.exc_info) for r in refused] == [("WARNING", None)]


def test_a_socket_that_keeps_sending_them_is_closed(session: Session) -> None:
    path = _path(session)

    async def flood() -> Any:
        socket, connected, _ = await _open(path, _headers(None))
        assert connected
        for _ in range(20):
            await socket.send_to(text_data="nonsense")
            assert (await socket.receive_json_from(timeout=5))["type"] == "error"
        await socket.send_to(text_data="nonsense")
        return await socket.receive_output(timeout=5)

    assert async_to_sync(flood)() == {"type": "websocket.close", "code": 4400}
