"""The table-side pages through Django's test client: access, CSRF, forms and their errors."""

from collections.abc import Callable
from contextlib import AbstractContextManager
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Deal, Group, Player, RuleSet, Session
from games.present import signed
from tests.services.hands import HANDS, fouled
from tests.streamed import streamed
from tests.web.conftest import PASSWORD
from tests.web.forms import deal_form

D = Decimal


def urls(session: Session, group: Group) -> list[str]:
    s, g = session.pk, group.pk
    return [
        f"/groups/{g}/",
        f"/groups/{g}/sessions/new/",
        f"/sessions/{s}/",
        f"/sessions/{s}/deal/",
        f"/sessions/{s}/live/",
        f"/sessions/{s}/summary/",
        f"/sessions/{s}/deals/1/edit/",
    ]


def test_every_group_page_needs_a_login(session: Session, group: Group) -> None:
    for url in [*urls(session, group), "/groups/", f"/groups/{group.pk}/rules/"]:
        response = Client().get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url


def test_sign_in_and_out_with_the_pages_forms(alice: User, group: Group) -> None:
    client = Client()
    page = client.get("/accounts/login/")
    assert b'<label for="id_username">' in page.content
    bad = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert bad.status_code == 200
    assert b'role="alert"' in bad.content
    assert b'value="alice"' in bad.content  # the name typed stays
    good = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert good.status_code == 302 and good["Location"] == "/groups/"
    assert "Friday club" in client.get("/groups/").content.decode()
    out = client.post("/accounts/logout/")
    assert out.status_code == 302
    assert client.get("/groups/").status_code == 302


def test_strangers_get_404_everywhere(
    session: Session, group: Group, as_mallory: Client, as_bob: Client
) -> None:
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    for url in urls(session, group):
        assert as_mallory.get(url).status_code == 404, url
    posts = [
        f"/sessions/{session.pk}/deal/",
        f"/sessions/{session.pk}/deal/preview/",
        f"/sessions/{session.pk}/close/",
        f"/sessions/{session.pk}/deals/1/void/",
        f"/groups/{group.pk}/stakes/",
    ]
    for url in posts:
        assert as_mallory.post(url, {}).status_code == 404, url
    assert session.deals.count() == 1 and Session.objects.get(pk=session.pk).is_open


def test_owner_only_pages_answer_403_to_members(
    session: Session, group: Group, as_bob: Client
) -> None:
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    assert as_bob.get(f"/groups/{group.pk}/rules/").status_code == 403
    assert as_bob.post(f"/groups/{group.pk}/rules/", {"preset": "standard"}).status_code == 403
    assert as_bob.post(f"/groups/{group.pk}/stakes/", {"unit_value": "9"}).status_code == 403
    assert as_bob.post(f"/sessions/{session.pk}/deals/1/void/").status_code == 403
    assert group.rule_sets.count() == 1 and session.deals.get().is_active
    page = as_bob.get(f"/groups/{group.pk}/").content.decode()
    assert "Change rules" not in page and "Save stakes" not in page
    assert "Void" not in as_bob.get(f"/sessions/{session.pk}/").content.decode()


def test_posts_need_the_csrf_token(session: Session, alice: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    form = deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    assert client.post(f"/sessions/{session.pk}/deal/", form).status_code == 403
    assert client.post(f"/sessions/{session.pk}/deal/preview/", form).status_code == 403
    assert client.post(f"/sessions/{session.pk}/close/").status_code == 403
    assert session.deals.count() == 0
    page = client.get(f"/sessions/{session.pk}/deal/")
    token = page.context["csrf_token"]
    saved = client.post(f"/sessions/{session.pk}/deal/", {**form, "csrfmiddlewaretoken": token})
    assert saved.status_code == 302 and session.deals.count() == 1


def test_group_page_lists_sessions_standings_rules_and_adds_players(
    session: Session, group: Group, as_bob: Client
) -> None:
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    page = as_bob.get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/sessions/{session.pk}/"' in page
    assert "Ann, Bob, Cy, Di" in page
    # Standings: Bob +4 units (2 EUR) from the first deal of hands.py.
    assert "+4</td>" in page and "+2.00 EUR" in page
    # Each option by its title, a choice by its own title, a table by its name.
    assert "Surrender cost: <strong>2.5</strong>" in page
    assert "Royalty table: <strong>baseline</strong>" in page
    assert "Wheel (A-2-3-4-5): <strong>Lowest straight</strong>" in page
    added = as_bob.post(f"/groups/{group.pk}/", {"name": " Eve "})
    assert added.status_code == 302 and group.players.filter(name="Eve").exists()
    taken = as_bob.post(f"/groups/{group.pk}/", {"name": "Eve"})
    assert taken.status_code == 400
    assert "already has a player named &#x27;Eve&#x27;" in taken.content.decode()
    assert 'value="Eve"' in taken.content.decode()


def test_owner_changes_rules_with_a_preset_and_overrides(group: Group, as_alice: Client) -> None:
    page = as_alice.get(f"/groups/{group.pk}/rules/").content.decode()
    assert "Units a surrendering player pays each opponent" in page  # one sentence each
    assert '<option value="">preset: baseline</option>' in page  # the royalty table
    saved = as_alice.post(
        f"/groups/{group.pk}/rules/",
        {"preset": "classic-2-4", "surrender_cost": "3", "royalty_best_only": "yes", "wheel": ""},
    )
    assert saved.status_code == 302
    latest = group.current_rule_set()
    assert latest.version == 2
    assert latest.spec == {
        "preset": "classic-2-4",
        "surrender_cost": "3",
        "royalty_best_only": True,
    }
    assert latest.rules["surrender_cost"] == "3" and latest.rules["bonus"] == "2-4"


def test_a_bad_option_is_shown_beside_it_and_nothing_typed_is_lost(
    group: Group, as_alice: Client
) -> None:
    response = as_alice.post(
        f"/groups/{group.pk}/rules/",
        {"preset": "classic-1-6", "surrender_cost": "lots", "foul_penalty": "4"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="err-surrender_cost"' in page and "rules.surrender_cost: &#x27;lots&#x27;" in page
    assert 'value="lots"' in page and 'value="4"' in page
    assert RuleSet.objects.filter(group=group).count() == 1


def test_owner_sets_the_stakes(group: Group, players: dict[str, Player], as_alice: Client) -> None:
    as_alice.post(f"/groups/{group.pk}/stakes/", {"unit_value": "2", "currency": "usd"})
    group.refresh_from_db()
    assert (group.unit_value, group.currency) == (D(2), "USD")
    ann, cy = players["Ann"], players["Cy"]
    as_alice.post(
        f"/groups/{group.pk}/stakes/", {"first": ann.pk, "second": cy.pk, "multiplier": "3"}
    )
    assert group.pair_stakes.get().multiplier == 3
    stranger = {"first": ann.pk, "second": "x", "multiplier": "3"}
    assert as_alice.post(f"/groups/{group.pk}/stakes/", stranger).status_code == 404
    bad = as_alice.post(f"/groups/{group.pk}/stakes/", {"unit_value": "-1", "currency": "EUR"})
    assert bad.status_code == 400 and "more than 0" in bad.content.decode()


def test_start_a_session_in_seat_order(
    group: Group, players: dict[str, Player], as_bob: Client
) -> None:
    seats = {f"seat{k}": players[n].pk for k, n in enumerate(("Di", "Ann", "Cy"), start=1)}
    response = as_bob.post(
        f"/groups/{group.pk}/sessions/new/", {**seats, "rules": "", "place": "Di's", "date": ""}
    )
    session = Session.objects.get()
    assert response["Location"] == f"/sessions/{session.pk}/deal/"
    assert list(session.seats.values_list("name", flat=True)) == ["Di", "Ann", "Cy"]
    assert session.rules["preset"] == "classic-1-6" and session.place == "Di's"


def test_start_a_session_with_tonights_preset_and_errors(
    group: Group, players: dict[str, Player], as_bob: Client
) -> None:
    one = as_bob.post(f"/groups/{group.pk}/sessions/new/", {"seat1": players["Ann"].pk})
    assert one.status_code == 400 and "2 to 4 players, got 1" in one.content.decode()
    seats = {"seat1": players["Ann"].pk, "seat2": players["Bob"].pk}
    big_two = as_bob.post(f"/groups/{group.pk}/sessions/new/", {**seats, "rules": "big-two"})
    assert big_two.status_code == 302
    session = Session.objects.get()
    assert session.game == "big-two" and group.current_rule_set().version == 1


def test_a_deal_saved_from_the_form_scores_as_worked_by_hand(
    session: Session, as_bob: Client
) -> None:
    response = as_bob.post(
        f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    )
    assert response["Location"] == f"/sessions/{session.pk}/?saved=1#saved"
    deal = session.deals.get()
    # hands.py: A -8, B +4, C +3, D +1.
    assert {p["name"]: p["units"] for p in deal.result["players"]} == {
        "Ann": "-8",
        "Bob": "4",
        "Cy": "3",
        "Di": "1",
    }
    board = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert "Deal 1, pair by pair" in board
    assert '<span>Bob wins 6 from Ann</span> <span class="muted">scoop</span>' in board


def test_an_error_is_shown_next_to_its_row_and_the_typing_is_kept(
    session: Session, as_bob: Client
) -> None:
    form = deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    form["p2-middle"] = "8c 8d 8h As 2x"
    form["p0-surrender"] = "on"
    response = as_bob.post(f"/sessions/{session.pk}/deal/", form)
    assert response.status_code == 400
    page = response.content.decode()
    feedback = page.split('id="p2-middle-fb"')[1].split("</div>")[0]
    assert "unknown suit &#x27;x&#x27; in &#x27;2x&#x27;" in feedback
    for k, name in enumerate(("Ann", "Bob", "Cy", "Di")):
        for row in ("front", "back"):
            assert f'value="{form[f"p{k}-{row}"]}"' in page, (name, row)
    assert 'value="8c 8d 8h As 2x"' in page
    assert 'name="p0-surrender" id="p0-surrender" checked' in page
    # The other rows still show their hands.
    assert "Full house, Sixes over Tens" in page
    assert session.deals.count() == 0


def test_a_card_given_twice_is_flagged_on_both_rows(session: Session, as_bob: Client) -> None:
    form = deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    form["p1-front"] = "Ac 2d 8s"  # Ann's front holds the Ac
    response = as_bob.post(f"/sessions/{session.pk}/deal/", form)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Ac is also in Bob&#x27;s front" in page
    assert "Ac is also in Ann&#x27;s front" in page


def test_the_preview_names_hands_fouls_duplicates_and_units(
    session: Session, as_bob: Client
) -> None:
    form = deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    bob = fouled("B")
    form.update({"p1-middle": bob["middle"], "p1-back": bob["back"]})
    body = as_bob.post(f"/sessions/{session.pk}/deal/preview/", form).json()
    assert body["seats"][2]["rows"]["back"]["label"] == "Full house, Sixes over Tens"
    assert body["seats"][1]["foul"].startswith("middle Straight, Seven high beats back")
    assert body["seats"][0]["foul"] == ""
    # Bob fouls (3 to each live player); Ann-Cy -1, Ann-Di -1, Cy-Di +1 as in hands.py.
    assert {u["name"]: u["units"] for u in body["units"]} == {
        "Ann": "+1",
        "Bob": "-9",
        "Cy": "+5",
        "Di": "+3",
    }
    cards = body["seats"][0]["rows"]["front"]["cards"]
    assert [(c["rank"], c["suit"], c["red"]) for c in cards] == [
        ("A", "♣", False),
        ("K", "♣", False),
        ("3", "♦", True),
    ]
    form["p3-front"] = "4s 3h Ac"
    twice = as_bob.post(f"/sessions/{session.pk}/deal/preview/", form).json()
    assert twice["seats"][3]["rows"]["front"]["duplicate"] == "Ac is also in Ann's front"
    assert twice["error"]["seat"] == 3 and "appears twice" in twice["error"]["message"]
    assert session.deals.count() == 0
    form["p3-front"] = "4s 4s 3h"
    same_row = as_bob.post(f"/sessions/{session.pk}/deal/preview/", form).json()
    assert same_row["seats"][3]["rows"]["front"]["duplicate"] == "4s is also in this front row"


def test_the_preview_waits_for_every_hand(session: Session, as_bob: Client) -> None:
    body = as_bob.post(
        f"/sessions/{session.pk}/deal/preview/", {"p0-front": "Ac Kc 3d", "p0-middle": "4c 4d"}
    ).json()
    assert body["seats"][0]["rows"]["front"]["label"] == "Ace high, K 3 kickers"
    # A row being filled is counted, not called wrong.
    assert body["seats"][0]["rows"]["middle"]["progress"] == "2 of 5"
    assert body["seats"][0]["rows"]["middle"]["error"] == ""
    assert "units" not in body and "error" not in body


def test_arrange_fills_the_rows_without_javascript(session: Session, as_bob: Client) -> None:
    cards = " ".join(HANDS["C"].values())
    response = as_bob.post(
        f"/sessions/{session.pk}/deal/", {"p2-cards13": cards, "arrange": "2", "p0-front": "x"}
    )
    assert response.status_code == 200
    seat = response.context["seats"][2]["entry"]
    assert (seat.front, seat.middle, seat.back) != ("", "", "")
    labels = [row["feedback"].label for row in response.context["seats"][2]["rows"]]
    assert all(labels) and response.context["seats"][2]["foul"] == ""
    assert response.context["seats"][0]["entry"].front == "x"  # other typing kept
    short = as_bob.post(f"/sessions/{session.pk}/deal/", {"p1-cards13": "Ac Kd", "arrange": "1"})
    assert short.status_code == 400 and "13 different cards are needed" in short.content.decode()
    js = as_bob.post(
        f"/sessions/{session.pk}/deal/preview/", {"p2-cards13": cards, "arrange": "2"}
    ).json()
    assert js["arranged"]["front"] == seat.front and js["arranged"]["back"] == seat.back


def test_surrender_and_natural_from_the_form(session: Session, as_bob: Client) -> None:
    form = deal_form(Bob="A", Cy="B", Ann="D")
    form["p3-surrender"] = "on"
    assert as_bob.post(f"/sessions/{session.pk}/deal/", form).status_code == 302
    form = deal_form(Cy="A", Di="B", Ann="C", Bob="D")
    form["p1-natural"] = "six_pairs"
    assert as_bob.post(f"/sessions/{session.pk}/deal/", form).status_code == 302
    first, second = session.deals.order_by("number")
    # tests/services/test_night.py, deals 6 and 7.
    assert {p["name"]: p["units"] for p in first.result["players"]} == {
        "Ann": "4.5",
        "Bob": "-4.5",
        "Cy": "7.5",
        "Di": "-7.5",
    }
    assert {p["name"]: p["units"] for p in second.result["players"]} == {
        "Ann": "-1",
        "Bob": "9",
        "Cy": "-10",
        "Di": "2",
    }
    board = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert "surrender" in board and "Six pairs" in board


def test_a_form_sent_twice_records_one_deal(session: Session, as_bob: Client) -> None:
    form = {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), "idempotency_key": "k1"}
    as_bob.post(f"/sessions/{session.pk}/deal/", form)
    as_bob.post(f"/sessions/{session.pk}/deal/", form)
    assert session.deals.count() == 1


def test_edit_and_void_keep_the_history_visible(
    session: Session, as_bob: Client, as_alice: Client
) -> None:
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    edit_page = as_bob.get(f"/sessions/{session.pk}/deals/1/edit/").content.decode()
    assert f'value="{HANDS["A"]["front"]}"' in edit_page  # the stored deal, ready to correct
    corrected = as_bob.post(
        f"/sessions/{session.pk}/deals/1/edit/",
        {**deal_form(Di="A", Ann="B", Bob="C", Cy="D"), "reason": "hands mixed up"},
    )
    assert corrected.status_code == 302
    voided = as_alice.post(f"/sessions/{session.pk}/deals/2/void/", {"reason": "entered twice"})
    assert voided.status_code == 302
    first, second = session.deals.order_by("number")
    assert (first.version, second.status) == (2, Deal.Status.VOID)
    board = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert "hands mixed up" in board and "entered twice" in board
    assert "was Ann -8, Bob +4, Cy +3, Di +1" in board
    # Only deal 1 as corrected counts: Ann +4, Bob +3, Cy +1, Di -8.
    summary = as_bob.get(f"/sessions/{session.pk}/summary/").content.decode()
    assert "(void: 2)" in summary
    assert "<strong>Di</strong> pays <strong>Ann</strong>" in summary


def test_closing_shows_who_pays_whom_and_freezes_the_deals(
    session: Session, as_bob: Client
) -> None:
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    closed = as_bob.post(f"/sessions/{session.pk}/close/")
    assert closed["Location"] == f"/sessions/{session.pk}/summary/"
    page = as_bob.get(closed["Location"]).content.decode()
    # Ann -8 units = -4 EUR pays Bob 2, Cy 1.5, Di 0.5 (fewest transfers).
    assert "The night's end" in page
    assert "-4.00 EUR" in page and "+2.00 EUR" in page
    assert "2.00 EUR" in page.split('id="transfers"')[1]
    transfers = page.split('id="transfers"')[1].split("</ul>")[0]
    assert transfers.count("<li>") == 3 and transfers.count("<strong>Ann</strong> pays") == 3
    again = as_bob.post(
        f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    )
    assert again.status_code == 302 and session.deals.count() == 1
    assert "Enter a deal" not in as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert as_bob.get(f"/sessions/{session.pk}/deals/1/edit/").status_code == 302


def test_csv_ledger_of_one_player(
    session: Session, as_bob: Client, players: dict[str, Player]
) -> None:
    as_bob.post(f"/sessions/{session.pk}/deal/", deal_form(Ann="A", Bob="B", Cy="C", Di="D"))
    response = as_bob.get(f"/sessions/{session.pk}/ledger/{players['Ann'].pk}.csv")
    assert response["Content-Type"].startswith("text/csv")
    lines = streamed(response).decode().splitlines()
    assert lines[0].startswith("player,opponent,session")
    assert lines[1].startswith(f"Ann,Bob,{session.pk},") and ",-6,-3.00," in lines[1]


def test_pdf_buttons_ask_the_api_for_the_sheet_and_each_ledger(
    session: Session, as_bob: Client, players: dict[str, Player]
) -> None:
    page = as_bob.get(f"/sessions/{session.pk}/summary/").content.decode()
    assert f'data-job="/api/v1/sessions/{session.pk}/sheets/"' in page
    ann = players["Ann"].pk
    assert f'data-job="/api/v1/sessions/{session.pk}/ledgers/?player={ann}"' in page


@pytest.mark.parametrize("preset", ["big-two"])
def test_big_two_takes_cards_or_a_count(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client, preset: str
) -> None:
    seats = [players[n] for n in ("Ann", "Bob", "Cy")]
    session = services.start_session(group, seats, alice, rules_override=preset)
    page = as_bob.get(f"/sessions/{session.pk}/deal/").content.decode()
    assert 'name="p0-cards_left"' in page and 'name="p0-front"' not in page
    form = {"p0-cards_left": "0", "p1-cards": "3c 9h 2s", "p2-cards_left": "5"}
    assert as_bob.post(f"/sessions/{session.pk}/deal/", form).status_code == 302
    result = session.deals.get().result
    assert {p["name"]: p["units"] for p in result["players"]} == {
        "Ann": "8",
        "Bob": "-3",
        "Cy": "-5",
    }
    bad = as_bob.post(f"/sessions/{session.pk}/deal/", {"p0-cards_left": "0", "p1-cards_left": "x"})
    assert bad.status_code == 400
    assert (
        "cards_left must be a whole number"
        in bad.content.decode().split('id="p1-cards_left-fb"')[1]
    )


def test_open_face_shows_who_is_in_fantasy_land(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    seats = [players[n] for n in ("Ann", "Bob")]
    session = services.start_session(group, seats, alice, rules_override="ofc")
    # Ann's front QQ earns fantasy land under ofc.
    ann = {"front": "Qc Qd 2h", "middle": "3c 3d 5h 5s 7c", "back": "Ac Ad Ah 8c 9d"}
    bob = {"front": "4c 5d 6h", "middle": "Kc Kd Th Js 2c", "back": "Tc Td Ts 9h 9s"}
    form = {f"p0-{r}": v for r, v in ann.items()} | {f"p1-{r}": v for r, v in bob.items()}
    assert as_bob.post(f"/sessions/{session.pk}/deal/", form).status_code == 302
    assert (
        "In fantasy land next deal: <strong>Ann</strong>"
        in as_bob.get(f"/sessions/{session.pk}/").content.decode()
    )
    page = as_bob.get(f"/sessions/{session.pk}/deal/").content.decode()
    assert "in fantasy land · 13 cards" in page and 'name="p0-discards"' in page
    # Plain open-face refuses discards outside fantasy land: Bob is offered no box.
    assert 'name="p1-discards"' not in page


def test_pineapple_offers_every_seat_its_discards(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    seats = [players[n] for n in ("Ann", "Bob")]
    session = services.start_session(group, seats, alice, rules_override="pineapple")
    page = as_bob.get(f"/sessions/{session.pk}/deal/").content.decode()
    assert 'name="p0-discards"' in page and 'name="p1-discards"' in page


def test_the_scoreboard_names_a_criss_cross_natural(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    # Criss Cross keeps each player's two hands under "hands"; Bob's second is hand D,
    # declared as six pairs.
    seats = [players[n] for n in ("Ann", "Bob")]
    session = services.start_session(group, seats, alice, rules_override={"criss_cross": True})
    natural = {**HANDS["D"], "natural": "six_pairs"}
    hands = [
        {"name": "Ann", "hands": [HANDS["A"], HANDS["C"]]},
        {"name": "Bob", "hands": [HANDS["B"], natural]},
    ]
    services.record_deal(session, hands, alice)
    board = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    deals = board.split('id="deals"')[1]
    assert "Six pairs" in deals
    # The last deal pair by pair tells each hand's settlement, naming the natural.
    last = board.split('id="last-h"')[1].split("</section>")[0]
    assert "hand 2: natural: six pairs" in last


def test_a_false_natural_is_refused_beside_its_player(session: Session, as_bob: Client) -> None:
    form = {**deal_form(Ann="A", Bob="B", Cy="C", Di="D"), "p0-natural": "six_pairs"}
    response = as_bob.post(f"/sessions/{session.pk}/deal/", form)
    assert response.status_code == 400
    seat_error = response.content.decode().split('id="p0-error"')[1].split("</p>")[0]
    assert "Ann declared six_pairs, but the cards do not make it" in seat_error
    assert '<option value="six_pairs" selected>' in response.content.decode()
    assert session.deals.count() == 0


def test_saving_the_form_keeps_a_custom_table_agreed_through_the_api(
    group: Group, alice: User, as_alice: Client
) -> None:
    custom = {"preset": "classic-1-6", "royalties": {"back": {"full_house": 4}}}
    services.set_rules(group, custom, by=alice)
    page = as_alice.get(f"/groups/{group.pk}/rules/").content.decode()
    assert '<option value="">preset: the agreed custom table</option>' in page
    as_alice.post(f"/groups/{group.pk}/rules/", {"preset": "classic-1-6", "surrender_cost": "3"})
    assert group.current_rule_set().spec == {**custom, "surrender_cost": "3"}
    as_alice.post(f"/groups/{group.pk}/rules/", {"preset": "classic-2-4"})
    assert group.current_rule_set().spec == "classic-2-4"


def test_the_scoreboard_shows_how_the_last_deal_could_have_been_set(
    session: Session,
    as_bob: Client,
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[list[Any]]],
) -> None:
    form = deal_form(Ann="A", Bob="B", Cy="C", Di="D")
    form.update({f"p1-{row}": cards for row, cards in fouled("B").items()})
    with django_capture_on_commit_callbacks(execute=False) as queued:
        as_bob.post(f"/sessions/{session.pk}/deal/", form)
    waiting = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    assert "How deal 1 could have been set" in waiting
    assert "Being worked out" in waiting

    for review in queued:
        review()

    board = as_bob.get(f"/sessions/{session.pk}/").content.decode()
    stored = session.deals.get().review
    assert stored is not None
    bob = next(p for p in stored["players"] if p["name"] == "Bob")
    # Bob fouled hand B (-9, worked out in tests/services/test_night.py, deal 5); set as
    # dealt, B wins 4 against these hands, so the best setting wins at least that.
    assert bob["actual_units"] == "-9" and D(bob["best_units"]) >= 4
    assert (
        f"could have won {signed(D(bob['best_units']))} instead of {signed(D(-9))}"
        f' (<span class="missed">{bob["units_missed"]} missed</span>), without the foul'
    ) in board
    summary = as_bob.get(f"/sessions/{session.pk}/summary/").content.decode()
    assert "1 of 1 deal reviewed" in summary
    assert f'<td class="num">{bob["units_missed"]}</td></tr>' in summary


def test_the_add_player_form_stores_a_clean_name_and_refuses_a_look_alike(
    group: Group, session: Session, as_bob: Client
) -> None:
    added = as_bob.post(f"/groups/{group.pk}/", {"name": "\uff25ve  Lee"}, follow=True)
    assert added.status_code == 200 and group.players.filter(name="Eve Lee").exists()
    assert "Eve Lee joined the table." in added.content.decode()
    twin = as_bob.post(f"/groups/{group.pk}/", {"name": "eve lee"})
    assert twin.status_code == 400
    assert "already has a player named &#x27;Eve Lee&#x27;" in twin.content.decode()
    assert 'value="eve lee"' in twin.content.decode()  # what was typed stays in the field
    hidden = as_bob.post(f"/groups/{group.pk}/", {"name": "\u200b"})
    assert hidden.status_code == 400
    assert "U+200B ZERO WIDTH SPACE" in hidden.content.decode()


def test_the_scoreboard_says_why_big_two_closed_at_its_target(
    group: Group, players: dict[str, Player], alice: User, as_bob: Client
) -> None:
    seats = [players[n] for n in ("Ann", "Bob")]
    session = services.start_session(group, seats, alice, game="big-two", target_score=10)
    form = {"p0-cards_left": "0", "p1-cards_left": "12"}  # Bob -12: past 10
    saved = as_bob.post(f"/sessions/{session.pk}/deal/", form, follow=True)
    note = saved.content.decode().split('id="closed-at-target"')[1].split("</p>")[0]
    assert note == ">The session is closed: Bob lost 12, the target is 10."
