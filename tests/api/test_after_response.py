"""Queueing a deal's review waits until the response has gone out (games.lib.after_response)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from games import services, tasks
from games.lib import after_response
from games.models import Deal, Session
from tests.api.conftest import API
from tests.services.hands import deal


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Deal ids whose review was sent to the broker (nothing is actually sent)."""
    calls: list[int] = []
    monkeypatch.setattr(tasks.review_deal, "delay", calls.append)
    return calls


def test_outside_a_request_the_work_runs_at_once() -> None:
    done: list[str] = []
    after_response.after_response(lambda: done.append("ran"))
    assert done == ["ran"]


def test_inside_a_request_the_work_waits_for_the_response_to_finish() -> None:
    done: list[str] = []
    after_response.request_started()
    try:
        after_response.after_response(lambda: done.append("first"))
        after_response.after_response(lambda: done.append("second"))
        assert done == []
    finally:
        after_response.request_finished()
    assert done == ["first", "second"]
    # The request is over: new work runs at once again.
    after_response.after_response(lambda: done.append("later"))
    assert done == ["first", "second", "later"]


def test_work_of_a_response_never_closed_runs_when_the_next_request_starts() -> None:
    done: list[str] = []
    after_response.request_started()
    after_response.after_response(lambda: done.append("left over"))
    after_response.request_started()
    try:
        assert done == ["left over"]
    finally:
        after_response.request_finished()
    assert done == ["left over"]


def test_a_failure_is_logged_and_the_rest_still_runs(caplog: pytest.LogCaptureFixture) -> None:
    done: list[str] = []

    def broken() -> None:
        raise ConnectionError("broker gone")

    after_response.request_started()
    after_response.after_response(broken)
    after_response.after_response(lambda: done.append("ran"))
    with caplog.at_level(logging.ERROR, logger="games.lib.after_response"):
        after_response.request_finished()
    assert done == ["ran"]
    assert "broker gone" in caplog.text


def post_a_deal_noting(
    note: Callable[[services.Recorded], object],
    client: APIClient,
    session: Session,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Any, list[object]]:
    """POST a deal; ``note`` is called once the service has recorded (and committed) it,
    before the answer is made. The test client closes the response, as a WSGI server does
    once it is sent."""
    notes: list[object] = []
    record = services.record_or_replay

    def recording(*args: Any, **kwargs: Any) -> services.Recorded:
        recorded = record(*args, **kwargs)
        notes.append(note(recorded))
        return recorded

    monkeypatch.setattr(services, "record_or_replay", recording)
    answer = client.post(
        f"{API}/sessions/{session.pk}/deals/",
        {"players": deal(Ann="A", Bob="B", Cy="C", Di="D")},
        format="json",
    )
    assert answer.status_code == 201
    return answer, notes


@pytest.mark.django_db(transaction=True)  # real commits, so on_commit work runs
@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_with_a_broker_the_review_is_sent_when_the_response_is_closed(
    as_bob: APIClient, session: Session, sent: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer, sent_when_recorded = post_a_deal_noting(
        lambda recorded: list(sent), as_bob, session, monkeypatch
    )

    assert sent_when_recorded == [[]]
    assert sent == [answer.json()["id"]]


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_review_runs_before_the_answer(
    as_bob: APIClient, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Eager (the embedded default): the page that follows already shows the review.
    _, reviewed_when_recorded = post_a_deal_noting(
        lambda recorded: Deal.objects.get(pk=recorded.deal.pk).review is not None,
        as_bob,
        session,
        monkeypatch,
    )

    assert reviewed_when_recorded == [True]
