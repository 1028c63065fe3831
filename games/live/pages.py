"""The live table's pages: a seat's entry page (by its seat link, no account) and the
members' page for the deal in progress.

Both pages are shells: what they show of the deal in progress comes from the live API
(``games.live.api``) through live.js, which keeps it current over the WebSocket (or by
polling). The views only hand the script what it needs to find the API and the seat.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games.engine.games import GAMES
from games.lib.public_url import loopback_links, public_url
from games.live import seat_links
from games.live.page_config import live_config
from games.models import Session
from games.present import picker_rows
from games.web import entry
from games.web.common import session_for, session_rules, user_of
from games.web.invites import qr_svg


def seat_url(request: HttpRequest, token: str) -> str:
    return public_url(request, reverse("web:seat", args=[token]))


def _entry_context(session: Session) -> dict[str, Any]:
    """What the entry UI of one seat needs: the picker, the naturals, surrender."""
    rules = session_rules(session)
    game = GAMES[rules.game]
    return {
        "picker": picker_rows() if game.shape != "leftovers" else [],
        "naturals": entry.allowed_naturals(rules) if game.has_naturals else [],
        "surrender_allowed": rules.surrender_cost is not None,
        "rows": [("front", 3), ("middle", 5), ("back", 5)],
    }


@require_GET
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """A seat's entry page: anyone holding the seat's link, signed in or not. A link that
    cannot be used (altered, revoked, its session closed) gets a page saying why (410, as
    an invite link's)."""
    try:
        seat = seat_links.open_seat(token)
    except seat_links.SeatLinkRefused as refused:
        return render(request, "web/seat_refused.html", {"error": refused.message}, status=410)
    user = request.user
    member = user.is_authenticated and seat.session.group.memberships.filter(user=user).exists()
    context = {
        "seat": seat,
        "session": seat.session,
        "member": member,
        "config": live_config(seat.session, token=token, seat=seat.seat),
        **_entry_context(seat.session),
    }
    return render(request, "web/seat.html", context)


@login_required
@require_GET
def live_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The members' page for the session's deal in progress: every seat's link (with its
    QR code), and the host's controls: open, cancel, type a seat's hand, take a seat over."""
    session, role = session_for(request, pk)
    links = seat_links.make_links(session) if session.status == "open" else []
    user = user_of(request)
    rows = []
    mine = None
    for number, link in enumerate(links, start=1):
        url = seat_url(request, seat_links.token_for(link))
        row = {"seat": number, "id": link.pk, "name": link.player.name, "url": url}
        row["qr"] = qr_svg(url)
        rows.append(row)
        if link.player.user_id is not None and link.player.user_id == user.pk:
            mine = row
    context = {
        "session": session,
        "group": session.group,
        "role": role,
        "links": rows,
        "links_note": loopback_links(request),
        "mine": mine,
        "config": live_config(session, host=True),
        **_entry_context(session),
    }
    return render(request, "web/live.html", context)
