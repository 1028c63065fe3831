"""A Big Two night's summary: wins, cards left, the multiplied deals and the deal that
reached the target, the same on the page, in the API and on the sheet."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games import reports, services
from games.models import Deal, DeviceToken, Group, Player, Session
from games.sheets import compose
from tests.pdf.conftest import pdf_text

# big-two with 10 or more cards left x2, each 2 held x2, and a target of 30.
RULES = {"preset": "big-two", "multipliers": [[10, 2]], "two_multiplier": 2}


def play(session: Session, user: User) -> None:
    """Three deals, worked by hand:

    1. Ann goes out; Bob 10 cards (x2: 20), Cy 3c 4d 2s (3 cards, one 2: x2 = 6).
       Ann +26, Bob -20, Cy -6.
    2. Bob goes out; Ann 4, Cy 5: Bob +9, Ann -4, Cy -5. Totals +22, -11, -11.
    3. Ann goes out; Bob 12 (x2: 24), Cy 1: Ann +25, Bob -24, Cy -1. Totals +47, -35,
       -12: Bob's loss of 35 reaches the target of 30 at deal 3 and closes the night.
    """
    # (two_multiplier counts the 2s held, so every loser gives the cards.)
    deals: tuple[list[dict[str, Any]], ...] = (
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards": "3d 4h 5c 6s 7d 8h 9c Ts Jd Qh"},
            {"name": "Cy", "cards": "3c 4d 2s"},
        ],
        [
            {"name": "Ann", "cards": "5s 6d 7c 8s"},
            {"name": "Bob", "cards_left": 0},
            {"name": "Cy", "cards": "9d Th Jc Qs Kd"},
        ],
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards": "3s 4s 5s 6c 7s 8c 9s Tc Jh Qc Kc Ah"},
            {"name": "Cy", "cards": "Ad"},
        ],
    )
    for players in deals:
        services.record_deal(session, players, user)


@pytest.fixture
def big_two(group: Group, players: dict[str, Player], ann_user: User) -> Session:
    seats = [players["Ann"], players["Bob"], players["Cy"]]
    session = services.start_session(group, seats, ann_user, rules_override=RULES, target_score=30)
    play(session, ann_user)
    session.refresh_from_db()
    return session


def by_name(summary: dict) -> dict[str, dict]:
    return {p["name"]: p for p in summary["players"]}


def test_the_figures_as_worked_by_hand(big_two: Session) -> None:
    summary = reports.session_summary(big_two)
    players = by_name(summary)

    assert big_two.status == Session.Status.CLOSED
    assert {n: p["units"] for n, p in players.items()} == {
        "Ann": Decimal(47),
        "Bob": Decimal(-35),
        "Cy": Decimal(-12),
    }
    assert {n: p["wins"] for n, p in players.items()} == {"Ann": 2, "Bob": 1, "Cy": 0}
    # Cards left over the 3 deals each played: Ann 0+4+0, Bob 10+0+12, Cy 3+5+1.
    assert {n: p["cards_left"] for n, p in players.items()} == {"Ann": 4, "Bob": 22, "Cy": 9}
    assert {n: p["cards_left_average"] for n, p in players.items()} == {
        "Ann": Decimal("1.33"),
        "Bob": Decimal("7.33"),
        "Cy": Decimal("3.00"),
    }
    # Bob's payment was doubled at deals 1 and 3, Cy's by his 2 at deal 1.
    assert {n: p["multiplied"] for n, p in players.items()} == {"Ann": 0, "Bob": 2, "Cy": 1}
    assert {n: p["twos"] for n, p in players.items()} == {"Ann": 0, "Bob": 0, "Cy": 1}
    assert summary["big_two"] == {
        "multiplied": [
            {
                "deal": 1,
                "players": [
                    {"name": "Bob", "cards_left": 10, "multiplier": Decimal(2), "twos": 0},
                    {"name": "Cy", "cards_left": 3, "multiplier": None, "twos": 1},
                ],
            },
            {
                "deal": 3,
                "players": [{"name": "Bob", "cards_left": 12, "multiplier": Decimal(2), "twos": 0}],
            },
        ],
        "target": {"deal": 3, "players": ["Bob"], "target_score": Decimal(30)},
    }
    # Without the running totals, the target deal is found all the same.
    assert reports.session_summary(big_two, running=False)["big_two"] == summary["big_two"]


def test_a_void_deal_and_a_deal_without_tally_count_as_they_should(
    big_two: Session, ann_user: User
) -> None:
    before = reports.session_summary(big_two)
    Deal.objects.filter(session=big_two).update(tally=None)  # as stored before tallies
    assert reports.session_summary(big_two)["big_two"] == before["big_two"]
    assert by_name(reports.session_summary(big_two)) == by_name(before)

    services.reopen_session(big_two, ann_user, reason="deal 1 was a misdeal")
    services.void_deal(big_two.deals.get(number=1), ann_user)
    summary = reports.session_summary(big_two)
    players = by_name(summary)
    # Deals 2 and 3 alone: Ann +21, Bob -15, Cy -6; no loss reaches 30 any more.
    assert [entry["deal"] for entry in summary["big_two"]["multiplied"]] == [3]
    assert summary["big_two"]["target"] is None
    assert {n: p["wins"] for n, p in players.items()} == {"Ann": 1, "Bob": 1, "Cy": 0}
    assert players["Bob"]["cards_left_average"] == Decimal("6.00")


def test_a_chinese_poker_summary_has_no_big_two_part(session: Session) -> None:
    summary = reports.session_summary(session)
    assert "big_two" not in summary
    assert "cards_left_average" not in summary["players"][0]


def test_the_page_the_api_and_the_sheet_show_them(big_two: Session, ann_user: User) -> None:
    page = Client()
    page.force_login(ann_user)
    html = page.get(f"/sessions/{big_two.pk}/summary/").content.decode()
    assert "Wins" in html and "Cards left" in html and "Fouls" not in html
    assert "Deal 1: Bob (x2 for 10 cards left); Cy (1 two held)" in html
    assert "Deal 3: Bob (x2 for 12 cards left)" in html
    assert "Deal 3 ended the session: Bob reached the target of 30." in html
    assert "7.33" in html

    api = APIClient()
    _, key = DeviceToken.issue(ann_user, "test")
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    answer = api.get(f"/api/v1/sessions/{big_two.pk}/summary/").json()
    bob = next(p for p in answer["players"] if p["name"] == "Bob")
    assert (bob["wins"], bob["cards_left_average"], bob["multiplied"]) == (1, "7.33", 2)
    assert answer["big_two"]["target"] == {"deal": 3, "players": ["Bob"], "target_score": "30"}
    assert answer["big_two"]["multiplied"][0]["players"][0]["multiplier"] == "2"

    text = pdf_text(compose.render("sheet", big_two))
    assert "Cards left (average)" in text
    assert "Deal 1: Bob (x2 for 10 cards left); Cy (1 two held)" in text
    assert "Deal 3 ended the session: Bob reached the target of 30." in text
    assert "Fouls" not in text
