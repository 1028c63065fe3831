"""Export and import carry payments: pending, confirmed and void, with their
history and the night they settle; balances are the same after the round trip; a bad
payment in the file refuses the whole file with its path."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import reports, services
from games.errors import ImportRefused
from games.models import Group, LedgerEntry, Payment, Player, Session


@pytest.fixture
def empty(ann_user: User, bob_user: User) -> Group:
    group = services.create_group(ann_user, "Friday club, restored", "USD", 1, "standard")
    services.add_member(group, bob_user, "member", by=ann_user)
    return group


def _balances(group: Group) -> list[dict[str, Any]]:
    body = reports.group_balances(group)
    return [{k: v for k, v in row.items() if k != "id"} for row in body["players"]]


@pytest.fixture
def paid(
    night: Session, next_night: Session, group: Group, players: dict[str, Player], ann_user: User
) -> Group:
    made = services.settle_session(night, ann_user)
    services.confirm_payment(made[0], ann_user)
    services.edit_payment(made[-1], {"amount": "1.25", "note": "part"}, ann_user, "some now")
    services.record_payment(
        group, players["Cy"], players["Di"], "3", ann_user, session=next_night, confirmed=True
    )
    extra = services.record_payment(group, players["Bob"], players["Ann"], "2", ann_user)
    services.void_payment(extra, ann_user, "never paid")
    return group


def test_payments_survive_the_round_trip(
    paid: Group,
    empty: Group,
    ann_user: User,
) -> None:
    data = json.loads(json.dumps(services.export_group(paid)))
    assert len(data["payments"]) == Payment.objects.filter(group=paid).count()
    streamed = json.loads("".join(services.transfer.export_stream(paid)))
    assert streamed["payments"] == data["payments"]
    restored = services.import_group(data, empty, ann_user)
    assert _balances(restored) == _balances(paid)
    assert LedgerEntry.objects.filter(payment__group=restored).count() == (
        Payment.objects.filter(group=paid, status="confirmed").count()
    )
    again = services.export_group(restored)
    assert again["payments"] == data["payments"]
    nights = {p.session.date for p in Payment.objects.filter(group=restored) if p.session}
    assert nights == {p.session.date for p in Payment.objects.filter(group=paid) if p.session}


@pytest.mark.parametrize(
    ("path", "value", "culprit"),
    [
        ("amount", "-1", "payments[0].amount"),
        ("payer", "Nobody", "payments[0].payer"),
        ("status", "maybe", "payments[0].status"),
        ("session", 99, "payments[0].session"),
        ("date", "yesterday", "payments[0].date"),
    ],
)
def test_a_bad_payment_refuses_the_file(
    paid: Group,
    empty: Group,
    ann_user: User,
    path: str,
    value: Any,
    culprit: str,
) -> None:
    data = copy.deepcopy(services.export_group(paid))
    data["payments"][0][path] = value
    with pytest.raises(ImportRefused) as refused:
        services.import_group(data, empty, ann_user)
    assert refused.value.field == culprit
    assert not empty.players.exists() and not Payment.objects.filter(group=empty).exists()


def test_an_export_without_payments_still_imports(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
) -> None:
    data = services.export_group(group)
    del data["payments"]
    restored = services.import_group(data, empty, ann_user)
    assert restored.sessions.count() == 1
    assert reports.group_balances(restored)["players"][0]["paid"] == Decimal(0)
