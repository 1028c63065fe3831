"""The Redis channel layer joins processes: an announcement made in one process (gunicorn
recording a deal, a Celery task) reaches a socket held by another (Daphne), and one
Daphne process hears another's. Needs Redis (database 6 of the local server, or
LIVE_TEST_REDIS_URL): skipped without it, failed under REQUIRE_SERVICES=1."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from channels_redis.core import RedisChannelLayer
from django.contrib.auth.models import User
from django.test import Client, override_settings

from games.live import push
from games.models import Session
from scorekeeper.asgi import application
from scripts.prodkit import redis_answers
from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("LIVE_TEST_REDIS_URL", "redis://127.0.0.1:6379/6")
ENV = {**os.environ, "CHANNEL_LAYER_URL": REDIS, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"}


def settings_layers() -> dict[str, Any]:
    """CHANNEL_LAYERS as the settings make them from CHANNEL_LAYER_URL (read in a process
    of their own: the test settings have the in-memory layer)."""
    code = (
        "import json; from django.conf import settings; print(json.dumps(settings.CHANNEL_LAYERS))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    layers: dict[str, Any] = json.loads(done.stdout)
    return layers


LAYERS = settings_layers()
LAYER_CONFIG = LAYERS["default"]["CONFIG"]

# Every test here uses the settings' own layer (prefix "scorekeeper" on one Redis database,
# which a child process must share) and the burst test flushes it: they all run on one
# pytest-xdist worker (`make test` runs with --dist loadfile), never beside each other.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _redis() -> None:
    if not redis_answers(REDIS):
        skip_or_fail(f"no Redis at {REDIS}")


def member_headers(user: User) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    return [
        (b"origin", b"http://localhost"),
        (b"host", b"localhost"),
        (b"cookie", f"sessionid={cookie}".encode()),
    ]


def follow_while(session: Session, user: User, announce: Any) -> dict[str, Any]:
    """Opens the session's socket (this process's channel layer), calls ``announce`` once
    it is following, and answers the first message the socket gets."""
    headers = member_headers(user)

    async def run() -> dict[str, Any]:
        socket = WebsocketCommunicator(application, f"/ws/sessions/{session.pk}/", headers)
        connected, _ = await socket.connect()
        assert connected
        try:
            await announce()
            message: dict[str, Any] = await socket.receive_json_from(timeout=30)
        finally:
            await socket.disconnect()
        return message

    return async_to_sync(run)()


@override_settings(CHANNEL_LAYERS=LAYERS)
def test_an_announcement_from_another_process_reaches_the_socket(
    session: Session, ann_user: User
) -> None:
    assert isinstance(get_channel_layer(), RedisChannelLayer)
    # The other process sets Django up first (seconds on a loaded machine), then waits for
    # a line before it announces, so that the socket is already following.
    code = (
        "import sys, django; django.setup();"
        "from games.live.push import publish;"
        "sys.stdin.readline();"
        f"publish({session.pk}, 'live')"
    )
    env = {
        **os.environ,
        "CHANNEL_LAYER_URL": REDIS,
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    child = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdin=subprocess.PIPE, text=True
    )

    async def from_another_process() -> None:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.close()

    try:
        message = follow_while(session, ann_user, from_another_process)
    finally:
        returncode = child.wait(timeout=60)

    assert returncode == 0
    assert message == {"type": "changed", "what": "live"}


@override_settings(CHANNEL_LAYERS=LAYERS)
def test_an_announcement_through_a_second_layer_reaches_the_socket(
    session: Session, ann_user: User
) -> None:
    # Two layer objects, as two Daphne processes hold: the socket is in the default one.
    other = RedisChannelLayer(**LAYER_CONFIG)
    assert other is not get_channel_layer()

    async def from_the_other_layer() -> None:
        await other.group_send(
            push.session_group(session.pk), {"type": push.CHANGED, "what": "deals"}
        )

    assert follow_while(session, ann_user, from_the_other_layer) == {
        "type": "changed",
        "what": "deals",
    }


@override_settings(CHANNEL_LAYERS=LAYERS)
def test_another_sessions_announcement_does_not_reach_it(session: Session, ann_user: User) -> None:
    other = RedisChannelLayer(**LAYER_CONFIG)

    async def elsewhere_then_here() -> None:
        group = push.session_group
        await other.group_send(group(session.pk + 1000), {"type": push.CHANGED, "what": "x"})
        await other.group_send(group(session.pk), {"type": push.CHANGED, "what": "live"})

    assert follow_while(session, ann_user, elsewhere_then_here)["what"] == "live"


@override_settings(CHANNEL_LAYERS=LAYERS)
def test_an_idle_socket_still_hears_the_next_deal(session: Session, ann_user: User) -> None:
    # Longer than channels-redis's 5 s wait for a message, which redis-py 8's default 5 s
    # read timeout used to cut short (the socket closed with a TimeoutError).
    other = RedisChannelLayer(**LAYER_CONFIG)

    async def after_a_quiet_while() -> None:
        await asyncio.sleep(7)
        await other.group_send(
            push.session_group(session.pk), {"type": push.CHANGED, "what": "deals"}
        )

    assert follow_while(session, ann_user, after_a_quiet_while)["what"] == "deals"


def test_a_burst_of_announcements_to_one_process_is_not_dropped() -> None:
    """All the sockets of one process share one queue in Redis: with channels-redis's
    default capacity (100), 50 tables' announcements at once to one Daphne process were
    dropped (benchmarks/live_table.py). The settings give room for such a burst."""
    burst = 300

    async def run() -> int:
        layer = RedisChannelLayer(**LAYER_CONFIG)
        group = "burst-test"
        channels = [await layer.new_channel() for _ in range(4)]
        for channel in channels:
            await layer.group_add(group, channel)
        try:
            for k in range(burst):
                await layer.group_send(group, {"type": push.CHANGED, "what": str(k)})
            got = 0
            for channel in channels:
                for _ in range(burst):
                    await asyncio.wait_for(layer.receive(channel), 10)
                    got += 1
            return got
        finally:
            for channel in channels:
                await layer.group_discard(group, channel)
            await layer.flush()

    assert LAYER_CONFIG["capacity"] >= 1000
    assert async_to_sync(run)() == 4 * burst
