"""A group always has a rules version, whichever way it was made or changed.

Version 1 is stored with the group (the ORM, the admin, a script, the service, the API);
a group's last version is never deleted; old databases get one by migration 0015.
"""

from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import ProtectedError
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import services
from games.engine import RuleError, Rules
from games.engine.rules import PRESETS
from games.models import Group, LastRuleSet, Membership, RuleSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="a long table password")


def versions(group: Group) -> list[tuple[int, Any]]:
    return list(group.rule_sets.order_by("version").values_list("version", "spec"))


def test_a_group_made_with_the_orm_has_the_standard_rules() -> None:
    group = Group.objects.create(name="Friday club")

    assert versions(group) == [(1, "standard")]
    assert group.current_rule_set().rules == Rules.from_mapping("standard").to_mapping()


def test_the_orm_takes_the_first_rules_by_name(alice: User) -> None:
    group = Group(name="Mau Binh night")
    group.initial_rules = "mau-binh-south"
    group.save()
    # The keyword works too (a property Django's create() sets), as a script may write it.
    fields: dict[str, Any] = {"name": "Pineapple night", "initial_rules": "pineapple"}
    other = Group.objects.create(**fields)

    assert versions(group) == [(1, "mau-binh-south")]
    assert versions(other) == [(1, "pineapple")]
    assert group.current_rule_set().rules["preset"] == "mau-binh-south"


def test_saving_a_group_again_adds_no_version() -> None:
    group = Group.objects.create(name="Friday club")
    group.name = "Friday table"
    group.save()

    assert versions(Group.objects.get(pk=group.pk)) == [(1, "standard")]


def test_groups_made_in_bulk_have_rules() -> None:
    made = Group.objects.bulk_create([Group(name="One"), Group(name="Two")])

    assert [versions(group) for group in made] == [[(1, "standard")], [(1, "standard")]]


def test_bad_first_rules_store_no_group() -> None:
    group = Group(name="Nowhere")
    group.initial_rules = "no-such-preset"
    with pytest.raises(RuleError, match="unknown preset"):
        group.save()

    assert not Group.objects.exists()


def test_the_admin_adds_a_group_with_the_preset_picked(alice: User) -> None:
    admin = User.objects.create_superuser("root", password="a long admin password")
    client = Client()
    client.force_login(admin)

    form = client.get("/admin/games/group/add/")
    response = client.post(
        "/admin/games/group/add/",
        {
            "name": "Added in the admin",
            "currency": "EUR",
            "unit_value": "1",
            "preset": "ofc",
            **inline_management("memberships"),
            **inline_management("players"),
        },
    )

    assert form.status_code == 200 and b'name="preset"' in form.content
    assert response.status_code == 302, response.content.decode()[:2000]
    group = Group.objects.get(name="Added in the admin")
    assert versions(group) == [(1, "ofc")]
    assert group.current_rule_set().created_by == admin
    # The group's page, once someone belongs to it, answers (it answered 500 before).
    Membership.objects.create(user=alice, group=group, role="owner")
    page = Client()
    page.force_login(alice)
    assert page.get(f"/groups/{group.pk}/").status_code == 200


def inline_management(prefix: str) -> dict[str, str]:
    return {
        f"{prefix}-TOTAL_FORMS": "0",
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def test_the_admin_edits_a_group_without_a_preset_field(alice: User) -> None:
    admin = User.objects.create_superuser("root", password="a long admin password")
    client = Client()
    client.force_login(admin)
    group = services.create_group(alice, "Friday club", "EUR", "1", "classic-1-6")

    form = client.get(f"/admin/games/group/{group.pk}/change/")

    assert form.status_code == 200 and b'name="preset"' not in form.content


def test_the_service_stores_its_rules_and_players(alice: User) -> None:
    group = services.create_group(alice, "Friday club", "EUR", "1", "ofc", ["Ann", "Bob"])

    assert versions(group) == [(1, "ofc")]
    assert group.current_rule_set().created_by == alice
    assert [p.name for p in group.players.all()] == ["Ann", "Bob"]


def test_the_api_creates_a_group_with_rules_and_players(alice: User) -> None:
    client = APIClient()
    client.force_authenticate(alice)

    response = client.post(
        "/api/v1/groups/",
        {"name": "Friday club", "rules": "pineapple", "players": ["Ann", "Bob", "Cy"]},
        format="json",
    )

    assert response.status_code == 201, response.json()
    group = Group.objects.get(pk=response.json()["id"])
    assert versions(group) == [(1, "pineapple")] and response.json()["rules_version"] == 1
    assert sorted(group.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cy"]


def test_the_last_rules_version_cannot_be_deleted(alice: User) -> None:
    group = services.create_group(alice, "Friday club", "EUR", "1", "standard")
    only = group.current_rule_set()

    with pytest.raises(LastRuleSet):
        only.delete()
    with pytest.raises(ProtectedError):
        RuleSet.objects.filter(group=group).delete()
    with pytest.raises(LastRuleSet):
        group.rule_sets.all().delete()

    assert versions(group) == [(1, "standard")]


def test_an_earlier_version_can_go_while_a_later_one_stays(alice: User) -> None:
    group = services.create_group(alice, "Friday club", "EUR", "1", "standard")
    services.set_rules(group, "ofc", by=alice)

    group.rule_sets.get(version=1).delete()

    assert versions(group) == [(2, "ofc")]
    with pytest.raises(LastRuleSet):
        group.rule_sets.get(version=2).delete()


def test_deleting_versions_of_two_groups_is_refused_if_either_would_be_left_bare(
    alice: User,
) -> None:
    first = services.create_group(alice, "First", "EUR", "1", "standard")
    second = services.create_group(alice, "Second", "EUR", "1", "standard")
    services.set_rules(first, "ofc", by=alice)

    with pytest.raises(LastRuleSet):
        RuleSet.objects.filter(version=1).delete()

    assert versions(first) == [(1, "standard"), (2, "ofc")]
    assert versions(second) == [(1, "standard")]


def test_deleting_a_group_takes_its_rules_with_it(alice: User) -> None:
    group = services.create_group(alice, "Friday club", "EUR", "1", "standard")
    services.set_rules(group, "ofc", by=alice)

    services.delete_group(group, alice)

    assert not RuleSet.objects.exists()
    Group.objects.create(name="Another")
    Group.objects.all().delete()
    assert not RuleSet.objects.exists()


def test_the_migration_gives_an_old_group_without_rules_version_1(alice: User) -> None:
    old = Group.objects.create(name="Made in the admin before 0015")
    kept = services.create_group(alice, "Friday club", "EUR", "1", "ofc")
    # An old database: the base manager deletes without the model's rule (as the old
    # admin left things).
    RuleSet._base_manager.filter(group=old).delete()
    assert versions(old) == []
    migration = import_module("games.migrations.0015_groups_keep_rules")

    migration.give_rules(apps, None)

    assert versions(old) == [(1, "standard")]
    assert versions(kept) == [(1, "ofc")]


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("orm create"), st.sampled_from([None, *PRESETS])),
        st.tuples(st.just("service create"), st.sampled_from(list(PRESETS))),
        st.tuples(st.just("set rules"), st.sampled_from(list(PRESETS))),
        st.tuples(st.just("delete a version"), st.integers(0, 5)),
        st.tuples(st.just("delete all versions"), st.none()),
        st.tuples(st.just("delete a group"), st.none()),
        st.tuples(st.just("start a session"), st.none()),
    ),
    max_size=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=OPERATIONS)
def test_no_sequence_of_operations_leaves_a_group_without_rules(
    alice: User, operations: list[tuple[str, Any]]
) -> None:
    with transaction.atomic():
        for operation, argument in operations:
            apply(alice, operation, argument)
            assert not Group.objects.filter(rule_sets__isnull=True).exists(), operation
        transaction.set_rollback(True)


def apply(alice: User, operation: str, argument: Any) -> None:
    group = Group.objects.order_by("-pk").first()
    if operation == "orm create":
        extra = {} if argument is None else {"initial_rules": argument}
        Group.objects.create(name="By a script", **extra)
    elif operation == "service create":
        services.create_group(alice, "By the service", "EUR", "1", argument, ["Ann", "Bob"])
    elif group is None:
        return
    elif operation == "set rules":
        Membership.objects.get_or_create(user=alice, group=group, defaults={"role": "owner"})
        services.set_rules(group, argument, by=alice)
    elif operation == "delete a version":
        chosen = group.rule_sets.order_by("version")[argument : argument + 1].first()
        if chosen is not None:
            refusing(chosen.delete)
    elif operation == "delete all versions":
        refusing(group.rule_sets.all().delete)
    elif operation == "delete a group":
        Membership.objects.get_or_create(user=alice, group=group, defaults={"role": "owner"})
        services.delete_group(group, alice, confirm=group.name)
    elif operation == "start a session" and group.players.count() >= 2:
        Membership.objects.get_or_create(user=alice, group=group, defaults={"role": "owner"})
        services.start_session(group, list(group.players.all()[:2]), alice)


def refusing(delete: Any) -> None:
    """Deleting may be refused (the last version, or one a session started under)."""
    try:
        with transaction.atomic():
            delete()
    except ProtectedError:
        pass
