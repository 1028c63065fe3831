"""The per-opponent ledger shows the confirmed payments between the player and each
opponent: in date order with the deals, money only, in the running balances, in
the JSON (whole and streamed), the CSV and the PDF."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import present, reports, services
from games.models import Group, Payment, Player, Session
from games.reports.statement import statement
from games.sheets import compose
from tests.pdf.conftest import pdf_text

pytestmark = pytest.mark.django_db

D = Decimal


@pytest.fixture
def paid(
    night: Session, next_night: Session, group: Group, players: dict[str, Player], ann_user: User
) -> tuple[Payment, Payment]:
    """Bob pays Ann 0.50 for the night (Ann-Bob even in money, Ann +1 unit); the day after
    the next night Ann pays Bob 12.00 (even again: Ann -5 units). A pending payment, a void
    one and one between Cy and Di are on nobody's ledger but their own."""
    first = services.record_payment(
        group,
        players["Bob"],
        players["Ann"],
        "0.5",
        ann_user,
        date=night.date,
        session=night,
        confirmed=True,
    )
    second = services.record_payment(
        group,
        players["Ann"],
        players["Bob"],
        "12",
        ann_user,
        date=next_night.date + datetime.timedelta(days=1),
        note="=cash at the door",
        confirmed=True,
    )
    services.record_payment(group, players["Ann"], players["Bob"], "99", ann_user)
    void = services.record_payment(
        group, players["Bob"], players["Ann"], "7", ann_user, confirmed=True
    )
    services.void_payment(void, ann_user, "recorded twice")
    services.record_payment(group, players["Cy"], players["Di"], "3", ann_user, confirmed=True)
    return first, second


def test_payments_are_lines_in_date_order_with_running_balances(
    paid: tuple[Payment, Payment],
    night: Session,
    next_night: Session,
    group: Group,
    players: dict[str, Player],
) -> None:
    first, second = paid
    ledger = reports.opponent_ledger(group, players["Ann"])
    assert ledger["currency"] == "EUR" and ledger["unit_value"] == D("0.5")
    bob = next(o for o in ledger["opponents"] if o["name"] == "Bob")
    lines = bob["deals"]
    assert [line["kind"] for line in lines] == ["deal"] * 11 + ["payment", "deal", "payment"]
    # Each deal states the unit value and the pair's stake it was played at.
    assert {(d["unit_value"], d["multiplier"]) for d in lines[:11]} == {(D("0.5"), D(1))}
    assert (lines[12]["unit_value"], lines[12]["multiplier"]) == (D("0.5"), D(4))
    assert bob["stake"] == D(4)
    # Bob paid Ann: money only, no units; the balance in money goes back to zero.
    assert lines[11] == {
        "kind": "payment",
        "date": night.date,
        "payment": first.pk,
        "session": night.pk,
        "direction": "received",
        "note": "",
        "units": D(0),
        "money": D("-0.5"),
        "balance_units": D(1),
        "balance_money": D(0),
    }
    assert (lines[12]["balance_units"], lines[12]["balance_money"]) == (D(-5), D("-12"))
    assert lines[13]["payment"] == second.pk and lines[13]["session"] is None
    assert (lines[13]["direction"], lines[13]["money"]) == ("paid", D("12"))
    assert (lines[13]["balance_units"], lines[13]["balance_money"]) == (D(-5), D(0))
    # Won at play, paid (net, by Ann: 12.00 less 0.50), and what is left.
    assert (bob["units"], bob["money"], bob["paid"], bob["balance_money"]) == (
        D(-5),
        D("-11.5"),
        D("11.5"),
        D(0),
    )
    # Nobody else's payments, and not the pending nor the void one.
    assert sum(line["kind"] == "payment" for o in ledger["opponents"] for line in o["deals"]) == 2
    assert ledger["paid"] == D("11.5")
    assert ledger["balance_money"] == ledger["money"] + D("11.5")
    # From Bob's side the same payments, the other way round.
    of_bob = reports.opponent_ledger(group, players["Bob"])
    ann = next(o for o in of_bob["opponents"] if o["name"] == "Ann")
    assert [(line["direction"], line["money"]) for line in ann["deals"] if "direction" in line] == [
        ("paid", D("0.5")),
        ("received", D("-12")),
    ]
    assert ann["balance_money"] == -bob["balance_money"]


def test_a_session_or_dates_take_their_payments(
    paid: tuple[Payment, Payment],
    night: Session,
    next_night: Session,
    group: Group,
    players: dict[str, Player],
) -> None:
    first, second = paid
    ann = players["Ann"]

    def payments(**options: object) -> list[int]:
        ledger = reports.opponent_ledger(group, ann, **options)  # type: ignore[arg-type]
        return [
            line["payment"] for o in ledger["opponents"] for line in o["deals"] if "payment" in line
        ]

    assert payments(session=night) == [first.pk]  # the payments that settle it
    assert payments(session=next_night) == []
    assert payments(date_from=next_night.date) == [second.pk]
    assert payments(date_to=night.date) == [first.pk]


def test_the_stream_and_the_csv_carry_the_payments(
    paid: tuple[Payment, Payment], night: Session, group: Group, players: dict[str, Player]
) -> None:
    first, second = paid
    ann = players["Ann"]
    report = reports.jsonable(reports.opponent_ledger(group, ann))
    text = "".join(reports.opponent_ledger_stream(group, ann))
    assert text == json.dumps(report, ensure_ascii=False, separators=(",", ":"))

    rows = list(csv.DictReader(io.StringIO(reports.opponent_ledger_csv(group, ann))))
    lines = [row for row in rows if row["kind"] == "payment"]
    assert [(row["opponent"], row["payment"]) for row in lines] == [
        ("Bob", str(first.pk)),
        ("Bob", str(second.pk)),
    ]
    assert lines[0] == {
        "player": "Ann",
        "opponent": "Bob",
        "session": str(night.pk),
        "date": night.date.isoformat(),
        "deal": "",
        "multiplier": "",
        "units": "0",
        "money": "-0.50",
        "balance_units": "1",
        "balance_money": "0.00",
        "kind": "payment",
        "payment": str(first.pk),
        "unit_value": "",
        "direction": "received",
        "note": "",
    }
    # The note would start a formula: it lands as text.
    assert lines[1]["note"] == "'=cash at the door"
    assert (lines[1]["money"], lines[1]["balance_units"], lines[1]["balance_money"]) == (
        "12.00",
        "-5",
        "0.00",
    )
    bob_rows = [row for row in rows if row["opponent"] == "Bob"]
    assert [row["kind"] for row in bob_rows] == ["deal"] * 11 + ["payment", "deal", "payment"]
    assert all(row["unit_value"] == "0.50" for row in bob_rows if row["kind"] == "deal")


def test_the_ledger_pdf_lists_the_nights_payments(
    paid: tuple[Payment, Payment], night: Session, players: dict[str, Player]
) -> None:
    text = pdf_text(compose.render("ledger", night, players["Ann"]))
    flat = " ".join(text.split())
    assert "One unit is worth 0.50 EUR." in flat and "Amounts in EUR." in flat
    against_bob = text[text.index("Against Bob") : text.index("Against Cy")]
    # The payment is a line of the listing, after the night's deals, money only.
    assert re.search(r"^\s*P1 +-0\.50 +\+1 +0\.00\s*$", against_bob, re.M), against_bob
    words = " ".join(against_bob.split())
    when = present.day(night.date)  # "Dec 6, 2026"
    assert f"P1, {when}: Bob paid Ann 0.50 EUR; balance after it: +1 units, 0.00 EUR" in words
    assert "Ann and Bob are even" in words
    # The summary: won at play, paid, and the balance; the later payment is another night's.
    summary = re.search(r"^Bob x1 \+1 \+0\.50 -0\.50 0\.00 (.*)$", text, re.M)
    assert summary is not None, text
    assert "P2" not in text


def test_the_statements_balance_units_run_on_from_what_was_carried_in(
    paid: tuple[Payment, Payment],
    night: Session,
    next_night: Session,
    group: Group,
    players: dict[str, Player],
) -> None:
    ann, bob = players["Ann"], players["Bob"]
    whole = statement(group, ann, opponent=bob)
    (entry,) = whole["opponents"]
    # The night (Ann +1 unit), Bob's payment (no units), the next night (-6 at x4), Ann's.
    assert [(line["kind"], line["units"], line["balance_units"]) for line in entry["lines"]] == [
        ("session", D(1), D(1)),
        ("payment", D(0), D(1)),
        ("session", D(-6), D(-5)),
        ("payment", D(0), D(-5)),
    ]
    assert entry["carried_in"] == {"units": D(0), "money": D(0)}
    assert entry["carried_out"] == {"units": D(-5), "money": D(0)}
    # From the next night on: the night and Bob's payment are carried in (+1 unit, even).
    later = statement(group, ann, opponent=bob, date_from=next_night.date)
    (entry,) = later["opponents"]
    assert entry["carried_in"] == {"units": D(1), "money": D(0)}
    assert [line["balance_units"] for line in entry["lines"]] == [D(-5), D(-5)]
    # The ledger of the same pair ends at the same balances.
    ledger = reports.opponent_ledger(group, ann)
    last = next(o for o in ledger["opponents"] if o["id"] == bob.pk)["deals"][-1]
    assert (last["balance_units"], last["balance_money"]) == (D(-5), D(0))
