"""The API's summary lists a window of the running totals: the last 200 by
default, any other window with ``running_offset`` and ``running_limit``, each entry the
same as in the full list."""

from typing import Any

import pytest
from django.contrib.auth.models import User

from games import reports
from games.models import Session
from tests.api.conftest import API, client_for


def summary(night: Session, user: User, query: str = "") -> Any:
    answer = client_for(user).get(f"{API}/sessions/{night.pk}/summary/{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def full(night: Session) -> list[Any]:
    return list(reports.jsonable(reports.session_summary(night))["running"])


def test_a_short_session_lists_every_running_total(night: Session, bob_user: User) -> None:
    body = summary(night, bob_user)
    assert body["running"] == full(night)
    assert (body["running_count"], body["running_offset"]) == (11, 0)  # deal 9 is void
    assert body["running_previous"] is None and body["running_next"] is None


@pytest.mark.parametrize(
    ("offset", "limit"), [(None, 1), (None, 4), (0, 3), (2, 5), (8, 3), (10, 1), (6, 1000)]
)
def test_each_window_is_a_slice_of_the_full_list(
    night: Session, bob_user: User, offset: int | None, limit: int
) -> None:
    query = f"?running_limit={limit}" + ("" if offset is None else f"&running_offset={offset}")
    body = summary(night, bob_user, query)
    start = max(0, 11 - limit) if offset is None else offset
    assert body["running"] == full(night)[start : start + limit]
    assert body["running_offset"] == start and body["running_count"] == 11


def test_the_links_walk_the_whole_list(night: Session, bob_user: User) -> None:
    body = summary(night, bob_user, "?running_limit=4")
    assert [r["deal"] for r in body["running"]] == [8, 10, 11, 12]
    while body["running_previous"]:
        body = summary(night, bob_user, "?" + body["running_previous"].split("?", 1)[1])
    assert [r["deal"] for r in body["running"]] == [1, 2, 3, 4]
    walked = []
    while True:
        walked += body["running"]
        if not body["running_next"]:
            break
        body = summary(night, bob_user, "?" + body["running_next"].split("?", 1)[1])
    assert walked == full(night)


@pytest.mark.parametrize(
    "query", ["?running_limit=0", "?running_limit=1001", "?running_offset=-1", "?running_limit=x"]
)
def test_a_bad_window_is_refused(night: Session, bob_user: User, query: str) -> None:
    answer = client_for(bob_user).get(f"{API}/sessions/{night.pk}/summary/{query}")
    assert answer.status_code == 400


def test_past_the_end_lists_nothing(night: Session, bob_user: User) -> None:
    body = summary(night, bob_user, "?running_offset=50")
    assert body["running"] == [] and body["running_next"] is None
    assert body["running_previous"] is not None


def test_the_window_costs_a_fixed_number_of_queries(
    night: Session, bob_user: User, django_assert_max_num_queries: Any
) -> None:
    client = client_for(bob_user)
    with django_assert_max_num_queries(16):
        client.get(f"{API}/sessions/{night.pk}/summary/?running_offset=3&running_limit=2")
