"""The rules page warns the owner when a foul costs less than a scoop (the engine says)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group

WARNING = 'id="foul-warning"'


def page(client: Client, group: Group) -> str:
    return client.get(f"/groups/{group.pk}/rules/").content.decode()


def test_classic_1_6_is_warned_of_and_standard_is_not(
    as_alice: Client, alice: User, group: Group
) -> None:
    # The group plays classic-1-6: a foul pays 3, a scoop 6.
    html = page(as_alice, group)
    assert WARNING in html
    assert "a foul pays 3 units and a scoop 6 units" in html

    services.set_rules(group, "standard", by=alice)
    assert WARNING not in page(as_alice, group)

    # A foul penalty of 5 under standard: cheaper than the scoop's 6 again.
    services.set_rules(group, {"preset": "standard", "foul_penalty": 5}, by=alice)
    assert "a foul pays 5 units and a scoop 6 units" in page(as_alice, group)


def test_the_options_being_typed_are_judged(as_alice: Client, group: Group) -> None:
    shown = as_alice.post(
        f"/groups/{group.pk}/rules/",
        {"preset": "classic-1-6", "foul_penalty": "sweep", "show": "1"},
    ).content.decode()
    assert WARNING not in shown
    shown = as_alice.post(
        f"/groups/{group.pk}/rules/", {"preset": "classic-2-4", "show": "1"}
    ).content.decode()
    assert "a foul pays 3 units and a scoop 4 units" in shown
    # Rules that do not hold together are not judged: the group's own are.
    refused = as_alice.post(
        f"/groups/{group.pk}/rules/", {"preset": "standard", "foul_penalty": "lots"}
    )
    assert refused.status_code == 400
    assert "a foul pays 3 units and a scoop 6 units" in refused.content.decode()


def test_a_big_two_group_is_never_warned(as_alice: Client, alice: User, group: Group) -> None:
    services.set_rules(group, "big-two", by=alice)
    assert WARNING not in page(as_alice, group)


def test_the_warning_in_vietnamese(as_alice: Client, group: Group) -> None:
    html = as_alice.get(f"/groups/{group.pk}/rules/", HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert WARNING in html
    assert "binh lủng" in html.split(WARNING, 1)[1].split("</p>", 1)[0]
