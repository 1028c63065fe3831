"""An import checks every value of the file as the services check what the API is sent,
and refuses a bad one with the path of its culprit, storing nothing."""

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from games.engine import Rules
from games.models import Deal, Group, LedgerEntry, RuleSet, Session
from tests.api.conftest import API, client_for

Damage = Callable[[dict[str, Any]], Any]


@pytest.fixture
def exported(night: Session, next_night: Session, group: Group) -> dict[str, Any]:
    """The two nights' export, as a file would carry it (deal 8 edited, deal 9 void)."""
    data: dict[str, Any] = json.loads(json.dumps(services.export_group(group)))
    return data


@pytest.fixture
def empty(ann_user: User, bob_user: User) -> Group:
    group = services.create_group(ann_user, "Friday club, restored", "USD", 1, "standard")
    services.add_member(group, bob_user, "member", by=ann_user)
    return group


def first(data: dict[str, Any]) -> dict[str, Any]:
    session: dict[str, Any] = data["sessions"][0]
    return session


def deal(data: dict[str, Any], k: int) -> dict[str, Any]:
    found: dict[str, Any] = first(data)["deals"][k]
    return found


def stored_nothing(group: Group) -> bool:
    """The group as it was created: no players, sessions, deals or ledger rows, its
    settings and its one rule set untouched."""
    group.refresh_from_db()
    return (
        not group.players.exists()
        and not group.sessions.exists()
        and not Deal.objects.filter(session__group=group).exists()
        and not LedgerEntry.objects.filter(deal__session__group=group).exists()
        and (group.currency, str(group.unit_value)) == ("USD", "1.0000")
        and list(RuleSet.objects.filter(group=group).values_list("spec", flat=True)) == ["standard"]
    )


def set_(path: str, value: Any) -> Damage:
    """Replace the value at a path such as ``sessions[0].deals[7].status``."""

    def damage(data: dict[str, Any]) -> None:
        parent, key = walk(data, path)
        parent[key] = value

    return damage


def drop(path: str) -> Damage:
    def damage(data: dict[str, Any]) -> None:
        parent, key = walk(data, path)
        del parent[key]

    return damage


def walk(data: Any, path: str) -> tuple[Any, Any]:
    keys: list[Any] = []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        if name:
            keys.append(name)
        for index in rest.rstrip("]").split("][") if rest else ():
            keys.append(int(index))
    for key in keys[:-1]:
        data = data[key]
    return data, keys[-1]


# (what is damaged, the field named, the words of the message after the field)
REFUSED: list[tuple[Damage, str, str]] = [
    (set_("format", "scorekeeper-group/2"), "format", "not a scorekeeper-group/1 export"),
    (set_("group.currency", "EURO"), "group.currency", "3-letter code"),
    (set_("group.currency", 978), "group.currency", "expected text"),
    (set_("group.unit_value", "-1"), "group.unit_value", "more than 0"),
    (set_("group.unit_value", "0"), "group.unit_value", "more than 0"),
    (set_("group.unit_value", "0.125"), "group.unit_value", "at most 2 decimal places"),
    (set_("group.unit_value", "12345678901"), "group.unit_value", "at most 10,000,000"),
    (set_("group.unit_value", "1e400"), "group.unit_value", "at most 10,000,000"),
    (drop("group.unit_value"), "group.unit_value", "missing"),
    (set_("players", {"Ann": 1}), "players", "expected a list"),
    (set_("players[1].name", ""), "players[1].name", "a player needs a name"),
    (set_("players[1].name", " Bob"), "players[1].name", "spaces"),
    (set_("players[1].name", "B" * 51), "players[1].name", "at most 50 characters"),
    (set_("players[1].name", "Ann"), "players[1].name", "already a player named 'Ann'"),
    (set_("players[1].name", "ANN"), "players[1].name", "already a player named 'Ann'"),
    (set_("players[1].name", "B\u200bob"), "players[1].name", "U+200B ZERO WIDTH SPACE"),
    (set_("players[1].name", "Bo\nb"), "players[1].name", "a control character (U+000A"),
    (set_("players[1].name", "\uff22ob"), "players[1].name", "is not written as a name is stored"),
    (set_("players[1].user", 7), "players[1].user", "expected a username"),
    (set_("rule_sets", []), "rule_sets", "at least one"),
    (set_("rule_sets[0].version", 2), "rule_sets[0].version", "expected 1"),
    (set_("rule_sets[0].spec", "no-such-preset"), "rule_sets[0].spec", "unknown preset"),
    (
        set_("rule_sets[0].spec", {"preset": "standard", "bonus": "9-9"}),
        "rule_sets[0].spec.bonus",
        "bonus",
    ),
    (set_("rule_sets[0].rules.bonus", "2-4"), "rule_sets[0].rules", "not what its spec gives"),
    (set_("stakes[0].multiplier", "-4"), "stakes[0].multiplier", "more than 0"),
    (set_("stakes[0].multiplier", "10.5"), "stakes[0].multiplier", "at most 10"),
    (set_("stakes[0].multiplier", "2.25"), "stakes[0].multiplier", "at most 1 decimal place"),
    (set_("stakes[0].players", ["Ann", "Ann"]), "stakes[0].players", "two different players"),
    (set_("stakes[0].players", ["Ann", "Zed"]), "stakes[0].players[1]", "no player named 'Zed'"),
    (set_("sessions", 5), "sessions", "expected a list"),
    (set_("sessions[0]", "night"), "sessions[0]", "expected an object"),
    (set_("sessions[0].status", "paused"), "sessions[0].status", "'paused' is not one of"),
    (set_("sessions[0].game", "poker"), "sessions[0].game", "'poker' is not one of"),
    (set_("sessions[0].game", "big-two"), "sessions[0].game", "its rules are for chinese"),
    (set_("sessions[0].date", "2026-02-30"), "sessions[0].date", "expected a date"),
    (set_("sessions[0].place", "P" * 101), "sessions[0].place", "at most 100 characters"),
    (set_("sessions[0].place", "Ann's\x00"), "sessions[0].place", "control character"),
    (set_("sessions[0].rule_set", 3), "sessions[0].rule_set", "no rule set version 3"),
    (set_("sessions[0].rules", "big-two"), "sessions[0].rules", "not the rules of"),
    (set_("sessions[0].target_score", "10"), "sessions[0].target_score", "its rules give none"),
    (set_("sessions[0].closed_at", "yesterday"), "sessions[0].closed_at", "date and time"),
    (set_("sessions[0].seats", ["Ann", "Bob"]), "sessions[0].seated_players", "one player"),
    (set_("sessions[0].seats[1]", "Ann"), "sessions[0].seats[1]", "two seats named 'Ann'"),
    (set_("sessions[0].seats[1]", "ann"), "sessions[0].seats[1]", "two seats named 'ann'"),
    (set_("sessions[0].place", "Ann's\u202ekitchen"), "sessions[0].place", "U+202E"),
    (set_("sessions[0].seated_players[1]", "Zed"), "sessions[0].seated_players[1]", "'Zed'"),
    (set_("sessions[0].seated_players[1]", "Ann"), "sessions[0].seated_players[1]", "twice"),
    (set_("sessions[0].deals", {}), "sessions[0].deals", "expected a list"),
    (set_("sessions[0].deals[2]", None), "sessions[0].deals[2]", "expected an object"),
    (set_("sessions[0].deals[7].status", "paid"), "sessions[0].deals[7].status", "'paid'"),
    (set_("sessions[0].deals[1].number", 1), "sessions[0].deals[1].number", "expected 2"),
    (set_("sessions[0].deals[1].number", True), "sessions[0].deals[1].number", "expected 2"),
    (drop("sessions[0].deals[1].number"), "sessions[0].deals[1].number", "missing"),
    (set_("sessions[0].deals[0].version", 2), "sessions[0].deals[0].version", "expected 1"),
    (
        set_("sessions[0].deals[0].idempotency_key", "k" * 101),
        "sessions[0].deals[0].idempotency_key",
        "at most 100 characters",
    ),
    (
        set_("sessions[0].deals[0].rules", "classic-2-4"),
        "sessions[0].deals[0].rules",
        "not its session's rules",
    ),
    (
        set_("sessions[0].deals[0].request.rules", "big-two"),
        "sessions[0].deals[0].request.rules",
        "unknown field",
    ),
    (
        set_("sessions[0].deals[0].request.players[1].name", "Zed"),
        "sessions[0].deals[0].request.players[1].name",
        "not seated",
    ),
    (
        set_("sessions[0].deals[0].request.players[1].front", "2c 2d"),
        "sessions[0].deals[0].request.players[1].front",
        "the front row needs 3",
    ),
    (
        set_("sessions[0].deals[0].request.stakes.unit_value", 0.5),
        "sessions[0].deals[0].request.stakes.unit_value",
        "decimal text",
    ),
    (
        set_("sessions[0].deals[2].result.pairs[0].units", "5"),
        "sessions[0].deals[2].result",
        "does not give its stored result",
    ),
    # A void deal's result, too, is what its request gives under its rules.
    (
        set_("sessions[0].deals[8].result.pairs[0].units", "5"),
        "sessions[0].deals[8].result",
        "does not give its stored result",
    ),
    (set_("sessions[0].deals[8].status", "active"), "sessions[0].deals[8].status", "voided"),
    (set_("sessions[0].deals[7].status", "void"), "sessions[0].deals[7].status", "void"),
    (
        set_("sessions[0].deals[7].revisions[0].action", "undo"),
        "sessions[0].deals[7].revisions[0].action",
        "'undo' is not one of edit, void",
    ),
    (
        set_("sessions[0].deals[7].revisions[0].version", 5),
        "sessions[0].deals[7].revisions[0].version",
        "expected 1",
    ),
    (
        set_("sessions[0].deals[7].revisions[0].result.pairs[0].units", "5"),
        "sessions[0].deals[7].revisions[0].result",
        "does not give its stored result",
    ),
    (
        set_("sessions[0].deals[7].revisions[0].reason", ["typo"]),
        "sessions[0].deals[7].revisions[0].reason",
        "expected text",
    ),
]


@pytest.mark.parametrize(("damage", "field", "words"), REFUSED)
def test_a_bad_value_is_refused_with_its_path_and_nothing_is_stored(
    exported: dict[str, Any],
    empty: Group,
    ann_user: User,
    damage: Damage,
    field: str,
    words: str,
) -> None:
    data = copy.deepcopy(exported)
    damage(data)

    with pytest.raises(services.ImportRefused) as refused:
        services.import_group(data, empty, ann_user)

    assert refused.value.field == field
    assert refused.value.message.startswith(f"{field}: ")
    assert words in refused.value.message
    assert stored_nothing(empty)


def test_the_api_answers_400_naming_the_path(
    exported: dict[str, Any], empty: Group, ann_user: User
) -> None:
    exported["sessions"][1]["status"] = "paid"
    exported["sessions"][0]["deals"][7]["status"] = "paid"

    response = client_for(ann_user).post(
        f"{API}/groups/{empty.pk}/import/", exported, format="json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "error": "sessions[0].deals[7].status: 'paid' is not one of active, void",
        "field": "sessions[0].deals[7].status",
    }
    assert stored_nothing(empty)


@pytest.mark.parametrize(
    "damage",
    [
        # Each of these used to reach the database and answer 500.
        set_("sessions[0].deals[1].number", 1),  # two deals numbered 1
        set_("sessions[0].seated_players[1]", "Ann"),  # one player in two seats
        set_("stakes", [{"players": ["Ann", "Bob"], "multiplier": "2"}] * 2),
        set_("sessions[0].deals[0].idempotency_key", "same"),
    ],
)
def test_values_the_database_would_refuse_answer_400(
    exported: dict[str, Any], empty: Group, ann_user: User, damage: Damage
) -> None:
    damage(exported)
    first(exported)["deals"][1]["idempotency_key"] = "same"

    response = client_for(ann_user).post(
        f"{API}/groups/{empty.pk}/import/", exported, format="json"
    )

    assert response.status_code == 400, response.content
    assert set(response.json()) == {"error", "field"}
    assert response.json()["field"]
    assert stored_nothing(empty)


def test_a_refused_import_leaves_the_group_usable(
    exported: dict[str, Any], empty: Group, ann_user: User
) -> None:
    bad = copy.deepcopy(exported)
    deal(bad, 11)["status"] = "paid"
    with pytest.raises(services.ImportRefused):
        services.import_group(bad, empty, ann_user)

    restored = services.import_group(exported, empty, ann_user)

    assert restored.sessions.count() == 2
    assert Deal.objects.filter(session__group=restored).count() == 13


def _with_rule_set(data: dict[str, Any], spec: Any) -> None:
    """A later rule-set version as an older service stored it, with its resolved rules."""
    data["rule_sets"].append(
        {
            "version": len(data["rule_sets"]) + 1,
            "spec": spec,
            "rules": Rules.from_mapping(spec).to_mapping(),
            "created_by": "ann",
            "created_at": None,
        }
    )


OUT_OF_BOUNDS = {"preset": "classic-1-6", "foul_penalty": "3.25", "naturals": {"dragon": 1e30}}


def test_the_rules_sessions_start_under_are_refused_beyond_the_bounds(
    exported: dict[str, Any], empty: Group, ann_user: User
) -> None:
    data = copy.deepcopy(exported)
    _with_rule_set(data, OUT_OF_BOUNDS)
    path = f"rule_sets[{len(data['rule_sets']) - 1}].spec.foul_penalty"

    with pytest.raises(services.ImportRefused) as refused:
        services.import_group(data, empty, ann_user)

    assert refused.value.field == path
    assert refused.value.message == f"{path}: at most 1 decimal place, got '3.25'"
    assert stored_nothing(empty)


def test_an_earlier_rule_set_beyond_the_bounds_still_loads(
    exported: dict[str, Any], empty: Group, ann_user: User
) -> None:
    # Old data loads: only the rules later deals are played under must fit the bounds.
    data = copy.deepcopy(exported)
    _with_rule_set(data, OUT_OF_BOUNDS)
    _with_rule_set(data, "standard")

    services.import_group(data, empty, ann_user)

    assert empty.rule_sets.count() == len(data["rule_sets"])
