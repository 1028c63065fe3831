"""What a seat's phone says of its connection, in headless Chromium behind a TCP proxy that
really drops it (``tests/live/proxy.py``): with no network at all, one steady line saying
what happens to the hand; with only the live socket gone and requests getting through,
the other, steady too. Neither flickers between the two as the socket tries again."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from games.models import Session
from tests.live.proxy import DroppingProxy
from tests.live.test_browser_reconnect import proxy, three_in_and_di_behind
from tests.web.asgi_server import AsgiServer, _daphne, asgi_server
from tests.web.conftest import chromium
from tests.web.test_browser_live_table import Phones, phones
from tests.web.test_browser_picker import open_night

__all__ = ["_daphne", "asgi_server", "chromium", "open_night", "phones", "proxy"]  # fixtures

OFFLINE = "Offline: your entry is kept on this phone and sent when the connection returns."
SOCKET_DOWN = "Live updates unavailable: checking every 2 seconds."


def readings(page: Any, seconds: int) -> list[str]:
    """The connection line read every half second for ``seconds``: across the socket's
    tries to come back (after 1, 2 and 4 s) and the polls (every 2 s)."""
    line = page.locator("#live-connection")
    seen = []
    for _ in range(seconds * 2):
        page.wait_for_timeout(500)
        seen.append(line.text_content().strip())
    return seen


def test_the_seat_pages_connection_line_settles_while_offline_reconnect(
    phones: Phones, asgi_server: AsgiServer, open_night: Session, proxy: DroppingProxy
) -> None:
    _urls, _pages, di = three_in_and_di_behind(phones, asgi_server, open_night, proxy)
    line = di.locator("#live-connection")
    expect(line).to_contain_text("Live: changes show")

    proxy.drop()  # the Wi-Fi gone: the socket and every request fail
    expect(line).to_have_text(OFFLINE, timeout=15_000)
    assert set(readings(di, 8)) == {OFFLINE}

    # Back on the network, but with the live socket turned away wherever it opens: the
    # polls get through, so the line says only that updates come by polling.
    di.route_web_socket(re.compile(r".*/ws/.*"), lambda socket: socket.close())
    proxy.restore()
    expect(line).to_have_text(SOCKET_DOWN, timeout=15_000)
    assert set(readings(di, 6)) == {SOCKET_DOWN}
