"""A player's per-opponent ledger read back from the PDF: balances and nets are the ledger's."""

import re
from decimal import Decimal

from django.contrib.auth.models import User

from games import reports, services
from games.models import Group, Player, Session
from games.sheets import compose
from tests.pdf.conftest import pdf_text
from tests.services.hands import deal

D = Decimal


def sections(text: str) -> dict[str, str]:
    """The text under each "Against X" heading, by opponent."""
    parts = re.split(r"^Against (\w+)$", text, flags=re.M)
    return {parts[k]: parts[k + 1] for k in range(1, len(parts), 2)}


def deal_lines(part: str) -> list[list[str]]:
    return [m[0].split() for m in re.finditer(r"^\s*\d+ +x\S+ .*$", part, re.M)]


def test_every_balance_on_the_ledger_is_the_reports(
    night: Session, group: Group, players: dict[str, Player]
) -> None:
    text = pdf_text(compose.render("ledger", night, players["Ann"]))
    ledger = reports.opponent_ledger(group, players["Ann"], session=night)
    by_opponent = sections(text)

    assert list(by_opponent) == [o["name"] for o in ledger["opponents"]] == ["Bob", "Cy", "Di"]
    for opponent in ledger["opponents"]:
        printed = deal_lines(by_opponent[opponent["name"]])
        expected = [
            [
                str(d["deal"]),
                f"x{d['multiplier'].normalize()}",
                d["units"],
                d["money"],
                d["balance_units"],
                d["balance_money"],
            ]
            for d in opponent["deals"]
        ]
        assert [[line[0], line[1], *map(D, line[2:])] for line in printed] == expected
        assert D(printed[-1][5]) == opponent["money"]


def test_the_net_to_settle_with_each_opponent(
    night: Session, group: Group, players: dict[str, Player]
) -> None:
    text = pdf_text(compose.render("ledger", night, players["Ann"]))
    ledger = reports.opponent_ledger(group, players["Ann"], session=night)

    # Ann won 1 unit from Bob, lost 6 to Cy and won 12.5 from Di: at 0.5 EUR a unit.
    assert {o["name"]: o["units"] for o in ledger["opponents"]} == {
        "Bob": D(1),
        "Cy": D(-6),
        "Di": D("12.5"),
    }
    assert "Bob pays Ann 0.50 EUR" in text
    assert "Ann pays Cy 3.00 EUR" in text
    assert "Di pays Ann 6.25 EUR" in text
    total = re.search(r"^All opponents (\S+) (\S+) (\S+) (\S+)$", text, re.M)
    assert total is not None
    # Units, money won, paid (nothing yet) and the balance.
    assert tuple(map(D, total.groups())) == (ledger["units"], ledger["money"], 0, ledger["money"])


def test_the_pairs_stake_is_on_the_ledger(
    night: Session, group: Group, players: dict[str, Player], ann_user: User, bob_user: User
) -> None:
    services.set_pair_stake(group, players["Ann"], players["Bob"], 4, by=ann_user)
    services.record_deal(night, deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)

    text = pdf_text(compose.render("ledger", night, players["Ann"]))
    against_bob = sections(text)["Bob"]

    assert "Stake: x1, then x4 the unit (now x4)" in against_bob
    last = deal_lines(against_bob)[-1]
    # Hand A loses 6 to hand B: at four times the 0.5 unit, 12 EUR.
    assert last[:4] == ["13", "x4", "-6", "-12.00"]


def test_a_player_without_deals_gets_an_empty_ledger(
    session: Session, players: dict[str, Player]
) -> None:
    text = pdf_text(compose.render("ledger", session, players["Cy"]))

    assert "Cy played no deal at this session." in text
    assert "Against" not in text
