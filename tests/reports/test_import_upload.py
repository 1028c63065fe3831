"""Export streamed, import uploaded: a group of any size goes from one group to another.

The export is written piece by piece (the same document as before); the import takes the
file as an upload, stores it, and imports it in the background, its status read from an
``ImportJob`` row. Tasks run eagerly here (no broker), once the request's transaction
commits, as the PDF documents' do.
"""

import datetime
import io
import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from kombu.exceptions import OperationalError as BrokerError
from rest_framework.test import APIClient

from games import reports, services
from games.models import Deal, Group, ImportJob, LedgerEntry, Session
from games.services import imports, transfer
from tests.api.conftest import API, client_for
from tests.reports.big_group import build_group
from tests.reports.test_export import without_ids

Capture = Callable[..., Any]


@pytest.fixture(autouse=True)
def media_root(settings: Any, tmp_path: Path) -> Path:
    root: Path = tmp_path / "media"
    settings.MEDIA_ROOT = root
    return root


@pytest.fixture
def empty(ann_user: User, bob_user: User) -> Group:
    group = services.create_group(ann_user, "Friday club, restored", "USD", 1, "standard")
    services.add_member(group, bob_user, "member", by=ann_user)
    return group


def streamed(response: Any) -> bytes:
    """The body of a streamed response."""
    assert response.streaming
    return b"".join(response.streaming_content)


def exported_bytes(client: APIClient, group: Group) -> bytes:
    response = client.get(f"{API}/groups/{group.pk}/export/")
    assert response.status_code == 200
    return streamed(response)


def upload(client: APIClient, group: Group, content: bytes, capture: Capture) -> Any:
    """POST the file as a multipart upload, running the queued import as a commit would."""
    with capture(execute=True):
        return client.post(
            f"{API}/groups/{group.pk}/import/",
            {"file": io.BytesIO(content)},
            format="multipart",
        )


def test_the_export_is_streamed_and_is_the_same_document(
    night: Session, next_night: Session, group: Group, ann_user: User, monkeypatch: Any
) -> None:
    # Small pieces, one session per query, two deals per chunk: every seam is crossed.
    monkeypatch.setattr(transfer, "STREAM_PIECE", 1)
    monkeypatch.setattr(transfer, "SESSIONS_PER_QUERY", 1)
    monkeypatch.setattr(transfer, "DEALS_PER_CHUNK", 2)
    response: Any = client_for(ann_user).get(f"{API}/groups/{group.pk}/export/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="group-{group.pk}.json"'
    pieces = list(response.streaming_content)
    assert len(pieces) > 10
    text = b"".join(pieces).decode()
    assert text == transfer.dumps(services.export_group(group))
    assert json.loads(text)["sessions"][0]["deals"][8]["status"] == "void"


def test_exporting_reads_a_bounded_amount_at_a_time(ann_user: User, monkeypatch: Any) -> None:
    """The stream holds a chunk of deals at a time; the whole document holds them all."""
    group = build_group(ann_user, deals=600)
    monkeypatch.setattr(transfer, "DEALS_PER_CHUNK", 50)

    def peak(work: Callable[[], Any]) -> int:
        tracemalloc.start()
        try:
            work()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    streamed = peak(lambda: sum(len(piece) for piece in transfer.export_stream(group)))
    whole = peak(lambda: transfer.dumps(services.export_group(group)))

    assert streamed * 3 < whole


def test_an_uploaded_export_is_imported_in_the_background(
    night: Session,
    next_night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    bob_user: User,
    media_root: Path,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    content = exported_bytes(client_for(bob_user), group)

    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "pending"
    assert (body["group"], body["size"]) == (empty.pk, len(content))
    assert response["Location"] == body["url"] == f"http://testserver{API}/imports/{body['id']}/"
    status = client_for(bob_user).get(body["url"]).json()  # members may read it
    assert status["status"] == "done", status
    assert (status["players"], status["sessions"], status["deals"]) == (4, 2, 13)
    assert (status["error"], status["field"]) == (None, None)
    assert status["finished_at"] is not None
    empty.refresh_from_db()  # the import took the file's currency and unit value
    before = list(group.sessions.order_by("date"))
    after = list(empty.sessions.order_by("date"))
    for old, new in zip(before, after, strict=True):
        assert without_ids(reports.session_summary(new)) == without_ids(
            reports.session_summary(old)
        )
    # The upload is not kept once imported.
    assert not ImportJob.objects.get(pk=body["id"]).file
    assert not any(path.is_file() for path in media_root.rglob("*"))


def test_a_bad_value_fails_the_job_with_its_path_and_stores_nothing(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    data = json.loads(exported_bytes(client_for(ann_user), group))
    data["sessions"][0]["deals"][7]["status"] = "paid"

    response = upload(
        client_for(ann_user), empty, json.dumps(data).encode(), django_capture_on_commit_callbacks
    )

    assert response.status_code == 202
    status = client_for(ann_user).get(response["Location"]).json()
    assert status["status"] == "failed"
    assert status["error"] == "sessions[0].deals[7].status: 'paid' is not one of active, void"
    assert status["field"] == "sessions[0].deals[7].status"
    assert not empty.players.exists() and not empty.sessions.exists()


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b'{"format": "scorekeeper-group/1", "sessions": [1, 2', "file: not valid JSON: "),
        (b"\xff\xfe not text", "file: not UTF-8 text (byte 1)"),
        # ijson's reason, then the text it stopped at.
        (
            b'{"format": "scorekeeper-group/1", "n": NaN}',
            "file: not valid JSON: lexical error: invalid char in json text,"
            """ near '"scorekeeper-group/1", "n": NaN}'""",
        ),
        (b"[]", "format: not a scorekeeper-group/1 export"),
    ],
)
def test_a_file_that_is_no_export_fails_the_job(
    empty: Group,
    ann_user: User,
    django_capture_on_commit_callbacks: Capture,
    content: bytes,
    error: str,
) -> None:
    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    status = client_for(ann_user).get(response["Location"]).json()
    assert status["status"] == "failed"
    assert status["error"].startswith(error)


def test_an_upload_over_the_limit_answers_413(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    settings: Any,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    content = exported_bytes(client_for(ann_user), group)
    settings.IMPORT_MAX_UPLOAD_SIZE = len(content) - 1

    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    assert response.status_code == 413
    assert response.json() == {
        "error": f"file: the file is {len(content):,} bytes; an export of at most"
        f" {(len(content) - 1) / 1024 / 1024:g} MB is taken (IMPORT_MAX_UPLOAD_MB)",
        "field": "file",
    }
    assert not ImportJob.objects.exists()


def test_a_request_saying_it_is_too_long_is_refused_before_it_is_read(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    settings: Any,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    settings.IMPORT_MAX_UPLOAD_SIZE = 1000
    content = exported_bytes(client_for(ann_user), group) + b" " * 100_000  # JSON still

    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    assert response.status_code == 413
    body = response.json()
    assert body["field"] == "file"
    assert body["error"].startswith("file: the request is ")
    assert body["error"].endswith(
        "; an export of at most 0.000953674 MB is taken (IMPORT_MAX_UPLOAD_MB)"
    )
    assert not ImportJob.objects.exists()


def test_a_big_json_body_answers_413_in_the_api_shape(
    night: Session, group: Group, empty: Group, ann_user: User, settings: Any
) -> None:
    content = exported_bytes(client_for(ann_user), group)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = len(content) // 2

    response = client_for(ann_user).post(
        f"{API}/groups/{empty.pk}/import/", content, content_type="application/json"
    )

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["field"] == "file"
    assert (
        'upload a larger export as a file (multipart/form-data, field "file")'
        in (response.json()["error"])
    )


def test_a_group_past_the_old_body_limit_round_trips(
    ann_user: User, empty: Group, django_capture_on_commit_callbacks: Capture
) -> None:
    """About 560 four-player deals used to be the most an import could take."""
    big = build_group(ann_user, deals=600)
    content = exported_bytes(client_for(ann_user), big)
    assert len(content) > 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE

    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    status = client_for(ann_user).get(response["Location"]).json()
    assert status["status"] == "done", status
    assert status["deals"] == 600
    assert LedgerEntry.objects.filter(deal__session__group=empty).count() == 594 * 6
    empty.refresh_from_db()
    assert without_ids(reports.group_standings(empty)) == without_ids(reports.group_standings(big))


def test_only_an_owner_may_upload_into_an_empty_group(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    bob_user: User,
    stranger: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    content = exported_bytes(client_for(ann_user), group)
    capture = django_capture_on_commit_callbacks

    assert upload(client_for(bob_user), empty, content, capture).status_code == 403
    assert upload(client_for(stranger), empty, content, capture).status_code == 404
    full = upload(client_for(ann_user), group, content, capture)
    assert full.status_code == 400
    assert "not empty" in full.json()["error"]
    no_file = client_for(ann_user).post(
        f"{API}/groups/{empty.pk}/import/", {"other": "x"}, format="multipart"
    )
    assert no_file.status_code == 400
    assert no_file.json()["field"] == "file"
    assert not ImportJob.objects.exists()


def test_another_group_s_import_is_not_found(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    stranger: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    content = exported_bytes(client_for(ann_user), group)
    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    assert client_for(stranger).get(response["Location"]).status_code == 404


def test_an_import_no_worker_takes_fails_after_the_timeout(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    settings: Any,
    media_root: Path,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    content = exported_bytes(client_for(ann_user), group)
    with django_capture_on_commit_callbacks(execute=False):  # queued, never run
        response = client_for(ann_user).post(
            f"{API}/groups/{empty.pk}/import/", {"file": io.BytesIO(content)}, format="multipart"
        )
    job = ImportJob.objects.get()
    assert job.file and (media_root / str(job.file.name)).is_file()

    # Another upload meanwhile is refused: one import into a group at a time.
    second = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)
    assert second.status_code == 400
    assert f"import {job.pk}" in second.json()["error"]

    past = datetime.timedelta(seconds=settings.DOCUMENT_PENDING_TIMEOUT + 1)
    ImportJob.objects.filter(pk=job.pk).update(requested_at=job.requested_at - past)
    status = client_for(ann_user).get(response["Location"]).json()

    assert status["status"] == "failed"
    assert "no worker took the import" in status["error"]
    assert not any(path.is_file() for path in media_root.rglob("*"))
    # A worker that gets to it after all leaves it as it is.
    assert imports.import_group_file(job.pk) == "skipped"
    assert not empty.sessions.exists()


def test_an_import_given_up_on_while_it_ran_stores_nothing(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    settings: Any,
    django_capture_on_commit_callbacks: Capture,
    monkeypatch: Any,
) -> None:
    """A worker that finds its job no longer pending when it is done (marked failed by a
    status read meanwhile) rolls its import back; a job whose worker was killed is marked
    failed once it has run longer than IMPORT_RUNNING_TIMEOUT."""
    content = exported_bytes(client_for(ann_user), group)
    # As if the job had been failed while the import ran: it is no longer pending.
    monkeypatch.setattr(imports, "mark_done", lambda job, restored: False)

    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    assert not empty.sessions.exists() and not empty.players.exists()
    assert not Deal.objects.filter(session__group=empty).exists()
    job = ImportJob.objects.get()
    assert job.started_at is not None
    past = datetime.timedelta(seconds=settings.IMPORT_RUNNING_TIMEOUT + 1)
    ImportJob.objects.filter(pk=job.pk).update(started_at=job.started_at - past)
    status = client_for(ann_user).get(response["Location"]).json()
    assert status["status"] == "failed"
    assert "its worker stopped" in status["error"]


def test_a_broker_that_cannot_be_reached_fails_the_import(
    night: Session,
    group: Group,
    empty: Group,
    ann_user: User,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    def unreachable(*args: Any) -> None:
        raise BrokerError("connection refused")

    monkeypatch.setattr(imports.import_group_file, "delay", unreachable)
    content = exported_bytes(client_for(ann_user), group)

    response = upload(client_for(ann_user), empty, content, django_capture_on_commit_callbacks)

    status = client_for(ann_user).get(response["Location"]).json()
    assert status["status"] == "failed"
    assert status["error"] == "could not queue the import: connection refused"
