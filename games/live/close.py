"""What closing a session does to its deal in progress (``games.services.sessions``):
kept apart from ``games.live.table`` so that sessions need not import the live table."""

from __future__ import annotations

from games.live import said
from games.live.push import announce
from games.models import LiveDeal, Session


def cancel_open_live(session: Session, message: str | None = None) -> bool:
    """Cancel the session's open deal in progress, if any (its row locked); inside the
    caller's transaction, after the session row is locked (the live writes lock in the same
    order: the session, then the deal in progress)."""
    live = LiveDeal.objects.select_for_update().filter(session=session, status="open").first()
    if live is None:
        return False
    live.status = LiveDeal.Status.CANCELLED
    if message:
        live.message, live.message_code = message, None
    else:
        live.message, live.message_code = said.kept_words(said.CLOSED), said.kept(said.CLOSED)
    live.version += 1
    live.save(update_fields=["status", "message", "message_code", "version"])
    announce(session.pk, "live")
    return True
