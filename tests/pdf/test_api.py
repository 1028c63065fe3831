"""Asking for documents over the API: 202 and a status URL, then the stored file.

Tasks run eagerly here (no broker), once the request's transaction commits.
"""

import datetime
import io
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import OperationalError
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

from games import services, tasks
from games.models import Document, Player, Session
from games.sheets import compose, documents
from tests.api.conftest import API, client_for
from tests.pdf.conftest import TRANSFER, pdf_text
from tests.services.hands import deal

Capture = Callable[..., Any]


@pytest.fixture
def as_ann(ann_user: User) -> APIClient:
    return client_for(ann_user)


@pytest.fixture
def as_bob(bob_user: User) -> APIClient:
    return client_for(bob_user)


@pytest.fixture
def as_eve(stranger: User) -> APIClient:
    return client_for(stranger)


def body_of(download: Any) -> bytes:
    """The bytes of a streamed (file) response."""
    return b"".join(download.streaming_content)


def ask(client: APIClient, capture: Capture, url: str, body: Any = None) -> Any:
    """POST, running the callbacks queued on commit (the eager task) as a real commit would."""
    with capture(execute=True):
        return client.post(url, body or {}, format="json")


def test_a_sheet_is_queued_rendered_and_downloaded(
    night: Session, as_bob: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    response = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")

    assert response.status_code == 202
    status_url = response["Location"]
    assert status_url == response.json()["url"]
    assert status_url.endswith(f"/api/v1/documents/{response.json()['id']}/")

    status = as_bob.get(status_url).json()
    assert status["status"] == "ready"
    assert status["stale"] is False
    assert status["error"] is None
    assert status["kind"] == "sheet" and status["paper"] == "A4"
    download = as_bob.get(status["download"])
    assert download.status_code == 200
    assert download["Content-Type"] == "application/pdf"
    assert 'attachment; filename="friday-club-' in download["Content-Disposition"]
    content = body_of(download)
    settled = as_bob.get(f"{API}/sessions/{night.pk}/settlement/").json()
    assert [list(t[:3]) for t in TRANSFER.findall(pdf_text(content))][:3] == [
        [t["from"], t["to"], f"{Decimal(t['amount']):.2f}"] for t in settled["fewest_transfers"]
    ]


def test_the_file_is_stored_not_rendered_again(
    night: Session,
    as_bob: APIClient,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")
    document = Document.objects.get(pk=first.json()["id"])
    assert str(document.file.name).startswith(f"documents/{night.group_id}/")

    def no_rendering(*args: Any) -> bytes:
        raise AssertionError("rendered again")

    monkeypatch.setattr("games.sheets.compose.render", no_rendering)
    download_url = as_bob.get(first["Location"]).json()["download"]
    for _ in range(2):
        download = as_bob.get(download_url)
        with document.file.open("rb") as stored:
            assert body_of(download) == stored.read()
    # Asking again while nothing changed: the same document, 200.
    again = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]


def test_a_sheet_of_a_session_changed_since_is_stale(
    night: Session,
    as_bob: APIClient,
    bob_user: User,
    ann_user: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    url = f"{API}/sessions/{night.pk}/sheets/"
    first = ask(as_bob, django_capture_on_commit_callbacks, url).json()

    services.record_deal(night, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    assert as_bob.get(first["url"]).json()["stale"] is True

    second = ask(as_bob, django_capture_on_commit_callbacks, url)
    assert second.status_code == 202
    assert second.json()["id"] != first["id"]
    assert second.json()["stale"] is False
    # Edits, voids and closing the session count as changes too.
    latest = night.deals.order_by("number").last()
    assert latest is not None
    services.void_deal(latest, ann_user, reason="misdealt")
    assert as_bob.get(second.json()["url"]).json()["stale"] is True
    third = ask(as_bob, django_capture_on_commit_callbacks, url).json()
    services.close_session(night, ann_user)
    assert as_bob.get(third["url"]).json()["stale"] is True


def test_a_ledger_for_a_seated_player(
    night: Session,
    as_ann: APIClient,
    players: dict[str, Player],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    url = f"{API}/sessions/{night.pk}/ledgers/?player={players['Ann'].pk}"
    response = ask(as_ann, django_capture_on_commit_callbacks, url, {"paper": "Letter"})

    assert response.status_code == 202
    body = response.json()
    assert (body["kind"], body["player"], body["paper"]) == ("ledger", players["Ann"].pk, "Letter")
    download = as_ann.get(as_ann.get(body["url"]).json()["download"])
    text = pdf_text(body_of(download))
    assert "Di pays Ann 6.25 EUR" in text
    assert "ledger-ann-letter" in download["Content-Disposition"]


@pytest.mark.parametrize(
    ("query", "body", "field"),
    [
        ("", {}, "player"),
        ("?player=abc", {}, "player"),
        ("?player=999999", {}, "player"),
        ("?player={ann}", {"paper": "A5"}, "paper"),
    ],
)
def test_ledger_requests_are_checked(
    night: Session,
    as_ann: APIClient,
    players: dict[str, Player],
    query: str,
    body: dict[str, str],
    field: str,
) -> None:
    url = f"{API}/sessions/{night.pk}/ledgers/" + query.format(ann=players["Ann"].pk)
    response = as_ann.post(url, body, format="json")

    assert response.status_code == 400
    assert response.json()["field"] == field
    assert not Document.objects.exists()


def test_a_player_of_the_group_not_at_the_table_has_no_ledger(
    night: Session, as_ann: APIClient, group: Any, ann_user: User
) -> None:
    eve = services.add_player(group, "Eve", by=ann_user)
    response = as_ann.post(f"{API}/sessions/{night.pk}/ledgers/?player={eve.pk}")

    assert response.status_code == 400
    assert response.json() == {
        "error": f"player: no player {eve.pk} sat at session {night.pk}",
        "field": "player",
    }


def test_documents_are_private_to_the_group(
    night: Session,
    as_bob: APIClient,
    as_eve: APIClient,
    players: dict[str, Player],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    made = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")
    body = as_bob.get(made["Location"]).json()

    assert as_eve.post(f"{API}/sessions/{night.pk}/sheets/").status_code == 404
    ledgers = f"{API}/sessions/{night.pk}/ledgers/?player={players['Ann'].pk}"
    assert as_eve.post(ledgers).status_code == 404
    assert as_eve.get(body["url"]).status_code == 404
    assert as_eve.get(body["download"]).status_code == 404
    assert APIClient().get(body["download"]).status_code == 401


def test_a_rendering_error_marks_the_document_failed(
    night: Session,
    as_bob: APIClient,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: Any) -> bytes:
        raise ValueError("no fonts")

    monkeypatch.setattr("games.sheets.compose.render", broken)
    response = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")

    assert response.status_code == 202
    body = as_bob.get(response["Location"]).json()
    assert body["status"] == "failed"
    assert body["error"] == "could not render: ValueError: no fonts"
    assert body["download"] is None
    refused = as_bob.get(f"{API}/documents/{body['id']}/download/")
    assert refused.status_code == 409
    assert refused.json()["error"] == f"document {body['id']} is failed"


def test_transient_errors_are_retried(
    night: Session,
    as_bob: APIClient,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    render = compose.render
    calls: list[int] = []

    def flaky(*args: Any) -> bytes:
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("server closed the connection unexpectedly")
        return render(*args)

    monkeypatch.setattr("games.sheets.compose.render", flaky)
    response = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")

    document = Document.objects.get(pk=response.json()["id"])
    assert document.status == Document.Status.READY
    assert document.attempts == len(calls) == 3


def test_a_transient_error_that_persists_fails_after_the_retries(
    night: Session,
    as_bob: APIClient,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def down(*args: Any) -> bytes:
        raise OperationalError("could not connect to server")

    monkeypatch.setattr("games.sheets.compose.render", down)
    response = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")

    document = Document.objects.get(pk=response.json()["id"])
    assert document.status == Document.Status.FAILED
    assert document.attempts == tasks.MAX_RETRIES + 1
    assert document.error == (
        f"gave up after {tasks.MAX_RETRIES + 1} tries: "
        "OperationalError: could not connect to server"
    )


def test_a_broker_that_cannot_be_reached_fails_the_document(
    night: Session,
    as_bob: APIClient,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unreachable(*args: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.render_document, "delay", unreachable)
    response = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")

    body = as_bob.get(response["Location"]).json()
    assert body["status"] == "failed"
    assert body["error"].startswith("could not queue the rendering: Error 111")


def overdue(document: Document, seconds: int) -> None:
    """Make the document look asked for ``seconds`` and a moment ago."""
    Document.objects.filter(pk=document.pk).update(
        requested_at=document.requested_at - datetime.timedelta(seconds=seconds, milliseconds=1)
    )


def test_a_document_pending_too_long_is_reported_failed(
    night: Session, as_bob: APIClient, bob_user: User
) -> None:
    # Its task was lost (no worker ever took it): nothing will ever render it.
    lost = Document.objects.create(session=night, kind="sheet", requested_by=bob_user)
    overdue(lost, 600)
    recent = Document.objects.create(session=night, kind="sheet", requested_by=bob_user)

    assert as_bob.get(f"{API}/documents/{recent.pk}/").json()["status"] == "pending"
    body = as_bob.get(f"{API}/documents/{lost.pk}/").json()
    assert body["status"] == "failed"
    assert body["error"] == (
        "not rendered within 10 minutes: no worker took the task, or it was lost; "
        "ask for the document again"
    )
    lost.refresh_from_db()
    assert lost.status == Document.Status.FAILED  # recorded, not only reported


@pytest.mark.parametrize(
    ("timeout", "waited", "status", "within"),
    [
        (30, 29, "pending", None),
        (30, 30, "failed", "30 seconds"),
        (1, 1, "failed", "1 second"),
        (90, 90, "failed", "90 seconds"),
        (60, 60, "failed", "1 minute"),
        (7200, 7199, "pending", None),
        (7200, 7200, "failed", "120 minutes"),
    ],
)
def test_the_pending_timeout_is_a_setting(
    night: Session,
    as_bob: APIClient,
    bob_user: User,
    settings: Any,
    timeout: int,
    waited: int,
    status: str,
    within: str | None,
) -> None:
    settings.DOCUMENT_PENDING_TIMEOUT = timeout
    document = Document.objects.create(session=night, kind="sheet", requested_by=bob_user)
    Document.objects.filter(pk=document.pk).update(
        requested_at=document.requested_at - datetime.timedelta(seconds=waited)
    )

    body = as_bob.get(f"{API}/documents/{document.pk}/").json()

    assert body["status"] == status
    if within is not None:
        assert body["error"].startswith(f"not rendered within {within}: no worker took")


def test_expire_documents_fails_overdue_rows_nobody_reads(
    night: Session, bob_user: User, settings: Any
) -> None:
    settings.DOCUMENT_PENDING_TIMEOUT = 45
    forgotten = [
        Document.objects.create(session=night, kind="sheet", requested_by=bob_user)
        for _ in range(2)
    ]
    for document in forgotten:
        overdue(document, 45)
    waiting = Document.objects.create(session=night, kind="sheet", requested_by=bob_user)
    done = Document.objects.create(
        session=night, kind="sheet", requested_by=bob_user, status=Document.Status.READY
    )
    overdue(done, 45)
    out = io.StringIO()

    call_command("expire_documents", stdout=out)

    assert out.getvalue() == "2 overdue documents marked failed\n"
    statuses = dict(Document.objects.values_list("pk", "status"))
    assert statuses == {
        forgotten[0].pk: "failed",
        forgotten[1].pk: "failed",
        waiting.pk: "pending",
        done.pk: "ready",
    }
    assert Document.objects.get(pk=forgotten[0].pk).error.startswith(
        "not rendered within 45 seconds"
    )
    call_command("expire_documents", stdout=out)
    assert out.getvalue().endswith("0 overdue documents marked failed\n")


def test_a_render_lost_with_its_worker_is_done_again(night: Session, bob_user: User) -> None:
    # A worker began it (attempts 1) and was killed; the broker hands the task out again.
    document = Document.objects.create(
        session=night, kind="sheet", requested_by=bob_user, attempts=1
    )

    assert tasks.render_document.apply(args=(document.pk,)).get() == "ready"
    document.refresh_from_db()
    assert document.status == Document.Status.READY
    assert document.attempts == 2


def test_a_file_left_by_a_lost_render_is_not_overwritten_nor_served(
    night: Session, bob_user: User
) -> None:
    document = Document.objects.create(session=night, kind="sheet", requested_by=bob_user)
    assert tasks.render_document.apply(args=(document.pk,)).get() == "ready"
    document.refresh_from_db()
    left = Path(document.file.path)
    left.write_bytes(b"%PDF-1.7 cut short")
    # As if the worker had written the file and been killed before recording it.
    Document.objects.filter(pk=document.pk).update(status=Document.Status.PENDING, file="")

    assert tasks.render_document.apply(args=(document.pk,)).get() == "ready"
    document.refresh_from_db()
    assert Path(document.file.path) != left
    assert left.read_bytes() == b"%PDF-1.7 cut short"
    with document.file.open("rb") as stored:
        assert "Friday club: settlement sheet" in pdf_text(stored.read())


def test_a_document_that_keeps_killing_its_worker_ends_failed(
    night: Session, bob_user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = Document.objects.create(
        session=night, kind="sheet", requested_by=bob_user, attempts=documents.MAX_LOST_RENDERS
    )

    def never(*args: Any) -> bytes:
        raise AssertionError("rendered a document that killed its worker every time")

    monkeypatch.setattr("games.sheets.compose.render", never)

    assert tasks.render_document.apply(args=(document.pk,)).get() == "failed"
    document.refresh_from_db()
    assert document.status == Document.Status.FAILED
    assert document.error == (
        "the worker rendering it stopped 2 times (killed, or out of memory); "
        "ask for the document again"
    )
    assert document.attempts == documents.MAX_LOST_RENDERS


def test_renders_retried_after_errors_are_not_counted_as_lost(
    night: Session, bob_user: User
) -> None:
    # Three renders begun, each failed with an error and retried: this is the fourth try.
    document = Document.objects.create(
        session=night, kind="sheet", requested_by=bob_user, attempts=3
    )

    assert tasks.render_document.apply(args=(document.pk,), retries=3).get() == "ready"
    document.refresh_from_db()
    assert document.status == Document.Status.READY


def test_the_render_task_is_acknowledged_only_when_done() -> None:
    assert tasks.render_document.acks_late is True
    assert tasks.render_document.reject_on_worker_lost is True


def test_a_pending_document_is_not_queued_twice(
    night: Session, as_bob: APIClient, bob_user: User
) -> None:
    pending = Document.objects.create(session=night, kind="sheet", requested_by=bob_user)

    response = as_bob.post(f"{API}/sessions/{night.pk}/sheets/")

    assert response.status_code == 200
    assert response.json()["id"] == pending.pk
    assert response.json()["status"] == "pending"
    assert response.json()["download"] is None


def test_the_task_skips_a_document_no_longer_pending(night: Session, bob_user: User) -> None:
    done = Document.objects.create(
        session=night, kind="sheet", requested_by=bob_user, status=Document.Status.FAILED
    )

    assert tasks.render_document.apply(args=(done.pk,)).get() == "skipped"
    assert tasks.render_document.apply(args=(987654,)).get() == "skipped"
    done.refresh_from_db()
    assert done.status == Document.Status.FAILED


def test_a_documents_file_goes_with_its_group(
    night: Session,
    group: Any,
    as_bob: APIClient,
    ann_user: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    made = ask(as_bob, django_capture_on_commit_callbacks, f"{API}/sessions/{night.pk}/sheets/")
    document = Document.objects.get(pk=made.json()["id"])
    storage, name = document.file.storage, str(document.file.name)
    assert storage.exists(name)

    with django_capture_on_commit_callbacks(execute=True):
        services.delete_group(group, ann_user, confirm=group.name)

    assert not Document.objects.exists()
    assert not storage.exists(name)
