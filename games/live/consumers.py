"""The WebSocket of a page that follows a session live (``ws/sessions/<id>/``).

It relays ``games.live.push`` announcements: ``{"type": "changed", "what": ...}``, with
the deal in progress's public ``state`` when it is about that deal; the page fetches over
HTTP whatever else it shows. Who may listen is checked when the socket opens: a signed-in
member of the session's group, or the holder of one of the session's seat links
(``?seat=<token>``, games.live.seat_links; ``&device=`` names the phone that holds the
seat, whose socket tells the host's page it is here, or gone). A socket whose right ends while it is
open is closed (4403): its seat link revoked, its member gone from the group.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games import languages
from games.lib.busy import language
from games.live import said
from games.live.push import session_group
from games.live.seat_links import Seat, SeatLinkRefused, claim, gone, heard, open_seat
from games.models import Membership, Session

log = logging.getLogger(__name__)

# Close codes (4000-4999 are the application's): the page stops retrying on these.
REFUSED = 4403
NOT_FOUND = 4404
BAD_FRAMES = 4400  # more than REFUSED_FRAMES frames the socket does not take
REFUSED_FRAMES = 20


class SessionConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None
    link_id: int | None = None  # the seat link it follows by, if any
    seat: Seat | None = None  # that link's seat, when this is the phone that holds it
    refused = 0  # frames answered with an error
    user_id: int | None = None  # else the member it follows as
    language = "en"  # its reader's, for the words of a pushed state

    async def connect(self) -> None:
        session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        seat = query.get("seat", [""])[0]
        device = query.get("device", [""])[0]
        follower = await _follower(session_id, self.scope.get("user"), seat, device)
        if follower is None:
            await self.close(code=NOT_FOUND)
            return
        if follower is False:
            await self.close(code=REFUSED)
            return
        if isinstance(follower, Seat):
            self.link_id = follower.link.pk
            if follower.own and device:  # a phone, which the host's page follows
                self.seat = follower
        else:
            self.user_id = follower
        self.group = session_group(session_id)
        self.language = reader_language(self.scope)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.seat is not None:  # the host's page shows the phone here
            await _presence(heard, self.seat)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.seat is not None:
            await _presence(gone, self.seat.link.pk)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        # Nothing is taken over the socket but a ping: every write goes through the HTTP
        # API. Anything else is answered with an error, never a traceback.
        if bytes_data is not None or not text_data:
            await self._refuse("a frame of text is expected, holding a JSON object")
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self._refuse("the frame is not JSON")
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # A seat's phone pings every few seconds, which tells the host it is still here.
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self._refuse('the only message taken is {"type": "ping"}')
            return
        await self.send_json({"type": "pong"})
        if self.seat is not None:
            await _presence(heard, self.seat)

    async def _refuse(self, why: str) -> None:
        """Answer a frame the socket does not take; logged once per socket, and a socket
        that keeps sending them is closed."""
        self.refused += 1
        if self.refused == 1:
            log.warning("socket of session group %s: frame refused: %s", self.group, why)
        if self.refused > REFUSED_FRAMES:
            await self.close(code=BAD_FRAMES)
            return
        await self.send_json({"type": "error", "error": why})

    async def session_nudge(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "nudge", "seat": event.get("seat")})

    async def session_changed(self, event: dict[str, Any]) -> None:
        message = {"type": "changed", "what": event.get("what", "deals")}
        if event.get("state") is not None:
            message["state"] = said_again(event["state"], self.language)
        await self.send_json(message)

    async def session_revoked(self, event: dict[str, Any]) -> None:
        if self.link_id is not None and event.get("link") == self.link_id:
            await self.close(code=REFUSED)

    async def session_left(self, event: dict[str, Any]) -> None:
        if self.user_id is not None and event.get("user") == self.user_id:
            await self.close(code=REFUSED)


def reader_language(scope: Mapping[str, Any]) -> str:
    """The language the socket's reader reads the pages in: a signed-in user's choice
    kept in their session, else the language cookie, else ``Accept-Language``."""
    chosen = None
    session = scope.get("session")
    if session is not None:
        chosen = session.get(languages.SESSION_KEY)
    headers = dict(scope.get("headers", []))
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    return language(chosen or cookie, accept)


def said_again(state: dict[str, Any], lang: str) -> dict[str, Any]:
    """A pushed STATE with the deal in progress's message said in ``lang`` (the state was
    built in the language of whoever changed it)."""
    live = state.get("live")
    if not isinstance(live, dict) or not live.get("message_code"):
        return state
    code = live["message_code"]
    with translation.override(lang):
        return {**state, "live": {**live, "message": said.text(code)}}


async def _presence(write: Any, *args: Any) -> None:
    """Tell the host's page the phone came or went: worth a try, never worth failing the
    socket for (the database may be down, or gone at a test's end)."""
    try:
        await database_sync_to_async(write)(*args)
    except Exception as error:  # logged: the socket goes on
        log.warning("the seat's presence was not written: %s", error)


@database_sync_to_async
def _follower(
    session_id: int, user: Any, seat: str = "", device: str = ""
) -> Seat | int | bool | None:
    """None: no such session; False: ``user`` and the seat link ``seat`` may not follow
    it; otherwise who follows: the ``Seat`` of a valid link of this very session (``own``
    when ``device`` is the phone that holds it), or the id of a member of its group."""
    group_id = Session.objects.filter(pk=session_id).values_list("group_id", flat=True).first()
    if group_id is None:
        return None
    if seat:
        try:
            return claim(open_seat(seat, session_id), device)
        except SeatLinkRefused:
            pass  # refused, unless a member of the group holds it
    if user is None or not user.is_authenticated:
        return False
    if Membership.objects.filter(group_id=group_id, user=user).exists():
        return int(user.pk)
    return False
