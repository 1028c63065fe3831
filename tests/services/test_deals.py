"""Recording, numbering, idempotency, closed sessions, bad input, roles and pair stakes."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.engine import ScoreError
from games.models import Deal, DealRevision, Group, LedgerEntry, PairStake, Player, Session
from tests.services.hands import deal

D = Decimal


def row_counts() -> tuple[int, int, int]:
    return Deal.objects.count(), LedgerEntry.objects.count(), DealRevision.objects.count()


def test_a_deal_writes_one_ledger_row_per_pair(session: Session, bob_user: User) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)

    assert recorded.number == 1
    assert recorded.created_by == bob_user
    assert recorded.rules == session.rules
    assert recorded.request["stakes"] == {"unit_value": "0.5", "pairs": []}
    rows = {(e.player_a.name, e.player_b.name): e.units for e in recorded.ledger.all()}
    assert len(rows) == 6
    # As hands.py works out; the engine reports each pair in seat order.
    assert rows == {
        ("Ann", "Bob"): D(-6),
        ("Ann", "Cy"): D(-1),
        ("Ann", "Di"): D(-1),
        ("Bob", "Cy"): D(-1),
        ("Bob", "Di"): D(-1),
        ("Cy", "Di"): D(1),
    }
    assert {name: b.units for name, b in reports.balances(session).items()} == {
        "Ann": D(-8),
        "Bob": D(4),
        "Cy": D(3),
        "Di": D(1),
    }


def test_numbers_follow_on_after_a_void(session: Session, ann_user: User) -> None:
    first = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), ann_user)
    second = services.record_deal(session, deal(Cy="A", Di="B", sat_out=("Ann", "Bob")), ann_user)
    services.void_deal(second, ann_user)
    third = services.record_deal(session, deal(Ann="C", Di="D", sat_out=("Bob", "Cy")), ann_user)

    assert (first.number, second.number, third.number) == (1, 2, 3)


def test_the_same_idempotency_key_returns_the_same_deal(session: Session, bob_user: User) -> None:
    players = deal(Ann="A", Bob="B", Cy="C", Di="D")
    first = services.record_deal(session, players, bob_user, idempotency_key="phone-1:17")
    counts = row_counts()
    again = services.record_deal(session, players, bob_user, idempotency_key="phone-1:17")
    other = services.record_deal(session, players, bob_user, idempotency_key="phone-1:18")

    assert again.pk == first.pk
    assert counts == (1, 6, 0)
    assert other.number == 2


def test_a_retry_after_closing_still_finds_its_deal(session: Session, bob_user: User) -> None:
    first = services.record_deal(
        session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user, idempotency_key="k"
    )
    services.close_session(session, bob_user)

    assert (
        services.record_deal(
            session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user, "k"
        ).pk
        == first.pk
    )


def test_a_closed_session_refuses_every_change(
    session: Session, ann_user: User, bob_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    closed = services.close_session(session, bob_user)
    counts = row_counts()

    assert closed.status == Session.Status.CLOSED
    assert closed.closed_by == bob_user
    assert closed.closed_at is not None
    with pytest.raises(services.SessionClosed):
        services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    with pytest.raises(services.SessionClosed):
        services.edit_deal(recorded, deal(Ann="B", Bob="A", sat_out=("Cy", "Di")), bob_user)
    with pytest.raises(services.SessionClosed):
        services.void_deal(recorded, ann_user)
    with pytest.raises(services.SessionClosed):
        services.close_session(session, ann_user)
    assert row_counts() == counts


def test_bad_cards_store_nothing(session: Session, bob_user: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    counts = row_counts()
    players = deal(Ann="A", Bob="B", Cy="C", Di="D")
    players[2]["middle"] = "8c 8d 8h As"

    with pytest.raises(ScoreError) as error:
        services.record_deal(session, players, bob_user, idempotency_key="k")

    assert error.value.field == "players[2].middle"
    assert "Cy, middle: 4 cards given" in error.value.message
    assert row_counts() == counts


def test_a_card_given_twice_stores_nothing(session: Session, bob_user: User) -> None:
    players = deal(Ann="A", Bob="B", sat_out=("Cy", "Di"))
    players[1]["front"] = "Ac 2d 8s"

    with pytest.raises(ScoreError, match="Ac appears twice"):
        services.record_deal(session, players, bob_user)
    assert row_counts() == (0, 0, 0)


def test_a_bad_edit_keeps_the_deal_as_it_was(session: Session, bob_user: User) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    players = deal(Ann="B", Bob="A", sat_out=("Cy", "Di"))
    players[0]["back"] = "Zz 4h 5s 6d 7s"

    with pytest.raises(ScoreError):
        services.edit_deal(recorded, players, bob_user)

    recorded.refresh_from_db()
    assert recorded.version == 1
    assert row_counts() == (1, 1, 0)


def test_players_must_be_seated(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    session = services.start_session(group, [players["Ann"], players["Bob"]], ann_user)

    with pytest.raises(ScoreError, match="Cy is not seated") as error:
        services.record_deal(session, deal(Ann="A", Cy="B"), bob_user)
    assert error.value.field == "players[1].name"
    assert row_counts() == (0, 0, 0)


def test_a_member_records_and_edits_but_cannot_void(session: Session, bob_user: User) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    services.edit_deal(
        recorded, deal(Ann="B", Bob="A", sat_out=("Cy", "Di")), bob_user, reason="swapped"
    )

    with pytest.raises(services.NotAllowed):
        services.void_deal(recorded, bob_user)
    recorded.refresh_from_db()
    assert recorded.status == Deal.Status.ACTIVE
    assert recorded.ledger.count() == 1


def test_a_stranger_can_do_nothing(session: Session, stranger: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), stranger)
    with pytest.raises(services.NotAllowed):
        services.close_session(session, stranger)
    assert row_counts() == (0, 0, 0)


def test_a_pair_stake_changes_only_that_pairs_money(
    session: Session, group: Group, players: dict[str, Player], ann_user: User
) -> None:
    # Deal: Ann -6 from Bob, -1 from Cy, -1 from Di; Bob -1 from Cy and Di; Cy +1 from Di.
    # At 0.5 a unit, with Ann and Bob at five times that: Ann-Bob -6 x 2.5 = -15, the
    # others x 0.5. Ann -15 -0.5 -0.5 = -16; Bob +15 -0.5 -0.5 = +14; Cy 0.5 x 3 = 1.5;
    # Di +0.5 +0.5 -0.5 = +0.5.
    services.set_pair_stake(group, players["Bob"], players["Ann"], 5, ann_user)
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)

    balances = reports.balances(session)
    assert {name: b.units for name, b in balances.items()} == {
        "Ann": D(-8),
        "Bob": D(4),
        "Cy": D(3),
        "Di": D(1),
    }
    assert {name: b.money for name, b in balances.items()} == {
        "Ann": D(-16),
        "Bob": D(14),
        "Cy": D("1.5"),
        "Di": D("0.5"),
    }
    matrix = reports.pair_matrix(session)
    assert matrix["Ann"]["Bob"] == (D(-6), D(-15))
    assert matrix["Cy"]["Di"] == (D(1), D("0.5"))


def stored_pair_stake(group: Group, first: Player, second: Player, multiplier: D) -> None:
    """A pair stake as an older version stored it, without the bounds of set_pair_stake."""
    a, b = sorted((first, second), key=lambda p: p.pk)
    PairStake.objects.create(group=group, player_a=a, player_b=b, multiplier=multiplier)


@pytest.mark.parametrize(
    ("multiplier", "text"),
    [("0.025", "0.025"), ("1234567890.1234", "1234567890.1234"), ("7.5000", "7.5"), ("0", "0")],
)
def test_a_pair_stake_reaches_the_engine_exactly(
    session: Session,
    group: Group,
    players: dict[str, Player],
    ann_user: User,
    multiplier: str,
    text: str,
) -> None:
    # SQLite keeps a decimal as a number: the multiplier must still arrive digit for digit.
    # (Stored as before today's bounds, which refuse most of these when set.)
    stored_pair_stake(group, players["Di"], players["Bob"], D(multiplier))
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)

    assert recorded.request["stakes"]["pairs"] == [{"players": ["Bob", "Di"], "multiplier": text}]
    # Bob -1 unit against Di, at 0.5 a unit times the pair's multiplier.
    row = recorded.ledger.get(player_a=players["Bob"], player_b=players["Di"])
    assert row.money == D(-1) * D("0.5") * D(multiplier)


@pytest.mark.parametrize(
    ("unit_value", "pair", "multiplier", "refusal"),
    [
        # Bob -1 unit against Di at 0.5 a unit x 0.0125 is -0.00625: finer than 0.0001.
        ("0.5", ("Di", "Bob"), "0.0125", "Bob and Di: money -0.00625 cannot be kept exactly"),
        # Ann -6 units against Bob at 9,999,999,999 x 9,999,999,999: past what a row holds.
        (
            "9999999999",
            ("Bob", "Ann"),
            "9999999999",
            "Ann and Bob: money -599999999880000000006 cannot",
        ),
    ],
)
def test_money_the_ledger_cannot_keep_exactly_is_refused_and_nothing_is_stored(
    session: Session,
    group: Group,
    players: dict[str, Player],
    ann_user: User,
    unit_value: str,
    pair: tuple[str, str],
    multiplier: str,
    refusal: str,
) -> None:
    # Stakes stored before today's bounds, which refuse them when set.
    group.unit_value = D(unit_value)
    group.save()
    a, b = pair
    stored_pair_stake(group, players[a], players[b], D(multiplier))
    before = row_counts()

    with pytest.raises(ScoreError) as refused:
        services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)

    assert refused.value.field == "stakes"
    assert refusal in refused.value.message
    assert row_counts() == before
    session.refresh_from_db()
    assert session.last_deal_number == 0


def test_pair_stakes_are_stored_once_per_pair(
    group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    services.set_pair_stake(group, players["Di"], players["Cy"], 2, ann_user)
    stake = services.set_pair_stake(group, players["Cy"], players["Di"], 3, ann_user)

    assert group.pair_stakes.count() == 1
    assert stake.player_a.pk < stake.player_b.pk
    assert stake.multiplier == 3
    with pytest.raises(services.NotAllowed):
        services.set_pair_stake(group, players["Cy"], players["Di"], 1, bob_user)
    with pytest.raises(services.ServiceError):
        services.set_pair_stake(group, players["Cy"], players["Cy"], 1, ann_user)


def test_an_edit_keeps_the_stakes_the_deal_was_played_at(
    session: Session, group: Group, players: dict[str, Player], ann_user: User
) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), ann_user)
    group.unit_value = D(10)
    group.save()
    edited = services.edit_deal(recorded, deal(Ann="B", Bob="A", sat_out=("Cy", "Di")), ann_user)

    # Hand B scoops hand A: Ann now +6 units at the deal's 0.5 a unit.
    assert reports.balances(session)["Ann"] == (D(6), D(3))
    assert edited.request["stakes"]["unit_value"] == "0.5"
