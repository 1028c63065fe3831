"""The browser tests' Daphne server (tests/web/asgi_server.py) serves the pages and the
live WebSocket from the test database: a member's socket opens, a signed-out one is
refused."""

from __future__ import annotations

from typing import Any

from games.models import Session
from tests.web.asgi_server import AsgiServer
from tests.web.conftest import PASSWORD
from tests.web.test_browser_picker import open_night

__all__ = ["open_night"]  # fixtures, used by name

# How a WebSocket to ``url`` ends up: "open", or the code it closed with.
SOCKET = """(url) => new Promise((done) => {
  var socket = new WebSocket(url);
  socket.onopen = () => { done("open"); socket.close(); };
  socket.onclose = (event) => done(event.code);
})"""


def socket_url(server: AsgiServer, session: Session) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/sessions/{session.pk}/"


def test_a_members_socket_opens_and_a_strangers_does_not(
    chromium: Any, asgi_server: AsgiServer, open_night: Session
) -> None:
    page = chromium.new_page()
    page.goto(f"{asgi_server.url}/accounts/login/")
    # Refused before the handshake completes: the browser reports an abnormal close.
    assert page.evaluate(SOCKET, socket_url(asgi_server, open_night)) == 1006
    page.get_by_label("User name").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{asgi_server.url}/groups/")
    assert page.evaluate(SOCKET, socket_url(asgi_server, open_night)) == "open"
    page.close()
