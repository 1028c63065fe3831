"""Damaged exports, fuzzed (hypothesis): an import answers 201 or 400, never 500, and what
it stores is what the API would have stored.

A valid export of three nights (classic, open-face with fantasy land, Big Two closed at its
target; with an edit and a void) is damaged at random: values anywhere replaced by others
(near misses such as "paid", -1, 0.12345, "\\x00", a 101-character key, and random JSON),
keys deleted, list items repeated, dropped or swapped. Each damaged file is imported twice,
as a JSON body (at once) and as an upload (in the background), into empty groups: both
must end the same way, a refusal names the path of its culprit, and an import that goes
through stores only values the services would accept (``tests.reports.storable``).
"""

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import Deal, Group, Player, Session
from tests.api.conftest import API, client_for
from tests.reports.storable import assert_storable
from tests.reports.test_export import strip_times
from tests.services.test_open_face_and_big_two import PLAIN, QUEENS

Capture = Callable[..., Any]

NEAR_MISSES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    2,
    -1,
    10**12,
    1.5,
    "",
    " ",
    "paid",
    "active",
    "void",
    "open",
    "closed",
    "edit",
    "owner",
    "-1",
    "0.12345",
    "1e3",
    "12345678901",
    "NaN",
    "EURO",
    "eur",
    "usd",
    "Ann",
    " Ann",
    "Bob",
    "Zed",
    "standard",
    "ofc",
    "big-two",
    "chinese",
    "open-face",
    "2026-02-30",
    "2026-12-01",
    "2026-12-01T21:30:00",
    "k" * 101,
    "\x00",
    "x\ud800",
    [],
    {},
    ["Ann", "Bob"],
    {"preset": "standard"},
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
values = st.sampled_from(NEAR_MISSES) | json_values


@pytest.fixture
def exported(
    night: Session, group: Group, players: dict[str, Player], ann_user: User
) -> dict[str, Any]:
    ofc = services.start_session(
        group, [players["Ann"], players["Bob"], players["Cy"]], ann_user, rules_override="ofc"
    )
    cy_out = {"name": "Cy", "sat_out": True}
    services.record_deal(
        ofc, [{"name": "Ann", **QUEENS}, {"name": "Bob", **PLAIN}, cy_out], ann_user
    )
    services.record_deal(
        ofc, [{"name": "Ann", **PLAIN}, {"name": "Bob", **QUEENS}, cy_out], ann_user
    )
    big_two = services.start_session(
        group, [players["Bob"], players["Cy"], players["Di"]], ann_user, game="big-two"
    )
    services.record_deal(
        big_two,
        [
            {"name": "Bob", "cards_left": 0},
            {"name": "Cy", "cards": "3c 4d 9h"},
            {"name": "Di", "sat_out": True},
        ],
        ann_user,
    )
    services.close_session(big_two, ann_user)
    data: dict[str, Any] = json.loads(json.dumps(services.export_group(group)))
    return data


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into the document, its root's children first."""
    found: list[tuple[Any, ...]] = []
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        found.append((*prefix, key))
        found.extend(paths(child, (*prefix, key)))
    return found


def reach(data: Any, path: tuple[Any, ...]) -> Any:
    """The container holding the path's last key, or None when the path is gone."""
    for key in path[:-1]:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    if isinstance(data, dict) and path[-1] in data:
        return data
    if isinstance(data, list) and isinstance(path[-1], int) and path[-1] < len(data):
        return data
    return None


@st.composite
def damaged(draw: st.DrawFn, document: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(document)
    # Paths by shape (indices left out), so that the many keys of rules and results do not
    # crowd out a session's date or a deal's number.
    shapes: dict[tuple[Any, ...], list[tuple[Any, ...]]] = {}
    for path in paths(document):
        shapes.setdefault(tuple(k for k in path if not isinstance(k, int)), []).append(path)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(shapes[draw(st.sampled_from(sorted(shapes, key=str)))]))
        parent = reach(data, path)
        if parent is None:
            continue
        key = path[-1]
        how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "repeat", "swap"]))
        if how == "replace":
            parent[key] = draw(values)
        elif how == "delete":
            del parent[key]
        elif how == "repeat" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    return data


def stored_anything(group: Group) -> bool:
    return group.players.exists() or group.sessions.exists()


def test_the_undamaged_export_of_every_game_round_trips(
    exported: dict[str, Any], ann_user: User, bob_user: User
) -> None:
    target = services.create_group(ann_user, "Restored", "USD", 1, "standard")
    services.add_member(target, bob_user, "member", by=ann_user)

    restored = services.import_group(copy.deepcopy(exported), target, ann_user)

    assert_storable(restored, ann_user)
    again = json.loads(json.dumps(services.export_group(restored)))
    assert strip_times(again) == strip_times({**exported, "group": again["group"]})
    big_two = restored.sessions.get(game="big-two")
    assert big_two.status == Session.Status.CLOSED and big_two.closed_by == ann_user


def test_a_damaged_export_is_imported_whole_or_refused_with_its_path(
    exported: dict[str, Any],
    ann_user: User,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    as_ann = client_for(ann_user)
    outcomes: set[int] = set()

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,  # the same examples every run
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(damaged(exported))
    def imports(data: dict[str, Any]) -> None:
        at_once = services.create_group(ann_user, "At once", "USD", 1, "standard")
        uploaded = services.create_group(ann_user, "Uploaded", "USD", 1, "standard")

        # As a client sends it: JSON text, characters outside ASCII escaped.
        text = json.dumps(data)
        response = as_ann.post(
            f"{API}/groups/{at_once.pk}/import/", text, content_type="application/json"
        )
        with django_capture_on_commit_callbacks(execute=True):
            queued = as_ann.post(
                f"{API}/groups/{uploaded.pk}/import/",
                {"file": io.BytesIO(text.encode())},
                format="multipart",
            )
        job = as_ann.get(queued["Location"]).json()

        outcomes.add(response.status_code)
        assert response.status_code in (201, 400), response.content
        if response.status_code == 201:
            assert job["status"] == "done", job
            assert job["deals"] == response.json()["deals"]
            assert_storable(at_once, ann_user)
            assert_storable(uploaded, ann_user)
            return
        body = response.json()
        assert set(body) == {"error", "field"}
        assert body["field"], body
        assert body["error"].startswith(f"{body['field']}: ")
        assert not stored_anything(at_once)
        assert (job["status"], job["error"], job["field"]) == (
            "failed",
            body["error"],
            body["field"],
        )
        assert not stored_anything(uploaded)

    with override_media(tmp_path):
        imports()
    # Both paths were walked: files imported and files refused.
    assert outcomes == {201, 400}
    assert Deal.objects.filter(session__group__name="At once").exists()


def override_media(tmp_path: Path) -> Any:
    from django.test import override_settings

    return override_settings(MEDIA_ROOT=tmp_path / "media")
