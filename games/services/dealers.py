"""Who deals: the button moves one seat to the left each deal, that is to the next seat in
seat order after the previous deal's dealer (wrapping round the table).

- The first deal of a session is dealt by the first seat, unless a dealer is given.
- A void deal counts: its cards were dealt, so the button has moved past its dealer.
- A player who sits a deal out does not deal it: the button goes on to the next seat
  whose player plays (when the deal says who plays; the deal form, which cannot know yet,
  offers the next seat and lets the table choose).
- A deal stored before dealers were recorded has none; the deal after it is dealt as if
  every deal before had followed the button from the first seat.

Any seated player can be given as a deal's dealer, also one who sits it out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from games.errors import ServiceError
from games.models import Session
from games.services.deal_write import DealTable
from games.sitting_out import is_sat_out

DEALER_FIELD = "dealer"


def next_dealer(
    seats: Sequence[int],
    last: tuple[int, int | None] | None,
    playing: Collection[int] | None = None,
) -> int:
    """The seat that deals next by default. ``seats`` are the session's seat numbers in
    seat order; ``last`` is the previous deal's (number, dealer seat or None), None before
    the first deal; ``playing`` the seats whose players play the deal, when known."""
    if not seats:
        raise ValueError("a session has seats")
    if last is None:
        start = 0
    elif last[1] in seats:
        start = seats.index(last[1]) + 1
    else:  # (a deal recorded before dealers): as if the button had gone round from seat 1
        start = last[0]
    order = [seats[(start + k) % len(seats)] for k in range(len(seats))]
    if playing:
        for seat in order:
            if seat in playing:
                return seat
    return order[0]


def dealer_seat(name: object, seats: Mapping[str, int]) -> int:
    """The seat of the dealer named in a request (``seats``: seat numbers by seat name);
    ServiceError on ``dealer`` when no seated player is named so."""
    if not isinstance(name, str) or name.strip() not in seats:
        raise ServiceError(
            f"dealer: not a player seated in this session (seated: {', '.join(seats)})",
            DEALER_FIELD,
        )
    return seats[name.strip()]


def dealer_name(seat: int | None, seats: Mapping[str, int]) -> str | None:
    """The name of the player at ``seat`` (None for a deal without a dealer)."""
    return next((name for name, k in seats.items() if k == seat), None)


def deal_dealer(table: DealTable, request_players: object, dealer: str | None) -> int:
    """The seat that deals: the one named, else the next after the previous deal's
    dealer among the seats whose players play this deal."""
    if dealer is not None:
        return dealer_seat(dealer, table.seats)
    entries = request_players if isinstance(request_players, list) else []
    playing = {
        table.seats[entry["name"]]
        for entry in entries
        if isinstance(entry, Mapping) and entry.get("name") in table.seats and not is_sat_out(entry)
    }
    return next_dealer(list(table.seats.values()), table.last, playing)


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
    return dealer_name(next_dealer(list(seats.values()), last), seats)
