"""Open-face sessions carry fantasy land from deal to deal; Big Two ends at its target."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.engine import ScoreError
from games.models import Group, Player, Session

# Ann's board has queens in front (fantasy land next); Bob's has nothing special.
QUEENS = {"front": "Qc Qd 2h", "middle": "Kc Kd 3h 4h 5s", "back": "Ac Ad 6h 7h 8s"}
PLAIN = {"front": "2c 3c 4d", "middle": "5c 5d 7d 9h Js", "back": "Tc Td Th 9s 8c"}
CY_SITS_OUT = {"name": "Cy", "sat_out": True}


@pytest.fixture
def ofc(group: Group, players: dict[str, Player], ann_user: User) -> Session:
    return services.start_session(
        group, [players["Ann"], players["Bob"], players["Cy"]], ann_user, rules_override="ofc"
    )


def test_fantasy_land_follows_the_players(ofc: Session, bob_user: User) -> None:
    assert services.fantasyland(ofc) == {}

    # Cy sits the first two deals out, and says so.
    first = services.record_deal(
        ofc, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}, CY_SITS_OUT], bob_user
    )
    assert services.fantasyland(ofc) == {"Ann": 13}

    # Ann plays this deal in fantasy land without saying so; she does not stay (no trips
    # in front, no full house in the middle, no quads in the back); Bob earns it.
    second = services.record_deal(
        ofc, [{"name": "Ann", **PLAIN}, {"name": "Bob", **QUEENS}, CY_SITS_OUT], bob_user
    )
    sent = {p["name"]: p.get("in_fantasyland") for p in second.request["players"]}
    assert sent == {"Ann": True, "Bob": False, "Cy": None}
    assert services.fantasyland(ofc) == {"Bob": 13}

    # Ann sits the third deal out; Bob's fantasy land is his next deal.
    third = services.record_deal(
        ofc,
        [{"name": "Ann", "sat_out": True}, {"name": "Bob", **PLAIN}, {"name": "Cy", **QUEENS}],
        bob_user,
    )
    assert {p["name"]: p.get("in_fantasyland") for p in third.request["players"]} == {
        "Ann": None,
        "Bob": True,
        "Cy": False,
    }
    assert services.fantasyland(ofc) == {"Cy": 13}
    assert first.result["players"][0]["fantasyland_next"] == 13


def test_voiding_the_deal_that_earned_fantasy_land_takes_it_back(
    ofc: Session, ann_user: User
) -> None:
    deal = services.record_deal(
        ofc, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}, CY_SITS_OUT], ann_user
    )
    services.void_deal(deal, ann_user)

    assert services.fantasyland(ofc) == {}


def test_big_two_ends_when_a_loss_reaches_the_target(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    session = services.start_session(
        group,
        [players["Ann"], players["Bob"], players["Cy"]],
        ann_user,
        game="big-two",
        target_score=10,
    )
    # One unit a card: Ann goes out, Bob holds 5 and Cy 3: Bob -5, Cy -3, Ann +8.
    services.record_deal(
        session,
        [
            {"name": "Ann", "cards_left": 0},
            {"name": "Bob", "cards_left": 5},
            {"name": "Cy", "cards": "3c 4d 9h"},
        ],
        ann_user,
    )
    assert services.target_reached(session) == []
    session.refresh_from_db()
    assert session.is_open

    # Cy goes out, Bob holds 6 (-11 in all, past 10), Ann 2: the night is over.
    services.record_deal(
        session,
        [
            {"name": "Ann", "cards_left": 2},
            {"name": "Bob", "cards_left": 6},
            {"name": "Cy", "cards_left": 0},
        ],
        ann_user,
    )
    assert services.target_reached(session) == ["Bob"]
    assert {name: b.units for name, b in reports.balances(session).items()} == {
        "Ann": Decimal(6),
        "Bob": Decimal(-11),
        "Cy": Decimal(5),
    }
    session.refresh_from_db()
    assert session.status == Session.Status.CLOSED
    with pytest.raises(services.SessionClosed):
        services.record_deal(
            session, [{"name": "Ann", "cards_left": 0}, {"name": "Bob", "cards_left": 1}], ann_user
        )


def test_progressive_fantasy_land_counts_the_discards_it_dealt(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    session = services.start_session(
        group,
        [players["Ann"], players["Bob"]],
        ann_user,
        rules_override={"preset": "pineapple", "progressive": True},
    )
    # Ann's QQ front earns 14 cards (progressive: QQ 14, KK 15, AA 16, trips 17).
    services.record_deal(session, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}], ann_user)
    assert services.fantasyland(session) == {"Ann": 14}
    # She keeps 13 of her 14: one discard; two are refused, naming the number dealt.
    with pytest.raises(ScoreError) as refused:
        services.record_deal(
            session,
            [{"name": "Ann", **PLAIN, "discards": "Qs Ks"}, {"name": "Bob", **QUEENS}],
            ann_user,
        )
    assert "fantasy land with 14 cards discards 1" in refused.value.message
    second = services.record_deal(
        session, [{"name": "Ann", **PLAIN, "discards": "Qs"}, {"name": "Bob", **QUEENS}], ann_user
    )
    assert second.request["players"][0]["in_fantasyland"] == 14


def test_a_session_seats_no_more_players_than_its_rules_allow(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    four = [players[n] for n in ("Ann", "Bob", "Cy", "Di")]
    with pytest.raises(services.ServiceError) as refused:
        services.start_session(group, four, ann_user, rules_override="pineapple")
    assert refused.value.message == "players: the pineapple rules allow at most 3 players, got 4"
    with pytest.raises(services.ServiceError) as crossed:
        services.start_session(group, four[:3], ann_user, rules_override={"criss_cross": True})
    assert crossed.value.message == "players: the Criss Cross rules allow at most 2 players, got 3"
    assert not Session.objects.exists()
