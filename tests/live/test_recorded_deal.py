"""The deal the live table recorded, as STATE shows it to every phone (``live.deal``): each
pair from its winner's side with its reason, and the money of the deal and of the night."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from games.live import table
from games.live.state import live_state, public_state
from games.models import Session
from tests.live.helpers import hand, member, seat_actor
from tests.services.hands import HANDS, fouled

pytestmark = pytest.mark.django_db


def record(session: Session, opener: User, entries: dict[int, dict[str, Any]]) -> None:
    table.open_live(session, member(opener))
    for seat in (1, 2, 3, 4):
        table.submit(session, seat, entries.get(seat, hand(seat)), seat_actor(session, seat))


def pairs_by_players(deal: dict[str, Any]) -> dict[frozenset[str], dict[str, Any]]:
    return {frozenset((p["winner"], p["loser"])): p for p in deal["pairs"]}


def test_each_pair_is_told_from_the_winners_side_with_its_reason(
    session: Session, ann_user: User
) -> None:
    record(session, ann_user, {})

    deal = live_state(session, None)["live"]["deal"]
    pairs = pairs_by_players(deal)

    assert len(deal["pairs"]) == 6
    assert pairs[frozenset(("Ann", "Bob"))] == {
        "winner": "Bob",
        "loser": "Ann",
        "units": "6",
        "kind": "rows",
        "scoop": "Bob",
        "naturals": {},
        "reason": "scoop",
    }
    # Ann wins the front only against Cy: Cy's two rows to one.
    cy = pairs[frozenset(("Ann", "Cy"))]
    assert (cy["winner"], cy["units"], cy["scoop"], cy["reason"]) == ("Cy", "1", None, "rows 2-1")
    assert deal["language"] == "en"


def test_a_foul_and_a_natural_are_the_reasons(session: Session, ann_user: User) -> None:
    six_pairs = {"cards": " ".join(HANDS["D"].values()), "natural": "six_pairs"}
    record(session, ann_user, {2: fouled("B"), 4: six_pairs})

    pairs = pairs_by_players(live_state(session, None)["live"]["deal"])

    foul = pairs[frozenset(("Bob", "Cy"))]
    assert (foul["winner"], foul["kind"], foul["reason"]) == ("Cy", "foul", "foul")
    natural = pairs[frozenset(("Ann", "Di"))]
    assert (natural["winner"], natural["kind"]) == ("Di", "natural")
    assert natural["naturals"] == {"Di": "six_pairs"}
    assert natural["reason"] == "natural: six pairs"


def test_the_money_of_the_deal_and_of_the_night(session: Session, ann_user: User) -> None:
    record(session, ann_user, {})
    record(session, ann_user, {})

    deal = live_state(session, None)["live"]["deal"]

    # At 0.5 a unit: Ann -8 units a deal, so -4 a deal and -8 over the two.
    assert deal["money"] == {"Ann": "-4", "Bob": "2", "Cy": "1.5", "Di": "0.5"}
    assert deal["total_money"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert deal["money_text"] == {
        "Ann": "-4.00 EUR",
        "Bob": "+2.00 EUR",
        "Cy": "+1.50 EUR",
        "Di": "+0.50 EUR",
    }
    assert deal["total_money_text"]["Ann"] == "-8.00 EUR"


def test_the_words_are_the_readers_and_say_which_language(session: Session, ann_user: User) -> None:
    record(session, ann_user, {})

    with translation.override("vi"):
        deal = public_state(session)["live"]["deal"]

    assert deal["language"] == "vi"
    scoop = pairs_by_players(deal)[frozenset(("Ann", "Bob"))]
    assert scoop["reason"] != "scoop"
    assert scoop["scoop"] == "Bob"  # what a program reads stays as it is
    assert deal["money_text"]["Cy"] == "+1,50 EUR"


def test_everyone_sees_the_pairs_once_the_deal_is_recorded(
    session: Session, ann_user: User
) -> None:
    record(session, ann_user, {})

    assert (
        public_state(session)["live"]["deal"]["pairs"]
        == (live_state(session, None)["live"]["deal"]["pairs"])
    )
