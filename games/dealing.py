"""Who deals (plain Python, for the services, the pages and the reports): the button moves
one seat to the left each deal, that is to the next seat in seat order after the previous
deal's dealer (wrapping round the table).

- The first deal of a session is dealt by the first seat, unless a dealer is given.
- A void deal counts: its cards were dealt, so the button has moved past its dealer.
- A player who sits a deal out does not deal it: the button goes on to the next seat
  whose player plays (when the deal says who plays; the deal form, which cannot know yet,
  offers the next seat and lets the table choose).
- A deal stored before dealers were recorded has none; the deal after it is dealt as if
  every deal before had followed the button from the first seat.
- Open-face with ``button_stays_in_fantasyland`` (RULES 13): after a deal in which anyone
  played in fantasy land the button stays put, so its dealer deals again (or, sitting the
  next deal out, the next seat whose player plays).

Any seated player can be given as a deal's dealer, also one who sits it out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence


def next_dealer(
    seats: Sequence[int],
    last: tuple[int, int | None] | None,
    playing: Collection[int] | None = None,
    *,
    stays: bool = False,
) -> int:
    """The seat that deals next by default. ``seats`` are the session's seat numbers in
    seat order; ``last`` is the previous deal's (number, dealer seat or None), None before
    the first deal; ``playing`` the seats whose players play the deal, when known;
    ``stays``: the button does not move after the previous deal (fantasy land)."""
    if not seats:
        raise ValueError("a session has seats")
    if last is None:
        start = 0
    elif last[1] in seats:
        start = seats.index(last[1]) + (0 if stays else 1)
    else:  # (a deal recorded before dealers): as if the button had gone round from seat 1
        start = last[0] - (1 if stays else 0)
    order = [seats[(start + k) % len(seats)] for k in range(len(seats))]
    if playing:
        for seat in order:
            if seat in playing:
                return seat
    return order[0]


def dealer_name(seat: int | None, seats: Mapping[str, int]) -> str | None:
    """The name of the player at ``seat`` (None for a deal without a dealer)."""
    return next((name for name, k in seats.items() if k == seat), None)
