"""The settlement sheet read back from the PDF: every number on it is the ledger's."""

import re
from decimal import Decimal
from typing import Any

import pytest
from pypdf import PdfReader

from games import reports, services
from games.engine.rules import Rules
from games.models import Deal, Session
from games.rules_text import describe_rules
from games.sheets import compose
from tests.pdf.conftest import TRANSFER, amount, pdf_pages, pdf_text
from tests.services import hands

D = Decimal


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def test_totals_on_the_sheet_are_the_summary(night: Session) -> None:
    text = pdf_text(compose.render("sheet", night))
    summary = reports.session_summary(night)

    totals = section(text, "Totals\n", "Who pays whom")
    printed = {
        m[1]: (amount(m[2]), amount(m[3]), int(m[4]))
        for m in re.finditer(r"^(\w+) ([-+]?[0-9.]+) ([-+]?[0-9.]+) (\d+) ", totals, re.M)
    }
    assert printed == {p["name"]: (p["units"], p["money"], p["deals"]) for p in summary["players"]}
    # The hand-worked night of tests/services.
    assert {name: units for name, (units, _, _) in printed.items()} == {
        "Ann": D("7.5"),
        "Bob": D("-2.5"),
        "Cy": D("9.5"),
        "Di": D("-14.5"),
    }


def test_transfers_on_the_sheet_are_the_settlement(night: Session) -> None:
    text = pdf_text(compose.render("sheet", night))
    settled = reports.settlement(night)

    fewest = section(text, "Fewest transfers", "Pair by pair\n")
    by_pair = section(text, "Pair by pair\n", "Pair by pair: what")

    def parsed(part: str) -> list[tuple[str, str, Decimal]]:
        return [(m[1], m[2], D(m[3])) for m in TRANSFER.finditer(part)]

    assert parsed(fewest) == [
        (t["from"], t["to"], t["amount"]) for t in settled["fewest_transfers"]
    ]
    assert parsed(by_pair) == [(t["from"], t["to"], t["amount"]) for t in settled["pair_by_pair"]]
    assert len(parsed(fewest)) <= 3
    assert all(currency == "EUR" for *_, currency in TRANSFER.findall(fewest))


def test_deal_by_deal_lines_are_the_stored_results(night: Session) -> None:
    text = pdf_text(compose.render("sheet", night))
    listing = section(text, "Deal by deal", "Marks:")
    lines = {
        int(m[1]): m[2] for m in re.finditer(r"^\s*(\d+) (.*)$", listing, re.M) if m[2].strip()
    }

    for deal in night.deals.all():
        line = lines[deal.number]
        if deal.status == Deal.Status.VOID:
            assert "void" in line
            continue
        units = [D(p["units"]) for p in deal.result["players"]]
        by_seat = dict(zip([p["name"] for p in deal.result["players"]], units, strict=True))
        seat_units = [by_seat[name] for name in ("Ann", "Bob", "Cy", "Di")]
        # The four units come first on the line, in seat order.
        numbers = [D(u) for u in re.findall(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?![\w.])", line)]
        assert numbers[:4] == seat_units, (deal.number, line)
    total = re.search(r"^Total\s+(.*?)\s*units$", listing, re.M)
    assert total is not None
    summary = {p["name"]: p["units"] for p in reports.session_summary(night)["players"]}
    assert [D(u) for u in total[1].split()] == list(summary.values())


def test_marks_for_fouls_surrenders_naturals_and_scoops(night: Session) -> None:
    text = pdf_text(compose.render("sheet", night))
    listing = section(text, "Deal by deal", "Marks:")

    assert re.search(r"^\s*5 .*Bob fouls", listing, re.M)  # deal 5: Bob fouls
    assert re.search(r"^\s*6 .*Di surrenders", listing, re.M)
    assert re.search(r"^\s*7 .*Bob: six pairs", listing, re.M)
    assert re.search(r"^\s*1 .*Bob scoops Ann", listing, re.M)  # hand B scoops hand A


def test_rules_footer_and_page_numbers(night: Session) -> None:
    content = compose.render("sheet", night)
    text = pdf_text(content)
    pages = pdf_pages(content)

    for line in describe_rules(Rules.from_mapping(night.rules)):
        assert " ".join(line.split()) in " ".join(text.split())
    assert "One unit is worth 0.50 EUR." in text
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text
    assert text.count("rules classic-1-6 (group rules v1)") == pages
    assert "Ann's kitchen" in text
    assert "session still open: provisional" in text


@pytest.mark.parametrize(
    ("paper", "size"), [("A4", (595, 842)), ("Letter", (612, 792))], ids=["A4", "Letter"]
)
def test_paper_sizes(night: Session, paper: str, size: tuple[int, int]) -> None:
    import io

    reader = PdfReader(io.BytesIO(compose.render("sheet", night, paper=paper)))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


def test_a_random_night_sheet_matches_its_ledger(random_night: Session) -> None:
    text = pdf_text(compose.render("sheet", random_night))
    summary = reports.session_summary(random_night)
    settled = reports.settlement(random_night)

    totals = section(text, "Totals\n", "Who pays whom")
    for player in summary["players"]:
        match = re.search(rf"^{player['name']} (\S+) (\S+) ", totals, re.M)
        assert match is not None
        assert (D(match[1]), D(match[2])) == (player["units"], player["money"])
    fewest = section(text, "Fewest transfers", "Pair by pair\n")
    assert [(m[1], m[2], D(m[3])) for m in TRANSFER.finditer(fewest)] == [
        (t["from"], t["to"], t["amount"]) for t in settled["fewest_transfers"]
    ]
    assert sum(p["money"] for p in summary["players"]) == 0


def test_suits_in_colour_and_cards_in_the_hands_of_the_night(night: Session) -> None:
    html = compose.document_html("sheet", night, None, "A4")
    text = pdf_text(compose.render("sheet", night))

    # Deal 7: Bob's six pairs (hand D), its cards listed with suit symbols.
    assert re.search(r"^7 Bob six pairs 4♠ 3♥ 3♠ Q♦ Q♥ J♥ J♠ 9♣ A♦ A♥ K♠ K♥ 9♠", text, re.M)
    assert '<span class="card red">3♥</span>' in html
    assert '<span class="card black">4♠</span>' in html
    assert '<span class="card red">Q♦</span>' in html


def test_units_missed_once_the_deals_are_reviewed(
    session: Session, bob_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the reviews run after commit
        services.record_deal(session, hands.deal(Ann="A", Bob="B", Cy="C", Di="D"), bob_user)
    summary = reports.session_summary(session)
    assert summary["reviewed_deals"] == 1

    text = pdf_text(compose.render("sheet", session))

    totals = section(text, "Totals\n", "Who pays whom")
    assert "Units missed" in totals
    for player in summary["players"]:
        line = re.search(rf"^{player['name']} .* (\S+)$", totals, re.M)
        assert line is not None
        assert D(line[1]) == player["units_missed"]
    assert "by the engine's review of every deal" in " ".join(totals.split())


def test_no_units_missed_column_before_any_review(night: Session) -> None:
    assert reports.session_summary(night)["reviewed_deals"] == 0

    assert "Units missed" not in pdf_text(compose.render("sheet", night))


def test_stakes_as_the_deals_were_played(
    night: Session, group: Any, players: Any, ann_user: Any, bob_user: Any
) -> None:
    text = pdf_text(compose.render("sheet", night))
    assert "Every pair plays at the unit." in text

    services.set_pair_stake(group, players["Bob"], players["Ann"], 4, by=ann_user)
    services.record_deal(night, hands.deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)

    text = pdf_text(compose.render("sheet", night))
    assert "One unit is worth 0.50 EUR." in text
    assert "Ann and Bob play at x1, then x4 the unit." in text
