"""A long session's deals come through the API a page at a time."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.api.conftest import API, client_for
from tests.reports.big_group import build_group

pytestmark = pytest.mark.django_db


def test_the_deals_of_a_long_session_are_paginated(alice: User) -> None:
    session = build_group(alice, 120).sessions.get()
    client = client_for(alice)
    url = f"{API}/sessions/{session.pk}/deals/"
    first = client.get(url).json()
    assert first["count"] == 120
    assert [d["number"] for d in first["results"]] == list(range(1, 51))
    last = client.get(f"{url}?page=3").json()
    assert [d["number"] for d in last["results"]] == list(range(101, 121))
    assert last["next"] is None and last["previous"].endswith("?page=2")
