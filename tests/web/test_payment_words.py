"""Payments read from the reader's side: who owes whom, who is owed (and "you" for the
reader's own player), what was sent and waits for its payee to confirm, and a "who pays
whom" line that fills the payment form when tapped.

One deal (Ann A, Bob B, Cy C, Di D at 0.5 EUR a unit): Ann -8 = -4.00 EUR, Bob +4 =
+2.00, Cy +3 = +1.50, Di +1 = +0.50. Alice plays Ann, Bob plays Bob."""

from __future__ import annotations

import re
from decimal import Decimal

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Player, Session
from tests.services.hands import deal


def page_of(client: Client, group: Group, query: str = "") -> str:
    answer = client.get(f"/groups/{group.pk}/balances/{query}")
    assert answer.status_code == 200
    return " ".join(answer.content.decode().split())


def row(html: str, name: str) -> str:
    found = re.search(rf'<tr><th scope="row">{name}</th>(.*?)</tr>', html)
    assert found, name
    return found.group(1)


def test_balances_say_who_owes_and_who_is_owed_from_the_readers_side(
    as_alice: Client,
    as_bob: Client,
    alice: User,
    group: Group,
    players: dict[str, Player],
    session: Session,
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)

    to_alice, to_bob = page_of(as_alice, group), page_of(as_bob, group)

    assert "you owe 4.00 EUR" in row(to_alice, "Ann")
    assert "is owed 2.00 EUR" in row(to_alice, "Bob")
    assert "owes 4.00 EUR" in row(to_bob, "Ann") and "you" not in row(to_bob, "Ann")
    assert "you are owed 2.00 EUR" in row(to_bob, "Bob")
    balance = re.search(r"<strong[^>]*>(.*?)</strong>", row(to_alice, "Ann"))
    assert balance and balance.group(1) == "you owe 4.00 EUR"  # words, not a sign to decode
    # The fewest transfers, as debts, each a tap away from being recorded.
    assert "<strong>Ann</strong> owes <strong>Bob</strong>" in to_alice


def test_a_payment_waiting_for_its_payee_reads_so_on_both_sides(
    as_alice: Client,
    alice: User,
    bob: User,
    group: Group,
    players: dict[str, Player],
    session: Session,
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    payment = services.record_payment(group, players["Ann"], players["Bob"], "2", alice)

    html = page_of(as_alice, group)

    assert "2.00 EUR sent, not yet confirmed" in row(html, "Ann")
    assert "2.00 EUR to confirm" in row(html, "Bob")
    assert (
        "<strong>Ann</strong> says they paid <strong>Bob</strong>"
        ' <span class="amount">2.00 EUR</span>: waiting for Bob to confirm'
    ) in html
    assert "<strong>Ann</strong> paid <strong>Bob</strong>" not in html

    services.confirm_payment(payment, bob)
    html = page_of(as_alice, group)
    assert "<strong>Ann</strong> paid <strong>Bob</strong>" in html
    assert "you owe 2.00 EUR" in row(html, "Ann") and "even" in row(html, "Bob")
    assert "waiting for Bob to confirm" not in html


def test_a_who_pays_whom_line_fills_the_payment_form(
    as_alice: Client,
    alice: User,
    group: Group,
    players: dict[str, Player],
    session: Session,
) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    html = page_of(as_alice, group)
    links = re.findall(r'<a class="record" href="([^"]+)">Record this payment</a>', html)
    assert len(links) == 3  # Ann pays Bob, Cy and Di
    to_bob = next(link for link in links if f"payee={players['Bob'].pk}" in link)

    filled = page_of(as_alice, group, to_bob.replace("&amp;", "&").split("#")[0])

    assert f'<option value="{players["Ann"].pk}" selected>Ann</option>' in filled
    assert f'<option value="{players["Bob"].pk}" selected>Bob</option>' in filled
    amount = re.search(r'<input id="pay-amount"[^>]*value="([\d.]+)"', filled)
    assert amount and Decimal(amount.group(1)) == Decimal("2")
