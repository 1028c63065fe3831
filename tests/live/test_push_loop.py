"""Sends from sync code to a layer with a server (Redis) go through one event loop the
process keeps (games.live.push): its connection is kept, nothing is made per message."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.live import push


def _receiver(channel_group: str) -> tuple[Any, str]:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(channel_group, channel)
    return layer, channel


def test_sends_through_redis_share_one_loop_and_arrive(redis_layer: None) -> None:
    layer, channel = _receiver(push.session_group(901))
    before = threading.active_count()

    for n in range(5):
        push.publish(901, f"deals-{n}")
    kept = push._kept

    assert kept is not None and kept[0] == os.getpid() and kept[1].is_running()
    push.publish(901, "deals-5")
    assert push._kept is kept  # the same loop, not one per message
    assert threading.active_count() <= before + 1  # its one thread, at most

    async def heard() -> list[str]:
        return [(await layer.receive(channel))["what"] for _ in range(6)]

    assert async_to_sync(heard)() == [f"deals-{n}" for n in range(6)]


def test_a_forked_process_starts_a_loop_of_its_own(redis_layer: None) -> None:
    push.publish(902, "deals")
    kept = push._kept
    assert kept is not None
    # As seen from a child forked after the loop started: the parent's pid, a loop whose
    # thread did not come along.
    stale = asyncio.new_event_loop()
    push._kept = (kept[0] + 1, stale)
    try:
        push.publish(902, "deals")
        fresh = push._kept
        assert fresh is not None and fresh[1] is not stale and fresh[0] == os.getpid()
    finally:
        stale.close()


def test_a_layer_that_does_not_answer_is_logged_not_raised(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # Nothing listens on port 9 (discard) here: the connection is refused.
            "CONFIG": {"hosts": ["redis://127.0.0.1:9/0"], "prefix": "scorekeeper-test-down"},
        }
    }
    with caplog.at_level(logging.ERROR, logger="games.live.push"):
        push.publish(903, "deals")
    assert "could not announce a change to session 903" in caplog.text
