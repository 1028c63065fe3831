"""A month of four Friday nights, paid off bit by bit, through the API.

Each night Bob enters the same four hands in another rotation; at the end of the first two
nights the suggested transfers are recorded in one action and confirmed (partly: Cy pays
only half of the first night at first); the third night is settled pair by pair and one
payment is voided; the fourth is left owing. Every answer is checked against balances
worked out from the nights' own totals.
"""

from __future__ import annotations

import io
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Group, Player
from tests.api.conftest import API
from tests.services.hands import deal

D = Decimal
NAMES = ("Ann", "Bob", "Cy", "Di")
FRIDAYS = ("2026-11-06", "2026-11-13", "2026-11-20", "2026-11-27")


def night(as_bob: APIClient, group: Group, date: str, rotation: int) -> int:
    response = as_bob.post(
        f"{API}/sessions/", {"group": group.pk, "players": list(NAMES), "date": date}, format="json"
    )
    assert response.status_code == 201, response.content
    pk: int = response.json()["id"]
    letters = "ABCD"[rotation:] + "ABCD"[:rotation]
    for k in range(2):
        shifted = letters[k:] + letters[:k]
        hands = deal(**dict(zip(NAMES, shifted, strict=True)))
        answer = as_bob.post(f"{API}/sessions/{pk}/deals/", {"players": hands}, format="json")
        assert answer.status_code == 201, answer.content
    return pk


def totals(as_bob: APIClient, pk: int) -> dict[str, Decimal]:
    summary = as_bob.get(f"{API}/sessions/{pk}/summary/").json()
    return {p["name"]: D(p["money"]) for p in summary["players"]}


def balances(client: APIClient, group: Group, **query: str) -> dict[str, Any]:
    response = client.get(f"{API}/groups/{group.pk}/balances/", query)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def by_name(body: dict[str, Any], key: str = "balance") -> dict[str, Decimal]:
    return {row["name"]: D(row[key]) for row in body["players"]}


def test_a_month_of_four_nights_with_partial_payments(
    as_alice: APIClient,
    as_bob: APIClient,
    as_mallory: APIClient,
    group: Group,
    players: dict[str, Player],
) -> None:
    nights = [night(as_bob, group, date, k) for k, date in enumerate(FRIDAYS)]
    won = [totals(as_bob, pk) for pk in nights]
    owed = {name: sum((w[name] for w in won), D(0)) for name in NAMES}
    assert by_name(balances(as_bob, group)) == owed
    assert sum(owed.values()) == 0

    # Night 1: "settle this night" records the fewest transfers as pending payments.
    settle = as_bob.post(f"{API}/sessions/{nights[0]}/payments/", {}, format="json")
    assert settle.status_code == 201, settle.content
    pending = settle.json()
    assert pending and all(p["status"] == "pending" for p in pending)
    assert by_name(balances(as_bob, group)) == owed  # pending: nothing counts yet
    assert sum(by_name(balances(as_bob, group), "pending").values()) == 0

    # Alice (the owner) confirms them all but one, which the payer only half paid: that
    # one is corrected to half and confirmed; the rest stays owed.
    paid = {name: D(0) for name in NAMES}
    for k, p in enumerate(pending):
        url = f"{API}/groups/{group.pk}/payments/{p['id']}/"
        amount = D(p["amount"])
        if k == 0:
            amount = amount / 2
            fixed = as_alice.patch(
                url, {"amount": str(amount), "reason": "half now"}, format="json"
            )
            assert fixed.status_code == 200, fixed.content
            assert fixed.json()["history"][0]["action"] == "edit"
        confirmed = as_alice.post(f"{url}confirm/")
        assert confirmed.status_code == 200, confirmed.content
        assert confirmed.json()["status"] == "confirmed"
        again = as_alice.post(f"{url}confirm/")
        assert again.status_code == 409
        paid[p["payer"]["name"]] += amount
        paid[p["payee"]["name"]] -= amount
    expected = {name: owed[name] + paid[name] for name in NAMES}
    assert by_name(balances(as_bob, group)) == expected

    # Night 2, the fewest transfers again: Bob records and Ann confirms what she receives
    # (her own), Alice the guests'.
    second = as_bob.post(f"{API}/sessions/{nights[1]}/payments/", {}, format="json").json()
    for p in second:
        response = as_alice.post(f"{API}/groups/{group.pk}/payments/{p['id']}/confirm/")
        assert response.status_code == 200
        expected[p["payer"]["name"]] += D(p["amount"])
        expected[p["payee"]["name"]] -= D(p["amount"])
    night_two = as_bob.get(f"{API}/sessions/{nights[1]}/payments/").json()
    assert [D(row["balance"]) for row in night_two["players"]] == [D(0)] * 4
    assert night_two["transfers"] == []

    # Night 3, pair by pair; one of them never happened and is voided (with its reason).
    third = as_bob.post(
        f"{API}/sessions/{nights[2]}/payments/", {"pair_by_pair": True}, format="json"
    ).json()
    assert len(third) >= 2
    voided = third[0]
    refused = as_bob.post(
        f"{API}/groups/{group.pk}/payments/{voided['id']}/void/", {"reason": "x"}, format="json"
    )
    if voided["payee"]["name"] != "Bob":
        assert refused.status_code == 400  # Bob is neither the payee nor an owner
    response = as_alice.post(
        f"{API}/groups/{group.pk}/payments/{voided['id']}/void/",
        {"reason": "never paid"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["status"] == "void"
    assert response.json()["history"][-1]["reason"] == "never paid"
    for p in third[1:]:
        as_alice.post(f"{API}/groups/{group.pk}/payments/{p['id']}/confirm/")
        expected[p["payer"]["name"]] += D(p["amount"])
        expected[p["payee"]["name"]] -= D(p["amount"])
    body = balances(as_bob, group)
    assert by_name(body) == expected
    assert sum(expected.values()) == 0

    # Clearing everything: the fewest transfers over the current balances zero them.
    after = dict(expected)
    for t in body["transfers"]:
        after[t["payer"]] += D(t["amount"])
        after[t["payee"]] -= D(t["amount"])
    assert set(after.values()) == {D(0)}
    assert len(body["transfers"]) <= 3

    # A date range: only the fourth night and what was paid that week.
    last_week = balances(as_bob, group, date_from="2026-11-27", date_to="2026-11-30")
    assert by_name(last_week, "won") == {n: won[3][n] for n in NAMES}

    # Per opponent: each pair seen from both sides.
    pairs = body["opponents"]
    for row in pairs:
        mirror = next(
            r for r in pairs if r["player"] == row["opponent"] and r["opponent"] == row["player"]
        )
        assert D(row["balance"]) == -D(mirror["balance"])

    # Ann's statement against Bob: nights and payments in date order, balances running on
    # from what was carried in.
    statement = as_bob.get(
        f"{API}/groups/{group.pk}/statement/",
        {
            "player": str(players["Ann"].pk),
            "opponent": str(players["Bob"].pk),
            "date_from": "2026-11-13",
        },
    )
    assert statement.status_code == 200, statement.content
    (entry,) = statement.json()["opponents"]
    assert entry["name"] == "Bob"
    running = D(entry["carried_in"]["money"])
    dates = []
    for line in entry["lines"]:
        running += D(line["money"])
        assert D(line["balance_money"]) == running
        dates.append(line["date"])
        if line["kind"] == "session":
            assert D(line["unit_value"]) == D("0.5") and D(line["stake"]) == 1
    assert dates == sorted(dates)
    assert D(entry["carried_out"]["money"]) == running
    ann_bob = next(r for r in pairs if r["player"] == "Ann" and r["opponent"] == "Bob")
    assert running == D(ann_bob["balance"])
    csv = as_bob.get(
        f"{API}/groups/{group.pk}/statement/",
        {"player": str(players["Ann"].pk), "format": "csv"},
    )
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0].startswith("player,opponent,kind,date")
    assert sum(1 for line in lines if ",payment," in line) >= 1

    # Lists and strangers.
    listed = as_bob.get(f"{API}/groups/{group.pk}/payments/", {"status": "void"}).json()
    assert [p["id"] for p in listed] == [voided["id"]]
    assert as_mallory.get(f"{API}/groups/{group.pk}/balances/").status_code == 404
    assert as_mallory.post(f"{API}/sessions/{nights[3]}/payments/", {}).status_code == 404


def test_recording_a_payment_and_its_errors(
    as_bob: APIClient, as_alice: APIClient, group: Group, players: dict[str, Player]
) -> None:
    url = f"{API}/groups/{group.pk}/payments/"
    made = as_bob.post(
        url,
        {
            "payer": players["Cy"].pk,
            "payee": players["Bob"].pk,
            "amount": "12.50",
            "date": "2026-11-30",
            "note": "bank transfer",
            "confirmed": True,
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["status"], body["amount"], body["note"]) == ("confirmed", "12.5", "bank transfer")
    bad = as_bob.post(url, {"payer": players["Cy"].pk, "payee": players["Bob"].pk, "amount": "0"})
    assert bad.status_code == 400 and bad.json()["field"] == "amount"
    nobody = as_bob.post(url, {"payer": 999999, "payee": players["Bob"].pk, "amount": "1"})
    assert nobody.status_code == 400 and nobody.json()["field"] == "payer"
    not_theirs = as_bob.post(
        url,
        {"payer": players["Bob"].pk, "payee": players["Cy"].pk, "amount": "1", "confirmed": True},
    )
    assert not_theirs.status_code == 400 and not_theirs.json()["field"] == "status"


@pytest.mark.parametrize("fmt", ["pdf"])
def test_the_statement_pdf_states_the_unit_and_the_payments(
    as_bob: APIClient, group: Group, players: dict[str, Player], fmt: str
) -> None:
    pypdf = pytest.importorskip("pypdf")
    pk = night(as_bob, group, "2026-11-06", 0)
    settle = as_bob.post(f"{API}/sessions/{pk}/payments/", {}, format="json").json()
    as_bob.post(
        f"{API}/groups/{group.pk}/payments/",
        {
            "payer": players["Ann"].pk,
            "payee": players["Bob"].pk,
            "amount": "1234.5",
            "confirmed": True,
        },
        format="json",
    )
    assert settle
    response = as_bob.get(
        f"{API}/groups/{group.pk}/statement/", {"player": str(players["Bob"].pk), "format": fmt}
    )
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/pdf"
    text = "".join(
        page.extract_text() for page in pypdf.PdfReader(io.BytesIO(response.content)).pages
    )
    assert "Bob: statement" in text
    assert "the unit is worth 0.50 EUR" in text
    assert "payment received" in text
    assert "1,234.50" in text
    assert "Balance carried in" in text and "Balance carried out" in text


def test_a_statement_refused_as_pdf_still_says_why(as_bob: APIClient, group: Group) -> None:
    response = as_bob.get(f"{API}/groups/{group.pk}/statement/", {"player": "999", "format": "pdf"})
    assert response.status_code == 400
    assert b"player" in response.content


def test_a_settled_nights_note_answers_in_the_callers_language(
    as_bob: APIClient, group: Group, players: dict[str, Player]
) -> None:
    pk = night(as_bob, group, "2026-11-06", 0)
    made = as_bob.post(f"{API}/sessions/{pk}/payments/?lang=vi", {}, format="json").json()
    assert {(p["note"], p["note_code"]) for p in made} == {
        ("thanh toán đêm 6 thg 11, 2026", "settles-night")
    }
    typed = as_bob.post(
        f"{API}/groups/{group.pk}/payments/",
        {"payer": players["Ann"].pk, "payee": players["Bob"].pk, "amount": "1", "note": "cash"},
        format="json",
    ).json()
    listed = as_bob.get(f"{API}/groups/{group.pk}/payments/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    notes = {p["id"]: (p["note"], p["note_code"]) for p in listed.json()}
    assert notes.pop(typed["id"]) == ("cash", "")
    assert set(notes.values()) == {("结清 2026年11月6日 那一晚", "settles-night")}
    # One payment's history, corrected in English: each version's note as the caller reads it.
    one = f"{API}/groups/{group.pk}/payments/{made[0]['id']}/"
    as_bob.patch(one, {"amount": "0.25", "reason": "less"}, format="json")
    detail = as_bob.get(one, {"lang": "vi"}).json()
    assert detail["note"] == "thanh toán đêm 6 thg 11, 2026"
    assert [(v["note"], v["note_code"]) for v in detail["history"]] == [
        ("thanh toán đêm 6 thg 11, 2026", "settles-night")
    ]
    night_body = as_bob.get(f"{API}/sessions/{pk}/payments/", {"lang": "en"}).json()
    assert {p["note"] for p in night_body["payments"]} == {"settles the night of Nov 6, 2026"}
