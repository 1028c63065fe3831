"""Owners change the group's name and stakes and its members' roles; members correct a
session's date, place and notes while it is open."""

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Group, Membership, Session


def test_owners_change_the_groups_stakes(group: Group, ann_user: User) -> None:
    changed = services.update_group(group, ann_user, currency="usd", unit_value="0.25")

    group.refresh_from_db()
    assert (group.currency, group.unit_value, group.name) == ("USD", Decimal("0.25"), "Friday club")
    assert changed.unit_value == Decimal("0.25")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "  "}, "name"),
        ({"currency": "EURO"}, "currency"),
        ({"unit_value": "-1"}, "unit_value"),
        ({"unit_value": "0.00001"}, "unit_value"),
    ],
)
def test_bad_group_settings_name_the_field(
    group: Group, ann_user: User, changes: dict[str, str], field: str
) -> None:
    with pytest.raises(services.ServiceError) as caught:
        services.update_group(group, ann_user, **changes)

    assert caught.value.field == field


def test_members_cannot_change_the_group(group: Group, bob_user: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.update_group(group, bob_user, unit_value=10)


def test_roles_change_but_a_group_keeps_an_owner(
    group: Group, ann_user: User, bob_user: User
) -> None:
    ann = group.memberships.get(user=ann_user)
    bob = group.memberships.get(user=bob_user)

    with pytest.raises(services.ServiceError, match="only owner"):
        services.set_member_role(ann, "member", by=ann_user)
    with pytest.raises(services.ServiceError, match="only owner"):
        services.remove_member(ann, by=ann_user)
    with pytest.raises(services.NotAllowed):
        services.set_member_role(bob, "owner", by=bob_user)

    services.set_member_role(bob, "owner", by=ann_user)
    services.set_member_role(ann, "member", by=bob_user)
    services.remove_member(ann, by=bob_user)

    assert list(group.memberships.values_list("user__username", "role")) == [("bob", "owner")]
    assert not Membership.objects.filter(user=ann_user).exists()


def test_members_correct_an_open_session(session: Session, bob_user: User) -> None:
    day = datetime.date(2026, 11, 27)
    services.update_session(session, bob_user, date=day, notes="Cy brought cake")

    session.refresh_from_db()
    assert (session.date, session.place, session.notes) == (day, "Ann's kitchen", "Cy brought cake")
    services.close_session(session, bob_user)
    with pytest.raises(services.SessionClosed):
        services.update_session(session, bob_user, place="Bob's")


def test_strangers_cannot_touch_a_session(session: Session, stranger: User) -> None:
    with pytest.raises(services.NotAllowed):
        services.update_session(session, stranger, place="elsewhere")
