"""The live table over the session WebSocket: who may follow with a seat link, the
announcements in the order of the writes, and one deal recorded when the last two seats
submit at the same moment."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.db import connection

from games import services
from games.models import Deal, Group, Player, Session
from games.services import live, seat_links
from tests.live.helpers import hand, member, seat_actor, seat_token
from tests.live.test_push import _headers, _open

pytestmark = pytest.mark.django_db(transaction=True)


def _attempt(path: str) -> tuple[bool, int | None]:
    async def attempt() -> tuple[bool, int | None]:
        communicator, connected, code = await _open(path, _headers(None))
        await communicator.disconnect()
        return bool(connected), None if connected else code

    return async_to_sync(attempt)()


def test_a_seat_link_follows_its_session_only(
    group: Group, session: Session, players: dict[str, Player], ann_user: User
) -> None:
    other = services.start_session(group, [players["Ann"], players["Bob"]], ann_user)
    mine, theirs = seat_token(session, 2), seat_token(other, 1)
    revoked = seat_links.make_links(session)[3]
    seat_links.revoke_link(revoked, by=ann_user)

    assert _attempt(f"/ws/sessions/{session.pk}/?seat={mine}") == (True, None)
    assert _attempt(f"/ws/sessions/{session.pk}/?seat={theirs}") == (False, 4403)
    assert _attempt(f"/ws/sessions/{session.pk}/?seat={seat_links.token_for(revoked)}") == (
        False,
        4403,
    )
    assert _attempt(f"/ws/sessions/{session.pk}/?seat={mine[:-3]}") == (False, 4403)
    services.close_session(session, ann_user)
    assert _attempt(f"/ws/sessions/{session.pk}/?seat={mine}") == (False, 4403)


def _follow(session: Session, writes: Callable[[], Any], expected: int) -> list[str]:
    """What a seat's phone hears while ``writes`` run: the ``what`` of each message."""
    path = f"/ws/sessions/{session.pk}/?seat={seat_token(session, 1)}"

    async def follow() -> list[str]:
        communicator, connected, _ = await _open(path, _headers(None))
        assert connected
        await database_sync_to_async(writes)()
        heard = [(await communicator.receive_json_from(timeout=5)) for _ in range(expected)]
        assert await communicator.receive_nothing(timeout=0.3)
        await communicator.disconnect()
        return [message["what"] for message in heard]

    return async_to_sync(follow)()


def test_announcements_arrive_in_the_order_of_the_writes(session: Session, ann_user: User) -> None:
    def night() -> None:
        live.open_live(session, member(ann_user))
        live.save_draft(session, 2, {"cards": "2c"}, seat_actor(session, 2))
        for seat in (1, 2, 3, 4):
            live.submit(session, seat, hand(seat), seat_actor(session, seat))
        services.close_session(session, ann_user)

    heard = _follow(session, night, 8)

    # open, the draft, three submits; the last submit records the deal ("deals"), then the
    # deal in progress shows it ("live"); then the close (nothing in progress to cancel).
    assert heard == ["live", "live", "live", "live", "live", "deals", "live", "deals"]


def test_two_last_submits_at_once_record_one_deal(session: Session, ann_user: User) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the race needs row locks between connections (PostgreSQL)")
    rounds = 3
    errors: list[BaseException] = []

    def last(seat: int, actor: live.Actor, start: threading.Barrier) -> None:
        try:
            start.wait()
            live.submit(session, seat, hand(seat), actor)
        except BaseException as error:  # (reported below)
            errors.append(error)
        finally:
            connection.close()

    def race() -> None:
        for _ in range(rounds):
            live.open_live(session, member(ann_user))
            for seat in (1, 2):
                live.submit(session, seat, hand(seat), seat_actor(session, seat))
            start = threading.Barrier(2)
            threads = [
                threading.Thread(target=last, args=(seat, seat_actor(session, seat), start))
                for seat in (3, 4)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

    # Each round: open, two submits, two last submits (one of them records: deals + live).
    heard = _follow(session, race, rounds * 6)

    assert errors == []
    assert Deal.objects.filter(session=session).count() == rounds
    assert heard.count("deals") == rounds
    assert session.live_deals.filter(status="recorded").count() == rounds
