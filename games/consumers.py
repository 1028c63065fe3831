"""The WebSocket of a page that follows a session live (``ws/sessions/<id>/``).

It only relays ``games.live_push`` announcements: ``{"type": "changed", "what": ...}``, on
which the page fetches its data over HTTP. Who may listen is checked when the socket
opens: a signed-in member of the session's group, or the holder of one of the session's
seat links (``?seat=<token>``, games.services.seat_links).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.live_push import session_group
from games.models import Membership, Session
from games.services.seat_links import SeatLinkRefused, open_seat

# Close codes (4000-4999 are the application's): the page stops retrying on these.
REFUSED = 4403
NOT_FOUND = 4404


class SessionConsumer(AsyncJsonWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        seat = query.get("seat", [""])[0]
        allowed = await _may_follow(session_id, self.scope.get("user"), seat)
        if allowed is None:
            await self.close(code=NOT_FOUND)
            return
        if not allowed:
            await self.close(code=REFUSED)
            return
        self.group = session_group(session_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # Nothing is taken over the socket: every write goes through the HTTP API.
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})

    async def session_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "what": event.get("what", "deals")})


@database_sync_to_async
def _may_follow(session_id: int, user: Any, seat: str = "") -> bool | None:
    """None: no such session; otherwise whether ``user``, or the holder of the seat link
    ``seat`` (a valid link of this very session), may follow it."""
    group_id = Session.objects.filter(pk=session_id).values_list("group_id", flat=True).first()
    if group_id is None:
        return None
    if seat:
        try:
            open_seat(seat, session_id)
            return True
        except SeatLinkRefused:
            pass  # refused, unless a member of the group holds it
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(group_id=group_id, user=user).exists()
