"""The live table's pages: a seat's entry page (by its seat link, no account) and the
members' page for the deal in progress. Placeholders the page work replaces: each shows
who it is for; the data comes from the live API (``games.api.live``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.services import seat_links
from games.web.common import session_for


@require_GET
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    """A seat's entry page: anyone holding the seat's link, signed in or not."""
    try:
        seat = seat_links.open_seat(token)
    except seat_links.SeatLinkRefused as refused:
        raise Http404(refused.message) from None
    context = {"seat": seat, "session": seat.session, "token": token}
    return render(request, "web/live_seat.html", context)


@login_required
@require_GET
def live_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The members' page for the session's deal in progress."""
    session, role = session_for(request, pk)
    return render(request, "web/live.html", {"session": session, "role": role})
