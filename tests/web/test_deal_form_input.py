"""The deal form never loses or mis-records a deal, and never answers 500 where the API
answers 400: a reused key with other cards, a seat that sits a deal out, and absurd values
in any of its fields each get a clear error on the page with everything typed kept."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from games import services
from games.models import Group, Player, Session
from tests.services.hands import HANDS
from tests.web.forms import deal_form
from tests.web.test_browser import alice_at, night_owner, type_hands, wait_for_preview

__all__ = ["night_owner"]  # the browser test's fixture, shared


def deal_url(session: Session) -> str:
    return f"/sessions/{session.pk}/deal/"


def preview_url(session: Session) -> str:
    return f"/sessions/{session.pk}/deal/preview/"


def hidden_key(page: str) -> str:
    match = re.search(r'name="idempotency_key" value="([^"]*)"', page)
    assert match is not None
    return match.group(1)


def test_a_reused_key_with_other_cards_shows_the_conflict(session: Session, as_bob: Client) -> None:
    first = {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), "idempotency_key": "k1"}
    assert as_bob.post(deal_url(session), first).status_code == 302
    other = {**deal_form(Ann="B", Bob="A", Cy="C", Di="D"), "idempotency_key": "k1"}

    response = as_bob.post(deal_url(session), other)

    assert response.status_code == 409
    page = response.content.decode()
    assert 'id="form-error"' in page and "deal 1" in page
    assert f'name="p0-front" value="{HANDS["B"]["front"]}"' in page  # what was typed stays
    assert session.deals.count() == 1
    # Saving the form as shown again records these cards as a new deal.
    assert hidden_key(page) != "k1"
    again = {**other, "idempotency_key": hidden_key(page)}
    assert as_bob.post(deal_url(session), again).status_code == 302
    assert session.deals.count() == 2


def test_a_seat_that_sits_out_needs_no_cards(session: Session, as_bob: Client) -> None:
    form = {**deal_form(Ann="A", Bob="B", Cy="C"), "p3-sat_out": "on", "p3-front": "zz"}
    page = as_bob.get(deal_url(session)).content.decode()
    assert 'name="p3-sat_out"' in page

    response = as_bob.post(deal_url(session), form)

    assert response.status_code == 302, response.content.decode()
    stored = session.deals.get()
    assert stored.request["players"][3] == {"name": "Di", "sat_out": True}
    assert [p["name"] for p in stored.result["players"]] == ["Ann", "Bob", "Cy"]
    edit = as_bob.get(f"/sessions/{session.pk}/deals/1/edit/").content.decode()
    assert re.search(r'<input type="checkbox" name="p3-sat_out"[^>]* checked', edit)
    assert not re.search(r'<input type="checkbox" name="p2-sat_out"[^>]* checked', edit)


def test_an_edit_can_make_a_seat_sit_out(session: Session, as_bob: Client) -> None:
    as_bob.post(deal_url(session), deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    form = {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), "p0-sat_out": "on", "reason": "r"}

    response = as_bob.post(f"/sessions/{session.pk}/deals/1/edit/", form)

    assert response.status_code == 302
    assert [p["name"] for p in session.deals.get().result["players"]] == ["Bob", "Cy", "Di"]


def test_the_preview_leaves_a_seat_that_sits_out_alone(session: Session, as_bob: Client) -> None:
    form = {**deal_form(Ann="A", Bob="B", Cy="C"), "p3-sat_out": "on", "p3-front": "zz Ac"}

    body = as_bob.post(preview_url(session), form).json()

    assert [p["name"] for p in body["units"]] == ["Ann", "Bob", "Cy"]
    assert "error" not in body
    assert all(
        not row["error"] and not row["duplicate"] for row in body["seats"][3]["rows"].values()
    )
    assert body["seats"][3].get("sat_out") is True


def test_the_preview_says_when_fewer_than_two_play(session: Session, as_bob: Client) -> None:
    form = {**deal_form(Ann="A"), "p1-sat_out": "on", "p2-sat_out": "on", "p3-sat_out": "on"}

    body = as_bob.post(preview_url(session), form).json()

    assert "two" in body["error"]["message"]


@pytest.mark.parametrize("value", ["abc", "99", "4", "-1", "²", ""])
def test_a_bad_arrange_value_is_a_400_on_the_form_and_the_preview(
    session: Session, as_bob: Client, value: str
) -> None:
    form = {**deal_form(Ann="A", Bob="B"), "arrange": value}

    page = as_bob.post(deal_url(session), form)
    preview = as_bob.post(preview_url(session), form)

    assert page.status_code == 400
    text = page.content.decode()
    assert 'id="form-error"' in text and "is not a seat" in text
    assert f'value="{HANDS["B"]["back"]}"' in text
    assert preview.status_code == 400
    assert "is not a seat" in preview.json()["arrange_error"]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"idempotency_key": "k" * 150}, "100 characters"),
        ({"idempotency_key": "k\x001"}, "NUL"),
    ],
)
def test_a_bad_key_on_the_form_is_a_400(
    session: Session, as_bob: Client, extra: dict[str, str], words: str
) -> None:
    form = {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), **extra}

    response = as_bob.post(deal_url(session), form)

    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="form-error"' in page and words in page
    assert f'value="{HANDS["D"]["middle"]}"' in page
    assert session.deals.count() == 0


@pytest.mark.parametrize("reason", ["x" * 201, "typo\x00"])
def test_an_absurd_reason_is_a_400_with_the_correction_kept(
    session: Session, as_bob: Client, as_alice: Client, reason: str
) -> None:
    as_bob.post(deal_url(session), deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    form = {**deal_form(Ann="B", Bob="A", Cy="C", Di="D"), "reason": reason}

    response = as_bob.post(f"/sessions/{session.pk}/deals/1/edit/", form)
    void = as_alice.post(f"/sessions/{session.pk}/deals/1/void/", {"reason": reason})

    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="form-error"' in page and "reason: " in page
    assert f'name="p0-front" value="{HANDS["B"]["front"]}"' in page
    assert void.status_code == 302
    deal = session.deals.get()
    assert (deal.version, deal.status) == (1, "active")


def big_two(group: Group, players: dict[str, Player], alice: User) -> Session:
    seats = [players[n] for n in ("Ann", "Bob", "Cy")]
    return services.start_session(group, seats, alice, rules_override="big-two")


@pytest.mark.parametrize("count", ["²", "\u0661", "1e3", " 5 x"])
def test_an_odd_count_of_cards_left_is_the_engines_error(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client, count: str
) -> None:
    session = big_two(group, players, alice)
    form: dict[str, Any] = {"p0-cards_left": "0", "p1-cards_left": count, "p2-cards_left": "5"}

    page = as_bob.post(deal_url(session), form)
    preview = as_bob.post(preview_url(session), form)

    assert page.status_code == 400
    assert "cards_left must be a whole number" in page.content.decode()
    assert f'value="{count}"' in page.content.decode()
    assert preview.status_code == 200
    assert "whole number" in preview.json()["error"]["message"]


def test_big_two_seat_sits_out(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    session = big_two(group, players, alice)
    form = {"p0-cards_left": "0", "p1-sat_out": "on", "p2-cards_left": "5"}

    assert as_bob.post(deal_url(session), form).status_code == 302
    assert session.deals.get().request["players"][1] == {"name": "Bob", "sat_out": True}


def test_sitting_out_in_the_browser(chromium: Any, live_server: Any, night_owner: User) -> None:
    group = night_owner.card_groups.get()
    session = services.start_session(group, list(group.players.all()), night_owner)
    page = alice_at(chromium, live_server, f"/sessions/{session.pk}/deal/", timeout_ms=15_000)
    type_hands(page, Ann="A", Bob="B", Cy="C")
    page.fill("#p3-front", "zz")

    page.get_by_label("sits this deal out").nth(3).check()

    wait_for_preview(page)
    heads = page.locator("#preview-body th").all_inner_texts()
    assert heads == ["Ann", "Bob", "Cy"]
    expect(page.locator('fieldset[data-seat="3"]')).to_have_class(re.compile(r"\bsat-out\b"))
    page.get_by_role("button", name="Save deal").click()
    page.wait_for_selector("#scoreboard")
    stored = session.deals.get()
    assert stored.request["players"][3] == {"name": "Di", "sat_out": True}
    page.close()
