"""Recording who deals (the rule itself: ``games.dealing``)."""

from __future__ import annotations

from collections.abc import Mapping

from games.dealing import dealer_name, next_dealer
from games.errors import ServiceError
from games.models import Session
from games.services.deal_reads import DealTable
from games.sitting_out import is_sat_out

DEALER_FIELD = "dealer"


def dealer_seat(name: object, seats: Mapping[str, int]) -> int:
    """The seat of the dealer named in a request (``seats``: seat numbers by seat name);
    ServiceError on ``dealer`` when no seated player is named so."""
    if not isinstance(name, str) or name.strip() not in seats:
        raise ServiceError(
            f"dealer: not a player seated in this session (seated: {', '.join(seats)})",
            DEALER_FIELD,
        )
    return seats[name.strip()]


def deal_dealer(
    table: DealTable, request_players: object, dealer: str | None, session: Session
) -> int:
    """The seat that deals: the one named, else the next after the previous deal's
    dealer among the seats whose players play this deal (the same dealer again when the
    button stays in fantasy land)."""
    if dealer is not None:
        return dealer_seat(dealer, table.seats)
    entries = request_players if isinstance(request_players, list) else []
    playing = {
        table.seats[entry["name"]]
        for entry in entries
        if isinstance(entry, Mapping) and entry.get("name") in table.seats and not is_sat_out(entry)
    }
    stays = session.button_stays_after(table.last)
    return next_dealer(list(table.seats.values()), table.last, playing, stays=stays)


def seat_numbers(session: Session) -> dict[str, int]:
    """The session's seat numbers by seat name, in seat order."""
    return dict(session.seats.order_by("seat").values_list("name", "seat"))


def upcoming_dealer(session: Session) -> str | None:
    """The name of who deals the session's next deal by default (the deal form's choice
    and the scoreboard's "next deal")."""
    seats = seat_numbers(session)
    if not seats:
        return None
    last = session.deals.order_by("-number").values_list("number", "dealer").first()
    stays = session.button_stays_after(last)
    return dealer_name(next_dealer(list(seats.values()), last, stays=stays), seats)


__all__ = [
    "deal_dealer",
    "dealer_name",
    "dealer_seat",
    "next_dealer",
    "seat_numbers",
    "upcoming_dealer",
]
