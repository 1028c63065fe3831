"""Rule amounts and stakes are refused when they are set, beyond what later deals can be
recorded at, with an error worded by its cause."""

from decimal import Decimal as D
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Group, PairStake, Player, RuleSet, Session
from tests.api.conftest import API

# (rules spec, field, message after "field: ")
RULES_REFUSED: list[tuple[Any, str, str]] = [
    (
        {"preset": "classic-1-6", "foul_penalty": "3." + "3" * 30},
        "rules.foul_penalty",
        "at most 1 decimal place, got '3." + "3" * 30 + "'",
    ),
    ({"preset": "classic-1-6", "foul_penalty": 101}, "rules.foul_penalty", "at most 100, got 101"),
    (
        {"preset": "classic-1-6", "naturals": {"dragon": 1e30}},
        "rules.naturals.dragon",
        "at most 100, got 1e+30",
    ),
    (
        {"preset": "classic-1-6", "royalties": {"back": {"quads": "4.25"}}},
        "rules.royalties.back.quads",
        "at most 1 decimal place, got '4.25'",
    ),
    (
        {"preset": "standard", "surrender_cost": "100.5"},
        "rules.surrender_cost",
        "at most 100, got '100.5'",
    ),
    (
        {"preset": "mau-binh-south", "false_natural_penalty": "0.05"},
        "rules.false_natural_penalty",
        "at most 1 decimal place, got '0.05'",
    ),
    (
        {"preset": "mau-binh-south", "scoop_all_multiplier": 11},
        "rules.scoop_all_multiplier",
        "at most 10, got 11",
    ),
    (
        {"preset": "mau-binh-south", "scoop_all_multiplier": "2.5"},
        "rules.scoop_all_multiplier",
        "a whole number, got '2.5'",
    ),
    ({"preset": "big-two", "multipliers": [[10, "5.5"]]}, "rules.multipliers", "at most 5"),
    (
        {"preset": "big-two", "multipliers": [[10, "1.25"]]},
        "rules.multipliers",
        "at most 1 decimal place",
    ),
    ({"preset": "big-two", "two_multiplier": 4}, "rules.two_multiplier", "at most 3, got 4"),
    (
        {"preset": "big-two", "two_multiplier": "1.5"},
        "rules.two_multiplier",
        "a whole number, got '1.5'",
    ),
    (
        {"preset": "big-two", "target_score": "1000000.1"},
        "rules.target_score",
        "at most 1000000, got '1000000.1'",
    ),
]

RULES_AT_THE_BOUNDS = [
    {"preset": "classic-1-6", "foul_penalty": "100", "surrender_cost": "0.5"},
    {"preset": "classic-1-6", "naturals": {"dragon": "99.9"}},
    {"preset": "mau-binh-south", "scoop_all_multiplier": 10},
    {"preset": "big-two", "multipliers": [[10, "4.5"], [13, 5]], "two_multiplier": 3},
    {"preset": "big-two", "target_score": 1000000},
]


@pytest.mark.parametrize(("spec", "field", "message"), RULES_REFUSED)
def test_group_rules_beyond_the_bounds_are_refused_by_cause(
    group: Group, as_alice: APIClient, spec: Any, field: str, message: str
) -> None:
    response = as_alice.post(f"{API}/groups/{group.pk}/rules/", {"rules": spec}, format="json")

    assert response.status_code == 400
    assert response.json()["field"] == field
    assert response.json()["error"].startswith(f"{field}: {message}")
    assert RuleSet.objects.filter(group=group).count() == 1


@pytest.mark.parametrize(("spec", "field", "message"), RULES_REFUSED)
def test_a_new_group_with_rules_beyond_the_bounds_is_refused(
    as_mallory: APIClient, spec: Any, field: str, message: str
) -> None:
    response = as_mallory.post(f"{API}/groups/", {"name": "Odd", "rules": spec}, format="json")

    assert response.status_code == 400
    assert response.json()["error"].startswith(f"{field}: {message}")
    assert not Group.objects.filter(name="Odd").exists()


@pytest.mark.parametrize("spec", RULES_AT_THE_BOUNDS)
def test_rules_at_the_bounds_are_accepted(group: Group, as_alice: APIClient, spec: Any) -> None:
    response = as_alice.post(f"{API}/groups/{group.pk}/rules/", {"rules": spec}, format="json")

    assert response.status_code == 201, response.json()


def test_a_sessions_own_rules_and_target_are_bounded(
    group: Group, players: dict[str, Player], as_alice: APIClient
) -> None:
    seats = ["Ann", "Bob", "Cy"]
    override = as_alice.post(
        f"{API}/sessions/",
        {"group": group.pk, "players": seats, "rules_override": {"foul_penalty": "0.25"}},
        format="json",
    )
    target = as_alice.post(
        f"{API}/sessions/",
        {"group": group.pk, "players": seats, "game": "big-two", "target_score": "1e400"},
        format="json",
    )
    fine = as_alice.post(
        f"{API}/sessions/",
        {"group": group.pk, "players": seats, "game": "big-two", "target_score": "250.5"},
        format="json",
    )

    assert override.status_code == 400
    assert override.json() == {
        "error": "rules.foul_penalty: at most 1 decimal place, got '0.25'",
        "field": "rules.foul_penalty",
        "code": "option_place",
        "args": {"option": "foul_penalty", "places": 1, "value": "'0.25'"},
    }
    assert target.status_code == 400
    assert target.json() == {
        "error": "rules.target_score: at most 1000000, got '1e400'",
        "field": "rules.target_score",
        "code": "option_at_most",
        "args": {"option": "target_score", "maximum": "1000000", "value": "'1e400'"},
    }
    assert fine.status_code == 201
    assert Session.objects.get().target_score == D("250.5")


def test_a_group_whose_stored_rules_predate_the_bounds_still_starts_sessions(
    group: Group, players: dict[str, Player], as_alice: APIClient
) -> None:
    # Rules stored before the bounds are read as stored: only rules being set are bounded.
    spec = {"preset": "classic-1-6", "foul_penalty": "250"}
    from games.engine import Rules

    RuleSet.objects.create(
        group=group, version=2, spec=spec, rules=Rules.from_mapping(spec).to_mapping()
    )

    response = as_alice.post(
        f"{API}/sessions/", {"group": group.pk, "players": ["Ann", "Bob"]}, format="json"
    )

    assert response.status_code == 201, response.json()
    assert Session.objects.get().rules["foul_penalty"] == "250"


# (value sent, message after "unit value: " / "multiplier: ")
UNIT_VALUES_REFUSED: list[tuple[Any, str]] = [
    ("9999999999.9999", "at most 10,000,000, got '9999999999.9999'"),
    ("10000000.01", "at most 10,000,000, got '10000000.01'"),
    ("1e400", "at most 10,000,000, got '1e400'"),
    ("0.125", "at most 2 decimal places, got '0.125'"),
    ("0", "must be more than 0, got '0'"),
    (-1, "must be more than 0, got -1"),
    ("NaN", "expected a finite number, got 'NaN'"),
    ("lots", "expected a number, got 'lots'"),
]
MULTIPLIERS_REFUSED: list[tuple[Any, str]] = [
    ("10.5", "at most 10, got '10.5'"),
    ("9999999999.9999", "at most 10, got '9999999999.9999'"),
    ("2.25", "at most 1 decimal place, got '2.25'"),
    (0, "must be more than 0, got 0"),
    ("Infinity", "expected a finite number, got 'Infinity'"),
]


@pytest.mark.parametrize(("value", "message"), UNIT_VALUES_REFUSED)
def test_a_unit_value_beyond_the_bounds_is_refused_by_cause(
    group: Group, as_alice: APIClient, value: Any, message: str
) -> None:
    changed = as_alice.patch(f"{API}/groups/{group.pk}/", {"unit_value": value}, format="json")
    created = as_alice.post(
        f"{API}/groups/", {"name": "Odd", "unit_value": value, "rules": "standard"}, format="json"
    )

    for response in (changed, created):
        assert response.status_code == 400
        assert response.json() == {"error": f"unit value: {message}", "field": "unit_value"}
    group.refresh_from_db()
    assert group.unit_value == D("0.5")


@pytest.mark.parametrize(("value", "message"), MULTIPLIERS_REFUSED)
def test_a_pair_stake_beyond_the_bounds_is_refused_by_cause(
    group: Group, players: dict[str, Player], as_alice: APIClient, value: Any, message: str
) -> None:
    response = as_alice.post(
        f"{API}/groups/{group.pk}/stakes/",
        {"players": ["Ann", "Bob"], "multiplier": value},
        format="json",
    )

    assert response.status_code == 400
    assert response.json() == {"error": f"multiplier: {message}", "field": "multiplier"}
    assert not PairStake.objects.exists()


@pytest.mark.parametrize(("unit_value", "multiplier"), [("10000000", "10"), ("0.01", "0.1")])
def test_stakes_at_the_bounds_are_accepted(
    group: Group, players: dict[str, Player], as_alice: APIClient, unit_value: str, multiplier: str
) -> None:
    changed = as_alice.patch(f"{API}/groups/{group.pk}/", {"unit_value": unit_value}, format="json")
    staked = as_alice.post(
        f"{API}/groups/{group.pk}/stakes/",
        {"players": ["Ann", "Bob"], "multiplier": multiplier},
        format="json",
    )

    assert (changed.status_code, staked.status_code) == (200, 201)
    assert changed.json()["unit_value"] == unit_value
    assert staked.json()["multiplier"] == multiplier


@pytest.mark.parametrize("value", [True, None, [], {"a": 1}, "9" * 101])
def test_a_stake_that_is_no_number_is_refused_by_the_serializer(
    group: Group, as_alice: APIClient, value: Any
) -> None:
    response = as_alice.patch(f"{API}/groups/{group.pk}/", {"unit_value": value}, format="json")

    assert response.status_code == 400
    assert response.json()["field"] == "unit_value"
    assert "expected a number" in response.json()["error"] or "null" in response.json()["error"]
