"""What a live deal costs the database: SQL statements counted around the real HTTP
requests (the host's open, each seat phone's submit with its token and device, the
submit that records), the announcement each one sends included (the test client runs
the work kept for after the response before it returns)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Deal, SeatLink, Session
from tests.api.conftest import client_for
from tests.live.helpers import hand, seat_token

# Committed for real, as in production: no test transaction adds its savepoints, and what
# waits for the commit (the announcements) runs and is counted.
pytestmark = pytest.mark.django_db(transaction=True)

# The targets of issue 31.
SUBMIT = 6
RECORDING_SUBMIT = 10
DEAL = 30
NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}


def _phone(session: Session, seat: int) -> APIClient:
    """Seat ``seat``'s phone: its link's token and the phone's own secret."""
    client = APIClient()
    client.credentials(
        HTTP_X_SEAT_TOKEN=seat_token(session, seat), HTTP_X_SEAT_DEVICE=f"phone-{seat}"
    )
    return client


# A transaction's own BEGIN and COMMIT, which Django logs too: not counted as statements
# (each request is held to one transaction instead); a savepoint is counted.
ENDS = ("BEGIN", "COMMIT", "ROLLBACK")


@contextmanager
def _counted(into: dict[str, int], kind: str) -> Iterator[None]:
    with CaptureQueriesContext(connection) as queries:
        yield
    sql = [query["sql"] for query in queries.captured_queries]
    into[kind] = sum(1 for text in sql if not text.startswith(ENDS))
    assert sum(1 for text in sql if text.startswith("BEGIN")) <= 1, sql


def _submit(phone: APIClient, session: Session, seat: int, key: str) -> Any:
    return phone.post(
        f"/api/v1/sessions/{session.pk}/live/seats/{seat}/submit/",
        {"entry": hand(seat)},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def _play(session: Session, host: APIClient, phones: dict[int, APIClient]) -> dict[str, int]:
    """One live deal: the host opens it, seats 1 to 4 submit (4 records); the count of
    each request."""
    counts: dict[str, int] = {}
    with _counted(counts, "open"):
        opened = host.post(f"/api/v1/sessions/{session.pk}/live/")
    assert opened.status_code == 201
    live = opened.json()["live"]["id"]
    for seat in (1, 2, 3, 4):
        # The seat's phone was last heard from long enough ago that this request writes
        # its presence (a worst case: a ping within 5 s writes nothing).
        SeatLink.objects.filter(session=session, revoked_at=None).update(
            seen_at=timezone.now() - timedelta(seconds=6)
        )
        with _counted(counts, f"submit {seat}"):
            answer = _submit(phones[seat], session, seat, f"{live}:{seat}")
        assert answer.status_code == 200, answer.json()
        # The presence was written, with the submit's own statements.
        heard = SeatLink.objects.get(session=session, revoked_at=None, player__name=NAMES[seat])
        assert heard.seen_at is not None
        assert timezone.now() - heard.seen_at < timedelta(seconds=5)
    assert answer.json()["live"]["status"] == "recorded"
    return counts


@pytest.fixture
def seated(
    session: Session, ann_user: User, settings: Any
) -> tuple[APIClient, dict[int, APIClient]]:
    """The host (Ann, with her API token) and the four phones, each having claimed its
    seat by reading the table once. Reviews go to a broker, as in production, rather
    than running inside the request."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    host = client_for(ann_user)
    phones = {seat: _phone(session, seat) for seat in (1, 2, 3, 4)}
    for phone in phones.values():
        assert phone.get(f"/api/v1/sessions/{session.pk}/live/").status_code == 200
    return host, phones


def test_a_live_deal_stays_within_its_statements(
    session: Session, seated: tuple[APIClient, dict[int, APIClient]]
) -> None:
    host, phones = seated
    _play(session, host, phones)  # the first deal: the process's caches warm up
    counts = _play(session, host, phones)
    print(counts)

    assert [counts[f"submit {seat}"] <= SUBMIT for seat in (1, 2, 3)] == [True] * 3, counts
    assert counts["submit 4"] <= RECORDING_SUBMIT, counts
    assert sum(counts.values()) <= DEAL, counts
    assert Deal.objects.filter(session=session).count() == 2


def test_a_replayed_submit_stays_within_a_submits_statements(
    session: Session, seated: tuple[APIClient, dict[int, APIClient]]
) -> None:
    host, phones = seated
    live = host.post(f"/api/v1/sessions/{session.pk}/live/").json()["live"]["id"]
    first = _submit(phones[2], session, 2, f"{live}:2")
    counts: dict[str, int] = {}

    with _counted(counts, "again"):
        again = _submit(phones[2], session, 2, f"{live}:2")

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json()["live"]["version"] == first.json()["live"]["version"], counts
    assert counts["again"] <= SUBMIT, counts
    print(counts)


def _read(phone: APIClient, session: Session) -> Any:
    return phone.get(f"/api/v1/sessions/{session.pk}/live/").json()


def _heard_just_now(session: Session) -> None:
    """Every phone was heard from a moment ago: a read writes no presence."""
    SeatLink.objects.filter(session=session, revoked_at=None).update(seen_at=timezone.now())


def test_every_phone_reads_the_recorded_deal_from_one_built_state(
    session: Session, seated: tuple[APIClient, dict[int, APIClient]]
) -> None:
    host, phones = seated
    _play(session, host, phones)  # the recording submit builds the deal's STATE
    _heard_just_now(session)
    counts: dict[str, int] = {}
    read: dict[int, Any] = {}

    for seat, phone in phones.items():
        with _counted(counts, f"read {seat}"):
            read[seat] = _read(phone, session)

    # The seat token with its seat, then the rows: the deal, its pairs and the night's
    # totals are not read or worked out again.
    assert all(count <= 2 for count in counts.values()), counts
    deals = [state["live"]["deal"] for state in read.values()]
    assert deals[0]["units"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert deals[0]["totals"] == {"Ann": "-8", "Bob": "4", "Cy": "3", "Di": "1"}
    assert all(deal == deals[0] for deal in deals)
    assert [state["live"]["you"]["seat"] for state in read.values()] == [1, 2, 3, 4]


def test_a_shared_state_is_never_an_older_version_nor_a_seats_own(
    session: Session, seated: tuple[APIClient, dict[int, APIClient]]
) -> None:
    host, phones = seated
    host.post(f"/api/v1/sessions/{session.pk}/live/")
    ann = hand(1)
    drafted = phones[1].put(
        f"/api/v1/sessions/{session.pk}/live/seats/1/", {"entry": ann}, format="json"
    )
    _heard_just_now(session)
    counts: dict[str, int] = {}

    with _counted(counts, "Bob"):
        bob = _read(phones[2], session)
    with _counted(counts, "Cy"):
        cy = _read(phones[3], session)
    submitted = _submit(phones[1], session, 1, "k1")
    _heard_just_now(session)
    after = _read(phones[2], session)

    # Ann's draft answered her own hand; the state the others share (built by her write)
    # names no card of it, and each reader gets their own seat.
    assert drafted.json()["live"]["you"]["entry"] == ann
    for state in (bob, cy, after):
        shown = str(state)
        assert not any(card in shown for row in ann.values() for card in row.split())
    assert (bob["live"]["you"]["seat"], cy["live"]["you"]["seat"]) == (2, 3)
    assert bob["live"]["you"]["entry"] is None
    assert bob["live"]["seats"][0]["state"] == "entering"
    assert counts == {"Bob": 2, "Cy": 2}
    # The submit's version, never the draft's.
    version = submitted.json()["live"]["version"]
    assert after["live"]["version"] == version == bob["live"]["version"] + 1
    assert after["live"]["seats"][0]["state"] == "submitted"
