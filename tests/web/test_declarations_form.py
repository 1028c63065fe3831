"""The deal page's declarations: a hand not shown, royalties declared, and a
natural given as its 13 cards."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, Session
from tests.web.forms import deal_form


def test_a_hand_not_shown_is_saved_as_a_foul(session: Session, as_bob: Client) -> None:
    page = as_bob.get(f"/sessions/{session.pk}/deal/").content.decode()
    assert 'name="p0-fouled"' in page and "hand not shown" in page
    # Whatever was typed for Ann is not sent once her hand is marked not shown.
    form = {**deal_form(Bob="B", Cy="C", Di="D"), "p0-front": "Ac", "p0-fouled": "on"}
    assert as_bob.post(f"/sessions/{session.pk}/deal/", form).status_code == 302
    stored = session.deals.get()
    assert stored.request["players"][0] == {"name": "Ann", "fouled": True}
    assert stored.result["players"][0]["units"] == "-9"  # 3 to each of three (classic-1-6)
    board = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert "foul, not shown" in board.split('id="deals"')[1]
    # Editing the deal shows the box ticked.
    edit = as_bob.get(f"/sessions/{session.pk}/deals/1/edit/").content.decode()
    assert 'id="p0-fouled" checked' in edit


def test_a_natural_is_saved_from_its_13_cards(session: Session, as_bob: Client) -> None:
    six_pairs = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c"
    form = {
        "p0-fouled": "on",
        "p1-fouled": "on",
        "p2-fouled": "on",
        "p3-natural": "six_pairs",
        "p3-cards13": six_pairs,
    }
    assert as_bob.post(f"/sessions/{session.pk}/deal/", form).status_code == 302
    di = session.deals.get().request["players"][3]
    assert di == {"name": "Di", "natural": "six_pairs", "cards": six_pairs}


def test_royalties_are_declared_on_the_form_when_the_rules_ask(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    seats = [players[n] for n in ("Ann", "Bob")]
    rules = {"preset": "classic-1-6", "royalties_declared": True}
    session = services.start_session(group, seats, alice, rules_override=rules)
    page = as_bob.get(f"/sessions/{session.pk}/deal/").content.decode()
    assert 'name="p0-royalty-back"' in page
    # Hand C's front Q J 9 holds no royalty: declaring it is refused, the form kept.
    form = {**deal_form(Ann="C", Bob="D"), "p0-royalty-front": "on"}
    refused = as_bob.post(f"/sessions/{session.pk}/deal/", form)
    assert refused.status_code == 400
    assert "declared a royalty on the front row, which holds none" in refused.content.decode()
    assert 'id="p0-royalty-front" checked' in refused.content.decode()
    assert session.deals.count() == 0
