"""The New group page: a group with its stakes, rules and players, or nothing and the
form again with what was typed and the error beside its field."""

from django.contrib.auth.models import User
from django.test import Client

from games.models import Group, Membership

FORM = {
    "name": "Tuesday table",
    "currency": "vnd",
    "unit_value": "10000",
    "preset": "mau-binh-south",
    "players": "Ann\r\nBob\r\n\r\n  Cy  \r\nDi\r\n",
}


def test_the_group_list_offers_a_new_group(as_alice: Client) -> None:
    page = as_alice.get("/groups/").content.decode()

    assert 'href="/groups/new/"' in page
    assert "through the API" not in page


def test_the_page_offers_every_preset_with_its_game(as_alice: Client) -> None:
    page = as_alice.get("/groups/new/").content.decode()

    assert '<option value="standard" selected>standard (Chinese poker)</option>' in page
    assert '<option value="ofc">ofc (Open-face Chinese poker)</option>' in page
    assert '<option value="big-two">big-two (Big Two)</option>' in page


def test_creating_a_group_makes_the_user_its_owner_and_lands_on_its_page(
    alice: User, as_alice: Client
) -> None:
    response = as_alice.post("/groups/new/", FORM)

    group = Group.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/groups/{group.pk}/"
    assert (group.name, group.currency, group.unit_value) == ("Tuesday table", "VND", 10000)
    assert Membership.objects.get(group=group).user == alice
    assert Membership.objects.get(group=group).role == "owner"
    assert [p.name for p in group.players.all()] == ["Ann", "Bob", "Cy", "Di"]
    assert group.current_rule_set().spec == "mau-binh-south"
    page = as_alice.get(response["Location"]).content.decode()
    assert "Tuesday table is ready" in page and "mau-binh-south" in page


def test_the_same_name_twice_creates_nothing_and_keeps_what_was_typed(
    as_alice: Client,
) -> None:
    form = {**FORM, "players": "Ann\nBob\nann"}

    response = as_alice.post("/groups/new/", form)

    page = response.content.decode()
    assert response.status_code == 400
    assert not Group.objects.exists()
    assert "Player 3: &#x27;Ann&#x27; is named twice" in page
    assert 'id="players-error"' in page
    assert ">Ann\nBob\nann</textarea>" in page
    assert 'value="Tuesday table"' in page and 'value="10000"' in page
    assert '<option value="mau-binh-south" selected>' in page


def test_a_bad_player_name_is_refused_with_its_line(as_alice: Client) -> None:
    response = as_alice.post("/groups/new/", {**FORM, "players": "Ann\n" + "x" * 51})

    assert response.status_code == 400 and not Group.objects.exists()
    assert "Player 2: at most 50 characters, got 51" in response.content.decode()


def test_each_field_shows_its_own_error(as_alice: Client) -> None:
    cases = {
        "name": ({"name": "  "}, 'id="group-name-error"'),
        "currency": ({"currency": "euro"}, 'id="currency-error"'),
        "unit_value": ({"unit_value": "lots"}, 'id="unit-value-error"'),
        "preset": ({"preset": "poker"}, 'id="preset-error"'),
    }
    for field, (change, error_id) in cases.items():
        response = as_alice.post("/groups/new/", {**FORM, **change})

        page = response.content.decode()
        assert response.status_code == 400, field
        assert error_id in page, field
        assert page.count('role="alert"') == 1, field
    assert not Group.objects.exists()


def test_a_group_without_players_can_be_made(as_alice: Client) -> None:
    response = as_alice.post("/groups/new/", {**FORM, "players": ""})

    assert response.status_code == 302
    assert not Group.objects.get().players.exists()


def test_signing_in_is_needed(client: Client) -> None:
    response = client.get("/groups/new/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
