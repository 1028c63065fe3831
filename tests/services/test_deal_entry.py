"""Recording a deal never loses or mis-records one: an idempotency key is bound to the deal
it first recorded, and every seated player is either in the deal or says they sat it out."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import given
from hypothesis import strategies as st

from games import reports, services
from games.engine import ScoreError
from games.errors import CONFLICTS, IdempotencyConflict, ServiceError
from games.models import Deal, DealRevision, Group, LedgerEntry, Player, Session
from games.services.deals import fingerprint
from tests.services.hands import HANDS, deal

SAT_OUT = {"sat_out": True}


def row_counts() -> tuple[int, int, int]:
    return Deal.objects.count(), LedgerEntry.objects.count(), DealRevision.objects.count()


# --- idempotency keys and their fingerprints ---------------------------------------------


def test_a_reused_key_with_another_deal_is_a_conflict(session: Session, bob_user: User) -> None:
    first = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user, "k")
    counts = row_counts()

    with pytest.raises(IdempotencyConflict) as conflict:
        services.record_deal(session, deal(Ann="B", Bob="A", Cy="C", Di="D"), bob_user, "k")

    assert isinstance(conflict.value, CONFLICTS)
    assert conflict.value.field == "Idempotency-Key"
    assert f"deal {first.number}" in conflict.value.message
    assert row_counts() == counts
    first.refresh_from_db()
    assert first.request["players"][0] == {"name": "Ann", **HANDS["A"]}


def test_garbage_under_a_used_key_is_no_replay(session: Session, bob_user: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user, "k")

    # No deal at all: refused as such (the API's 400).
    for garbage, field in (("garbage", "players"), (None, "players"), ([{}, 2], "players[1]")):
        with pytest.raises(ScoreError) as error:
            services.record_deal(session, garbage, bob_user, "k")  # type: ignore[arg-type]
        assert error.value.field == field
    # A deal, though not the one the key recorded: a conflict (the API's 409).
    for other in ([], [{"name": "Ann"}], [{"name": "Ann", "front": "zz"}]):
        with pytest.raises(IdempotencyConflict):
            services.record_deal(session, other, bob_user, "k")
    assert Deal.objects.count() == 1


def test_the_same_deal_however_its_keys_are_ordered_is_replayed(
    session: Session, bob_user: User
) -> None:
    players = deal(Ann="A", Bob="B", Cy="C", Di="D")
    first = services.record_or_replay(session, players, bob_user, "k")
    reordered = [dict(reversed(list(p.items()))) for p in players]

    again = services.record_or_replay(session, reordered, bob_user, "k")

    assert (first.created, again.created) == (True, False)
    assert again.deal.pk == first.deal.pk


def test_a_deal_stored_before_fingerprints_matches_any_retry(
    session: Session, bob_user: User
) -> None:
    first = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user, "k")
    assert first.idempotency_fingerprint == fingerprint(deal(Ann="A", Bob="B", Cy="C", Di="D"))
    Deal.objects.filter(pk=first.pk).update(idempotency_fingerprint=None)

    again = services.record_or_replay(
        session, deal(Ann="B", Bob="A", Cy="D", Di="C"), bob_user, "k"
    )

    assert (again.created, again.deal.pk) == (False, first.pk)
    assert Deal.objects.count() == 1


def test_a_key_too_long_or_with_a_nul_is_refused(session: Session, bob_user: User) -> None:
    players = deal(Ann="A", Bob="B", Cy="C", Di="D")
    for key in ("k" * 101, "phone\x001"):
        with pytest.raises(ServiceError) as error:
            services.record_deal(session, players, bob_user, key)
        assert error.value.field == "Idempotency-Key"
        assert not isinstance(error.value, CONFLICTS)
    assert services.record_deal(session, players, bob_user, "k" * 100).number == 1


cards = st.sampled_from(sorted({row for hand in HANDS.values() for row in hand.values()}))
entries = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["Ann", "Bob", "Cy"]), "front": cards}),
    max_size=3,
)


@given(entries, entries)
def test_a_fingerprint_tells_two_deals_apart_exactly_when_they_differ(
    a: list[dict[str, Any]], b: list[dict[str, Any]]
) -> None:
    assert (fingerprint(a) == fingerprint(b)) == (a == b)
    assert fingerprint(a) == fingerprint([dict(reversed(list(p.items()))) for p in a])
    assert len(fingerprint(a)) == 64


# --- seated players left out, and sitting a deal out -----------------------------------


def test_a_seated_player_left_out_is_refused(session: Session, bob_user: User) -> None:
    with pytest.raises(ScoreError) as error:
        services.record_deal(session, deal(Ann="A", Bob="B", Cy="C"), bob_user)
    assert error.value.field == "players"
    assert "Di" in error.value.message and "sat_out" in error.value.message

    with pytest.raises(ScoreError) as error:
        services.record_deal(session, deal(Ann="A", Bob="B"), bob_user)
    assert error.value.field == "players"
    assert "Cy" in error.value.message and "Di" in error.value.message
    assert row_counts() == (0, 0, 0)


def test_a_player_who_sat_out_is_kept_in_the_request_and_left_out_of_the_scoring(
    session: Session, bob_user: User
) -> None:
    players = [{"name": "Di", **SAT_OUT}, *deal(Ann="A", Bob="B", Cy="C")]

    recorded = services.record_deal(session, players, bob_user)

    assert recorded.request["players"] == players
    assert [p["name"] for p in recorded.result["players"]] == ["Ann", "Bob", "Cy"]
    assert {p["name"]: p["units"] for p in recorded.result["players"]} == {
        "Ann": "-7",
        "Bob": "5",
        "Cy": "2",
    }
    assert recorded.ledger.count() == 3
    summary = reports.session_summary(session)
    assert {p["name"]: p["deals"] for p in summary["players"]} == {
        "Ann": 1,
        "Bob": 1,
        "Cy": 1,
        "Di": 0,
    }
    # The review (run by the task) reads the deal as the engine scored it.
    review = services.store_review(recorded.pk)
    assert review is not None
    assert [p["name"] for p in review["players"]] == ["Ann", "Bob", "Cy"]


def test_an_error_names_the_players_place_in_the_request(session: Session, bob_user: User) -> None:
    players = [{"name": "Ann", **SAT_OUT}, *deal(Bob="B", Cy="C", Di="D")]
    players[2] = {**players[2], "middle": "8c 8d 8h As"}

    with pytest.raises(ScoreError) as error:
        services.record_deal(session, players, bob_user)

    assert error.value.field == "players[2].middle"
    assert "Cy, middle" in error.value.message


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"name": "Di", "sat_out": True, **HANDS["D"]}, "players[3].front"),
        ({"name": "Di", "sat_out": True, "surrender": True}, "players[3].surrender"),
        ({"name": "Di", "sat_out": "yes"}, "players[3].sat_out"),
        ({"name": "Di", "sat_out": 1}, "players[3].sat_out"),
    ],
)
def test_a_bad_sat_out_entry_is_refused(
    session: Session, bob_user: User, entry: dict[str, Any], field: str
) -> None:
    with pytest.raises(ScoreError) as error:
        services.record_deal(session, [*deal(Ann="A", Bob="B", Cy="C"), entry], bob_user)
    assert error.value.field == field
    assert "Di" in error.value.message
    assert row_counts() == (0, 0, 0)


def test_sat_out_false_plays(session: Session, bob_user: User) -> None:
    players = [*deal(Ann="A", Bob="B", Cy="C"), {"name": "Di", "sat_out": False, **HANDS["D"]}]

    recorded = services.record_deal(session, players, bob_user)

    assert len(recorded.result["players"]) == 4


def test_a_deal_needs_two_players_playing(session: Session, bob_user: User) -> None:
    players = [*deal(Ann="A"), *({"name": n, **SAT_OUT} for n in ("Bob", "Cy", "Di"))]

    with pytest.raises(ScoreError) as error:
        services.record_deal(session, players, bob_user)

    assert error.value.field == "players"
    assert "two" in error.value.message
    assert row_counts() == (0, 0, 0)


def test_a_player_both_playing_and_sitting_out_is_refused(session: Session, bob_user: User) -> None:
    players = [*deal(Ann="A", Bob="B", Cy="C", Di="D"), {"name": "Di", **SAT_OUT}]

    with pytest.raises(ScoreError) as error:
        services.record_deal(session, players, bob_user)

    assert error.value.field == "players[4].name"


def test_an_edit_must_account_for_every_seat_too(session: Session, bob_user: User) -> None:
    recorded = services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)

    with pytest.raises(ScoreError) as error:
        services.edit_deal(recorded, deal(Ann="B", Bob="A", Cy="C"), bob_user)
    assert error.value.field == "players"
    assert "Di" in error.value.message

    players = [*deal(Ann="B", Bob="A", Cy="C"), {"name": "Di", **SAT_OUT}]
    edited = services.edit_deal(recorded, players, bob_user, reason="Di was not dealt in")

    assert edited.request["players"][3] == {"name": "Di", "sat_out": True}
    assert [p["name"] for p in edited.result["players"]] == ["Ann", "Bob", "Cy"]
    assert {(e.player_a.name, e.player_b.name) for e in edited.ledger.all()} == {
        ("Ann", "Bob"),
        ("Ann", "Cy"),
        ("Bob", "Cy"),
    }
    assert edited.idempotency_fingerprint == recorded.idempotency_fingerprint


def test_a_sat_out_player_keeps_the_fantasy_land_they_earned(
    group: Group, players: dict[str, Player], bob_user: User
) -> None:
    queens = {"front": "Qc Qd 2h", "middle": "Kc Kd 3h 4h 5s", "back": "Ac Ad 6h 7h 8s"}
    plain = {"front": "2c 3c 4d", "middle": "5c 5d 7d 9h Js", "back": "Tc Td Th 9s 8c"}
    other = {"front": "2d 3h 4s", "middle": "6c 6d Jc Qc Kh", "back": "Ah As Ad 3s 4h"}
    seats = [players["Ann"], players["Bob"], players["Cy"]]
    ofc = services.start_session(group, seats, bob_user, rules_override="ofc")
    services.record_deal(
        ofc,
        [{"name": "Ann", **queens}, {"name": "Bob", **plain}, {"name": "Cy", **SAT_OUT}],
        bob_user,
    )
    second = services.record_deal(
        ofc,
        [{"name": "Ann", **SAT_OUT}, {"name": "Bob", **plain}, {"name": "Cy", **queens}],
        bob_user,
    )

    assert second.request["players"][0] == {"name": "Ann", "sat_out": True}
    assert services.fantasyland(ofc) == {"Ann": 13, "Cy": 13}
    third = services.record_deal(
        ofc,
        [{"name": "Ann", **other}, {"name": "Bob", **SAT_OUT}, {"name": "Cy", **plain}],
        bob_user,
    )
    sent = {p["name"]: p.get("in_fantasyland") for p in third.request["players"]}
    assert sent == {"Ann": True, "Bob": None, "Cy": True}
