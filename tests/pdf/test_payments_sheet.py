"""The sheets a friend can trust, read back from the PDFs with pypdf: the ledger
states the unit's value, the settlement sheet lists the night's payments and the balances
carried in and out, marks corrections and voids with their reasons, colours the units by
their own sign, and says when deals were never reviewed; the chart counts deals evenly."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone, translation

from games import services
from games.models import Deal, Group, Player, Session
from games.sheets import compose
from games.sheets.charts import running_totals_svg
from tests.pdf.conftest import pdf_text
from tests.services.hands import deal

D = Decimal


def test_the_ledger_pdf_states_the_units_value(night: Session, players: dict[str, Player]) -> None:
    text = " ".join(pdf_text(compose.render("ledger", night, players["Ann"])).split())
    assert "One unit is worth 0.50 EUR." in text
    assert "Amounts in EUR." in text


def test_the_sheet_lists_payments_and_balances_carried_in_and_out(
    night: Session, group: Group, players: dict[str, Player], ann_user: User
) -> None:
    # Before the first night: Di paid Cy 1,000.00 (confirmed), dated the day before.
    services.record_payment(
        group,
        players["Di"],
        players["Cy"],
        "1000",
        ann_user,
        date=night.date - datetime.timedelta(days=1),
        confirmed=True,
    )
    made = services.settle_session(night, ann_user)
    services.confirm_payment(made[0], ann_user)
    services.void_payment(made[-1], ann_user, "paid in cash instead")
    text = " ".join(pdf_text(compose.render("sheet", night)).split())
    assert "Payments and balances carried" in text
    first = made[0]
    assert (
        f"{first.payer.name} paid {first.payee.name} {first.amount:,.2f} EUR" in text
        and "(Confirmed)" in text
        and "(Void)" in text
    )
    # Di carried in +1,000.00 (she is owed what she paid ahead), Cy -1,000.00.
    carried = re.search(r"Carried out \(EUR\) (.*?) Carried in:", text)
    assert carried is not None
    rows = dict(re.findall(r"(Ann|Bob|Cy|Di) ([+-]?[\d,.]+ [+-]?[\d,.]+)", carried[1]))
    assert rows["Di"].split()[0] == "+1,000.00" and rows["Cy"].split()[0] == "-1,000.00"


def test_the_sheet_marks_corrections_and_void_reasons(
    night: Session,
) -> None:
    text = " ".join(pdf_text(compose.render("sheet", night)).split())
    # The hand-worked night has deal 8 corrected and deal 9 void (tests/services/test_night).
    changed = text[text.index("Changed since first entered:") :]
    assert re.search(r"deal 8 corrected: hands mixed up", changed)
    assert re.search(r"deal 9 void: entered twice \(counts nowhere\)", changed)
    # And on the deal's own line of the listing, with its reason.
    lines = pdf_text(compose.render("sheet", night)).splitlines()
    assert any(re.match(r"^\s*8 .*corrected: hands mixed up", line) for line in lines)
    assert any(re.match(r"^\s*9 +void: entered twice \(counts nowhere\)$", line) for line in lines)


def test_units_are_coloured_by_their_own_sign(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    # Bob against Ann at x0.1: Bob +4 units but -0.70 EUR (he loses to Cy and Di at x1).
    services.set_pair_stake(group, players["Ann"], players["Bob"], "0.1", by=ann_user)
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, ann_user)
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    html = compose.document_html("sheet", session, None, "A4")
    bob = re.search(r"Bob</td><td class=\"(\w+)\">\+4</td><td class=\"(\w+)\">-0.70</td>", html)
    assert bob is not None and bob.groups() == ("pos", "neg")


def test_deals_nobody_reviewed_are_said_so(
    group: Group, players: dict[str, Player], ann_user: User
) -> None:
    seats = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    session = services.start_session(group, seats, ann_user)
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), ann_user)
    Deal.objects.filter(session=session).update(review=None)
    html = compose.document_html("sheet", session, None, "A4")
    assert "still being reviewed" not in html and "no review" not in html
    old = timezone.now() - datetime.timedelta(hours=1)
    Deal.objects.filter(session=session).update(updated_at=old)
    html = compose.document_html("sheet", session, None, "A4")
    assert "no deal of this night has been reviewed" in html


def test_the_chart_counts_deals_evenly() -> None:
    # Deal 3 is void: deal 4 stands at the end, deal 2 half way, as deal numbers go.
    svg = running_totals_svg([1, 2, 4], {"Ann": [D(1), D(2), D(3)], "Bob": [D(-1), D(-2), D(-3)]})
    points = re.search(r'<polyline points="([^"]+)"', svg)
    assert points is not None
    xs = [float(p.split(",")[0]) for p in points[1].split()]
    start, end = xs[0], xs[-1]
    assert xs[2] - start == (end - start) / 2  # deal 2 of 4
    assert xs[1] - start == (end - start) / 4
    labels = re.findall(r'text-anchor="middle" fill="#444">(\d+)</text>', svg)
    assert labels[-1] == "4"


def test_the_chart_writes_its_numbers_as_the_readers_locale_does() -> None:
    totals = {"Ann": [D("1250.5"), D("-2500")], "Bob": [D("-1250.5"), D("2500")]}

    def axis_and_legend(language: str) -> list[str]:
        with translation.override(language):
            svg = running_totals_svg([1, 2], totals)
        return re.findall(r'text-anchor="end" fill="#444">([^<]+)</text>', svg) + re.findall(
            r'fill="#[0-9a-f]{6}">([^<]+)</text>', svg
        )

    english, vietnamese = axis_and_legend("en"), axis_and_legend("vi")
    assert "-2,000" in english and "1,000" in english
    assert "-2.000" in vietnamese and "1.000" in vietnamese
    assert "Ann -2,500" in english and "Bob +2.500" in vietnamese
    assert "1000" not in " ".join(english + vietnamese)
