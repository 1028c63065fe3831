"""Open-face and Big Two nights get their sheets too, with their own rules and marks."""

import re

from django.contrib.auth.models import User

from games import services
from games.models import Group, Player
from games.sheets import compose
from tests.pdf.conftest import pdf_text

QUEENS = {"front": "Qc Qd 2h", "middle": "Kc Kd 3h 4h 5s", "back": "Ac Ad 6h 7h 8s"}
PLAIN = {"front": "2c 3c 4d", "middle": "5c 5d 7d 9h Js", "back": "Tc Td Th 9s 8c"}


def test_an_open_face_sheet_marks_fantasy_land(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    seats = [players["Ann"], players["Bob"]]
    session = services.start_session(group, seats, ann_user, rules_override="ofc")
    services.record_deal(session, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}], ann_user)

    text = pdf_text(compose.render("sheet", session))

    assert "Open-face Chinese poker, preset ofc" in text
    assert "Fantasy land for queens or better in the front" in text
    assert re.search(r"^\s*1 +[-+]\d+ +L? *[-+]\d+", text, re.M)
    assert "L plays the next deal in fantasy land" in text
    # Open-face deals are not reviewed: no "Units missed" column nor its legend.
    assert "Units missed" not in text and "still being reviewed" not in text


def test_a_big_two_sheet(group: Group, players: dict[str, Player], ann_user: User) -> None:
    seats = [players["Ann"], players["Bob"], players["Cy"]]
    session = services.start_session(group, seats, ann_user, game="big-two")
    services.record_deal(
        session,
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards_left": 5},
            {"name": "Cy", "cards": "3c 4d 9h"},
        ],
        ann_user,
    )

    text = pdf_text(compose.render("sheet", session))

    assert "Big Two, preset big-two" in text
    assert "Each loser pays the winner one unit per card left in hand." in text
    # Ann +8, Bob -5, Cy -3 units at 0.5 EUR: Bob pays 2.50 and Cy 1.50.
    assert re.search(r"^\s*1 +\+8 +-5 +-3\s*$", text, re.M)
    assert "Bob pays Ann 2.50 EUR" in text and "Cy pays Ann 1.50 EUR" in text
    # Big Two deals are not reviewed: no "Units missed" column nor its legend.
    assert "Units missed" not in text and "still being reviewed" not in text
    ledger = pdf_text(compose.render("ledger", session, players["Bob"]))
    assert "Bob pays Ann 2.50 EUR" in ledger
