"""RULES section 13 on the pages: a Big Two loser marked on the deal form pays for all,
the form keeps the mark when a deal is corrected, a second mark is refused naming the
player, and the owners' rules form offers the new options of each game."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, Session
from games.web import rules_form


def big_two(group: Group, players: dict[str, Player], alice: User) -> Session:
    seats = [players[n] for n in ("Ann", "Bob", "Cy")]
    return services.start_session(group, seats, alice, rules_override="big-two")


def test_a_loser_marked_on_the_form_pays_for_all(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    session = big_two(group, players, alice)
    form = {
        "p0-cards_left": "0",
        "p1-cards_left": "3",
        "p2-cards_left": "5",
        "p2-pays_for_all": "on",
    }

    response = as_bob.post(f"/sessions/{session.pk}/deal/", form)

    assert response.status_code == 302
    deal = session.deals.get()
    assert deal.request["players"][2]["pays_for_all"] is True
    # Cy pays 3 + 5 for all; Bob pays nothing.
    assert [p["units"] for p in deal.result["players"]] == ["8", "0", "-8"]
    edit = as_bob.get(f"/sessions/{session.pk}/deals/{deal.number}/edit/")
    assert 'name="p2-pays_for_all" id="p2-pays_for_all" checked' in edit.content.decode()


def test_two_marks_are_refused_naming_the_player(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    session = big_two(group, players, alice)
    form = {
        "p0-cards_left": "0",
        "p1-cards_left": "3",
        "p1-pays_for_all": "on",
        "p2-cards_left": "5",
        "p2-pays_for_all": "on",
    }

    response = as_bob.post(f"/sessions/{session.pk}/deal/", form)

    assert response.status_code == 400
    assert "Cy: Bob already pays for all" in response.content.decode()
    assert not session.deals.exists()


def test_the_rules_form_offers_the_new_options_of_each_game() -> None:
    assert "ace_bonus" in [o.name for o in rules_form.options_for("mau-binh-saigon")]
    assert "button_stays_in_fantasyland" in [o.name for o in rules_form.options_for("ofc")]
    assert "two_bonus" in [o.name for o in rules_form.options_for("big-two")]
    assert "ace_bonus" not in [o.name for o in rules_form.options_for("big-two")]
