"""A night at the Friday club for the pages' checks and the docs' screenshots (imported
by ``docs/screenshots.py`` too): four players, a pair stake, an open session of four deals
(a foul, a surrender, a declared natural corrected once)."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User

from games import services
from games.models import Group, Session
from tests.services.hands import deal, fouled

SEATS = ("Ann", "Bob", "Cy", "Di")


def friday_night(password: str) -> tuple[Group, Session]:
    """The group owned by a new user "alice" (``password``) and its open session."""
    alice = User.objects.create_user("alice", password=password)
    group = services.create_group(alice, "Friday club", "EUR", Decimal("0.5"), "classic-1-6")
    players = [services.add_player(group, name, by=alice) for name in SEATS]
    services.set_pair_stake(group, players[0], players[2], 2, by=alice)
    session = services.start_session(group, players, alice, place="Ann's kitchen")
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    foul = deal(Ann="A", Bob="B", Cy="C", Di="D")
    foul[1].update(fouled("B"))
    services.record_deal(session, foul, alice)
    surrender = [*deal(Bob="A", Cy="B", Ann="D"), {"name": "Di", "surrender": True}]
    services.record_deal(session, surrender, alice)
    natural = deal(Cy="A", Di="B", Ann="C", Bob="D")
    natural[3]["natural"] = "six_pairs"
    wrong = services.record_deal(session, natural, alice)
    services.edit_deal(wrong, natural, alice, reason="six pairs declared late")
    return group, session
