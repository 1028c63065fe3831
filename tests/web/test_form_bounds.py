"""The pages' forms refuse what the API refuses, with the same words, and show the form
again with what was typed."""

import html

import pytest
from django.test import Client

from games.models import Group, PairStake, Player, RuleSet, Session


def page_of(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("option", "typed", "message"),
    [
        ("foul_penalty", "0.25", "rules.foul_penalty: at most 1 decimal place, got '0.25'"),
        ("surrender_cost", "1e30", "rules.surrender_cost: at most 100, got '1e30'"),
        ("scoop_all_multiplier", "2.5", "rules.scoop_all_multiplier: a whole number"),
        ("max_players", "9" * 5000, "rules.max_players: '999"),
    ],
)
def test_the_rules_form_refuses_values_beyond_the_bounds(
    group: Group, as_alice: Client, option: str, typed: str, message: str
) -> None:
    form = {"preset": "classic-1-6", "bonus": "1-6", option: typed}

    response = as_alice.post(f"/groups/{group.pk}/rules/", form)

    assert response.status_code == 400
    page = page_of(response)
    assert f'id="err-{option}"' in page and message in page
    assert f'value="{typed}"' in page  # what was typed stays
    assert RuleSet.objects.filter(group=group).count() == 1


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1e400", "unit value: at most 10,000,000, got '1e400'"),
        ("9999999999.9999", "unit value: at most 10,000,000"),
        ("0.125", "unit value: at most 2 decimal places, got '0.125'"),
        ("0", "unit value: must be more than 0"),
        ("NaN", "unit value: expected a finite number"),
        ("9" * 500, "unit value: at most 10,000,000, got '999"),
    ],
)
def test_the_stakes_form_refuses_a_unit_value_beyond_the_bounds(
    group: Group, as_alice: Client, typed: str, message: str
) -> None:
    response = as_alice.post(
        f"/groups/{group.pk}/stakes/", {"unit_value": typed, "currency": "EUR"}
    )

    assert response.status_code == 400
    page = page_of(response)
    assert message in page
    assert f'name="unit_value" inputmode="decimal" value="{typed}"' in page
    group.refresh_from_db()
    assert str(group.unit_value) == "0.5000"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("10.5", "multiplier: at most 10, got '10.5'"),
        ("2.25", "multiplier: at most 1 decimal place, got '2.25'"),
        ("1e400", "multiplier: at most 10"),
        ("-inf", "multiplier: expected a finite number"),
    ],
)
def test_the_pair_stake_form_refuses_a_multiple_beyond_the_bounds(
    group: Group, players: dict[str, Player], as_alice: Client, typed: str, message: str
) -> None:
    cy, di = players["Cy"], players["Di"]
    form = {"first": cy.pk, "second": di.pk, "multiplier": typed}

    response = as_alice.post(f"/groups/{group.pk}/stakes/", form)

    assert response.status_code == 400
    page = page_of(response)
    assert message in page
    assert f'name="multiplier" inputmode="decimal" size="5" value="{typed}"' in page
    assert f'<option value="{cy.pk}" selected>Cy</option>' in page
    assert f'<option value="{di.pk}" selected>Di</option>' in page
    assert not PairStake.objects.exists()


def test_a_player_name_too_long_is_refused_and_kept(
    group: Group, players: dict[str, Player], as_alice: Client
) -> None:
    name = "Ann" * 200

    response = as_alice.post(f"/groups/{group.pk}/", {"name": name})

    assert response.status_code == 400
    page = page_of(response)
    assert "name: at most 50 characters, got 600" in page
    assert f'value="{name}"' in page
    assert group.players.count() == 4


def test_a_place_too_long_is_refused_and_kept(
    group: Group, players: dict[str, Player], as_alice: Client
) -> None:
    place = "Ann's kitchen" * 40
    seats = {"seat1": players["Ann"].pk, "seat2": players["Bob"].pk}

    response = as_alice.post(
        f"/groups/{group.pk}/sessions/new/", {**seats, "rules": "", "place": place, "date": ""}
    )

    assert response.status_code == 400
    page = page_of(response)
    assert 'id="place-error"' in page and "place: at most 100 characters, got 520" in page
    assert f'value="{place}"' in page
    assert not Session.objects.exists()


def test_a_nul_character_is_refused_by_cause(
    group: Group, players: dict[str, Player], as_alice: Client
) -> None:
    response = as_alice.post(f"/groups/{group.pk}/", {"name": "Eve\x00"})

    assert response.status_code == 400
    assert "name: a control character (U+0000) at position 4" in page_of(response)
    assert group.players.count() == 4
