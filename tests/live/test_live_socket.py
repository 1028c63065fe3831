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
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from games import services
from games.live import seat_links, table
from games.models import Deal, Group, Player, Session
from tests.live.helpers import hand, member, seat_actor, seat_token
from tests.live.test_push import _headers, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("either_layer")]


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
        table.open_live(session, member(ann_user))
        table.save_draft(session, 2, {"cards": "2c"}, seat_actor(session, 2))
        for seat in (1, 2, 3, 4):
            table.submit(session, seat, hand(seat), seat_actor(session, seat))
        services.close_session(session, ann_user)

    heard = _follow(session, night, 8)

    # open, the draft, three submits; the last submit records the deal ("deals"), then the
    # deal in progress shows it ("live"); then the close (nothing in progress to cancel).
    assert heard == ["live", "live", "live", "live", "live", "deals", "live", "deals"]


class Window:
    """Holds a last submit between reading the other seats' entries and deciding
    (``submitted_clashes`` is called in between) until the other last submit is in the same
    window too, or is seen waiting for a row lock: so the race always happens. Without the
    locks both submits then decide on the same stale rows; with them the second one waits
    for the first to commit before it reads anything."""

    def __init__(self) -> None:
        self.armed = False
        self.arrived = 0
        self.counting = threading.Lock()
        self.both_inside = threading.Event()
        self.seen: list[str] = []  # per race: "waited for the lock" or "both inside"

    def __call__(self, entries: Any) -> Any:
        if self.armed:
            with self.counting:
                self.arrived += 1
                first = self.arrived == 1
            if first:
                self.seen.append(self._hold())
            else:
                self.both_inside.set()
        return SHARED_CARDS(entries)

    def _hold(self) -> str:
        for _ in range(1000):  # 10 s at most: then something else went wrong
            if self.both_inside.wait(0.01):
                return "both inside"
            if _another_waits_for_a_lock():
                return "waited for the lock"
        raise AssertionError("the other last submit neither came nor waited for a lock")

    def arm(self) -> None:
        self.armed, self.arrived = True, 0
        self.both_inside.clear()


SHARED_CARDS = table.submitted_clashes


def _another_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        (waiting,) = cursor.fetchone()
    return bool(waiting)


@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="the race needs row locks between connections (CI runs it on PostgreSQL)",
)
def test_two_last_submits_at_once_record_one_deal(
    session: Session, ann_user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds = 3
    errors: list[BaseException] = []
    window = Window()
    monkeypatch.setattr(table, "submitted_clashes", window)

    def last(seat: int, actor: table.Actor, start: threading.Barrier) -> None:
        try:
            start.wait()
            table.submit(session, seat, hand(seat), actor)
        except BaseException as error:  # (reported below)
            errors.append(error)
        finally:
            connection.close()

    def race() -> None:
        for round_ in range(1, rounds + 1):
            table.open_live(session, member(ann_user))
            for seat in (1, 2):
                table.submit(session, seat, hand(seat), seat_actor(session, seat))
            start = threading.Barrier(2)
            threads = [
                threading.Thread(target=last, args=(seat, seat_actor(session, seat), start))
                for seat in (3, 4)
            ]
            window.arm()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            window.armed = False
            recorded = Deal.objects.filter(session=session).count()
            assert (errors, recorded) == ([], round_), (
                f"race {round_}: {recorded - round_ + 1} deals recorded for it; "
                f"the first last submit's wait: {window.seen[-1]}; errors: {errors}"
            )

    # Each round: open, two submits, two last submits (one of them records: deals + live).
    heard = _follow(session, race, rounds * 6)

    # Every race was a real one: the second last submit waited for the first one's locks.
    assert window.seen == ["waited for the lock"] * rounds
    assert Deal.objects.filter(session=session).count() == rounds
    assert heard.count("deals") == rounds
    assert session.live_deals.filter(status="recorded").count() == rounds
