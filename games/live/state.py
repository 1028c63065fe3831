"""STATE: what a phone at the live table shows, for one viewer (``games.live.api``).

Everyone sees who is done; only the viewer's own seat (a seat link's, or a member's own
player's) comes with its entry. Conflicts are read from the entries as they stand, drafts
included, so both seats that typed the same card see it.

``public_state`` is the same without any viewer's seat (``you`` is None): what every
follower of the session may see, which the WebSocket carries with each change of the deal
in progress (``games.live.push``), so that a phone fetches only what is its own.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Max
from django.urls import reverse

from games.engine.rules import decimal_text
from games.live.cards import shared_cards
from games.models import Deal, LiveDeal, LiveEntry, Session
from games.reports.ledger import balances


def live_state(session: Session, viewer_player: int | None) -> dict[str, Any]:
    """STATE of ``session`` for the viewer seated as player ``viewer_player`` (or none)."""
    return _state_for(session, viewer_player, public=False)


def public_state(session: Session) -> dict[str, Any]:
    """STATE as everyone following the session sees it: no seat's entry (``you`` None)."""
    return _state_for(session, None, public=True)


def public_part(state: dict[str, Any]) -> dict[str, Any]:
    """A viewer's STATE without their own seat: ``public_state`` of the same moment."""
    live = state.get("live")
    return state if live is None else {**state, "live": {**live, "you": None}}


def _state_for(session: Session, viewer: int | None, *, public: bool) -> dict[str, Any]:
    counted = session.deals.filter(status=Deal.Status.ACTIVE).aggregate(
        deals=Count("pk"), last=Max("number")
    )
    fresh = Session.objects.filter(pk=session.pk).values_list("status", flat=True)[:1]
    status = next(iter(fresh), session.status)
    head = {"id": session.pk, "status": status, "deals": counted["deals"]}
    live = LiveDeal.objects.filter(session=session).select_related("deal").order_by("-pk")[:1]
    latest = next(iter(live), None)
    shown = None if latest is None else _live(session, latest, None if public else viewer)
    return {"session": {**head, "last_deal": counted["last"]}, "live": shown}


def _live(session: Session, live: LiveDeal, viewer: int | None) -> dict[str, Any]:
    entries = {e.player_id: e for e in LiveEntry.objects.filter(live_deal=live).order_by()}
    seated = list(session.seats.order_by("seat").values_list("player_id", "seat", "name"))
    seat_of = {player: seat for player, seat, _ in seated}
    names = {player: name for player, _, name in seated}
    shared = shared_cards({seat_of[p]: e.entry for p, e in entries.items() if p in seat_of})
    seats = []
    for player_id, name in names.items():
        entry = entries.get(player_id)
        seat = seat_of[player_id]
        seats.append(
            {
                "seat": seat,
                "player": name,
                "state": _state(entry),
                "by": entry.by if entry is not None and entry.entry is not None else None,
                "taken_over": entry is not None and entry.taken_over,
                "conflict": bool(shared.get(seat)),
            }
        )
    you = None
    if viewer is not None and viewer in names:
        entry = entries.get(viewer)
        seat = seat_of[viewer]
        name_at = {s: names[p] for p, s in seat_of.items()}
        you = {
            "seat": seat,
            "player": names[viewer],
            "entry": entry.entry if entry is not None else None,
            "submitted": entry is not None and entry.submitted_at is not None,
            "taken_over": entry is not None and entry.taken_over,
            "conflicts": [
                {"card": card, "seat": other, "player": name_at[other]}
                for card, other in shared.get(seat, [])
            ],
        }
    return {
        "id": live.pk,
        "status": live.status,
        "version": live.version,
        "message": live.message or None,
        "seats": seats,
        "you": you,
        "deal": _deal(session, live.deal),
    }


def _state(entry: LiveEntry | None) -> str:
    if entry is None or (entry.entry is None and entry.submitted_at is None):
        return "waiting"
    return "submitted" if entry.submitted_at is not None else "entering"


def _deal(session: Session, deal: Deal | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    players = deal.result.get("players", [])
    # The scoreboard as it stands: a seat link's holder may have no account to open it.
    totals = balances(session)
    return {
        "number": deal.number,
        "units": {p["name"]: str(p.get("units", "0")) for p in players},
        "money": {p["name"]: str(p["money"]) for p in players if p.get("money") is not None},
        "totals": {name: decimal_text(amounts.units) for name, amounts in totals.items()},
        "total_money": {name: decimal_text(amounts.money) for name, amounts in totals.items()},
        "url": reverse("web:session", args=[session.pk]) + f"#deal-{deal.number}",
    }
