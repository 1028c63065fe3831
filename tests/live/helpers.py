"""The live table at Ann's: the four hands of tests.services.hands by seat, and actors."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.live import seat_links
from games.live.table import Actor
from games.models import Session
from tests.services.hands import HANDS

# Seat -> the hand its player holds: Ann A, Bob B, Cy C, Di D (A -8, B +4, C +3, D +1).
BY_SEAT = {1: "A", 2: "B", 3: "C", 4: "D"}


def hand(seat: int) -> dict[str, Any]:
    return dict(HANDS[BY_SEAT[seat]])


def seat_actor(session: Session, seat: int) -> Actor:
    """Whoever holds seat ``seat``'s link."""
    links = seat_links.make_links(session)
    return Actor(seat=seat_links.open_seat(seat_links.token_for(links[seat - 1]), session.pk))


def seat_token(session: Session, seat: int) -> str:
    return seat_links.token_for(seat_links.make_links(session)[seat - 1])


def member(user: User) -> Actor:
    return Actor(user=user)
