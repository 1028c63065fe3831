"""The season as a PDF: asked for over the API (202, a status URL), rendered by the
documents' task, two pages for a year of weekly nights, stale once a deal changes."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import services
from games.models import Document, Group, Player, ReviewLine, Session
from games.reports.season import span
from games.sheets.compose import pdf_bytes
from games.sheets.season import season_html
from tests.api.conftest import API, client_for
from tests.pdf.conftest import pdf_pages, pdf_text
from tests.services.hands import deal

Capture = Callable[..., Any]


def ask(client: APIClient, capture: Capture, url: str) -> Any:
    with capture(execute=True):
        return client.post(url, {}, format="json")


def test_the_season_pdf_is_queued_rendered_and_downloaded(
    night: Session, bob_user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    client = client_for(bob_user)
    url = f"{API}/groups/{night.group_id}/season/pdf/?from={night.date}&to={night.date}"
    response = ask(client, django_capture_on_commit_callbacks, url)
    assert response.status_code == 202
    status = client.get(response["Location"]).json()
    assert status["kind"] == "season" and status["status"] == "ready", status
    assert status["session"] is None and status["group"] == night.group_id
    assert status["date_from"] == str(night.date) and status["stale"] is False
    download = client.get(status["download"])
    assert 'filename="friday-club-season-' in download["Content-Disposition"]
    text = pdf_text(b"".join(download.streaming_content))  # type: ignore[attr-defined]
    assert "Friday club: the season" in text and "Head to head" in text
    for name in ("Ann", "Bob", "Cy", "Di"):
        assert name in text
    # Asked again unchanged: the same document; after a deal more, a new one.
    again = ask(client, django_capture_on_commit_callbacks, url)
    assert again.status_code == 200 and again.json()["id"] == status["id"]
    services.record_deal(night, deal(Ann="A", Bob="B", sat_out=("Cy", "Di")), bob_user)
    assert client.get(response["Location"]).json()["stale"] is True
    assert ask(client, django_capture_on_commit_callbacks, url).status_code == 202


def test_only_members_ask_for_or_read_a_season_pdf(
    night: Session,
    bob_user: User,
    stranger: User,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    url = f"{API}/groups/{night.group_id}/season/pdf/"
    assert ask(client_for(stranger), django_capture_on_commit_callbacks, url).status_code == 404
    made = ask(client_for(bob_user), django_capture_on_commit_callbacks, url).json()
    assert client_for(stranger).get(made["url"]).status_code == 404
    stored = Document.objects.get(pk=made["id"]).file.name
    assert stored is not None and stored.startswith(f"documents/{night.group_id}/")
    bad = ask(client_for(bob_user), django_capture_on_commit_callbacks, url + "?from=soon")
    assert bad.status_code == 400 and bad.json()["field"] == "from"


@pytest.fixture
def a_year(group: Group, players: dict[str, Player], ann_user: User) -> Group:
    """A year of weekly nights: 52 nights, four of six players each, two deals a night."""
    six = [players[name] for name in ("Ann", "Bob", "Cy", "Di")]
    six += [services.add_player(group, name, by=ann_user) for name in ("Eve", "Fay")]
    for week in range(52):
        seats = [six[(week + k) % 6] for k in range(4)]
        names = [p.name for p in seats]
        session = services.start_session(
            group, seats, ann_user, date=datetime.date(2026, 1, 2) + datetime.timedelta(weeks=week)
        )
        for hands in ("ABCD", "BCDA"):
            services.record_deal(session, deal(**dict(zip(names, hands, strict=True))), ann_user)
        ReviewLine.objects.create(
            deal=session.deals.get(number=1), player=seats[0], units_missed=week % 5
        )
    return group


def test_a_year_of_weekly_nights_takes_two_pages(a_year: Group) -> None:
    whole = span("year", datetime.date(2026, 6, 1))
    content = pdf_bytes(season_html(a_year, whole, None, "A4"))
    assert pdf_pages(content) == 2
    text = pdf_text(content)
    assert "52 nights" in text and "Units missed per deal" in text
