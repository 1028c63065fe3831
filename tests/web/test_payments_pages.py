"""Settling up on the pages: the night's end settles the night in one action,
the payee confirms, the balances page shows what is owed across nights and records,
corrects and voids payments."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Group, Payment, Player, Session
from tests.services.hands import deal

D = Decimal


def _play(session: Session, user: User) -> None:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), user)


def test_settle_this_night_then_confirm_from_the_nights_end(
    as_alice: Client, as_bob: Client, session: Session, bob: User
) -> None:
    _play(session, bob)
    page = as_bob.get(f"/sessions/{session.pk}/summary/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Settle this night" in html and 'id="night-balances"' in html
    done = as_bob.post(f"/sessions/{session.pk}/settle/", {"how": "fewest"})
    assert done.status_code == 302 and done["Location"].endswith("#night-payments")
    payments = list(Payment.objects.filter(session=session))
    assert payments and {p.status for p in payments} == {"pending"}
    html = as_bob.get(f"/sessions/{session.pk}/summary/").content.decode()
    assert "Settle this night" not in html  # everything owed is asked for
    # Alice owns the group: she may confirm each (Bob only what he receives).
    html = as_alice.get(f"/sessions/{session.pk}/summary/").content.decode()
    assert html.count("Confirm received") == len(payments)
    for p in payments:
        as_alice.post(
            f"/groups/{session.group_id}/payments/{p.pk}/confirm/",
            {"next": f"/sessions/{session.pk}/summary/"},
        )
    assert {p.status for p in Payment.objects.filter(session=session)} == {"confirmed"}
    html = as_alice.get(f"/sessions/{session.pk}/summary/").content.decode()
    assert "Confirm received" not in html


def test_a_settled_nights_note_reads_in_the_pages_language(
    as_bob: Client, session: Session, bob: User
) -> None:
    Session.objects.filter(pk=session.pk).update(date="2026-11-06")
    _play(session, bob)
    as_bob.post(f"/sessions/{session.pk}/settle/", {"how": "fewest"})
    summary = f"/sessions/{session.pk}/summary/"
    assert "settles the night of Nov 6, 2026" in as_bob.get(summary).content.decode()
    html = as_bob.get(summary, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "thanh toán đêm 6 thg 11, 2026" in html and "2026-11-06" not in html
    # The correction form offers it as the field's hint, not as text to keep.
    payment = Payment.objects.filter(session=session).first()
    assert payment is not None
    form = as_bob.get(
        f"/groups/{session.group_id}/payments/{payment.pk}/edit/", HTTP_ACCEPT_LANGUAGE="zh-Hant"
    ).content.decode()
    assert 'value="" placeholder="結清 2026年11月6日 那一晚"' in form


def test_the_balances_page_records_corrects_and_voids(
    as_alice: Client,
    as_bob: Client,
    as_mallory: Client,
    group: Group,
    players: dict[str, Player],
    session: Session,
    bob: User,
) -> None:
    _play(session, bob)
    for _ in range(3):  # enough for thousands: 4 deals' worth at 0.5 EUR won't do, so pay
        _play(session, bob)
    url = f"/groups/{group.pk}/balances/"
    page = as_bob.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "To clear everything outstanding" in html
    assert "-16.00 EUR" in html  # Ann: 4 deals of -8 units at 0.50: two decimals
    recorded = as_bob.post(
        f"/groups/{group.pk}/payments/new/",
        {
            "payer": players["Di"].pk,
            "payee": players["Bob"].pk,
            "amount": "1234.5",
            "date": "2026-11-30",
            "note": "cash",
            "confirmed": "on",
            "next": url,
        },
    )
    assert recorded.status_code == 302 and recorded["Location"] == url
    payment = Payment.objects.get(note="cash")
    assert payment.status == "confirmed"  # Bob received it himself
    html = as_bob.get(url).content.decode()
    assert "1,234.50 EUR" in html
    bad = as_bob.post(
        f"/groups/{group.pk}/payments/new/",
        {"payer": players["Di"].pk, "payee": players["Bob"].pk, "amount": "-3", "next": url},
        follow=True,
    )
    assert "more than zero" in bad.content.decode()
    edit = f"/groups/{group.pk}/payments/{payment.pk}/edit/"
    assert as_bob.get(edit).status_code == 200
    fixed = as_bob.post(
        edit,
        {
            "payer": players["Di"].pk,
            "payee": players["Bob"].pk,
            "amount": "1200",
            "date": "2026-11-30",
            "note": "cash",
            "reason": "miscounted",
        },
    )
    assert fixed.status_code == 302
    payment.refresh_from_db()
    assert (payment.amount, payment.version, payment.status) == (D("1200"), 2, "confirmed")
    assert "miscounted" in as_bob.get(edit).content.decode()
    as_bob.post(f"/groups/{group.pk}/payments/{payment.pk}/void/", {"reason": "no"})
    payment.refresh_from_db()
    assert payment.status == "void"
    assert as_mallory.get(url).status_code == 404
    ranged = as_bob.get(url, {"from": "2026-12-25", "to": "2026-12-31"}).content.decode()
    assert "Nothing played or paid yet." in ranged
