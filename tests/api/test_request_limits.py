"""Malformed or abusive bodies get a clear 4xx in the API's error shape, never a 500.

A JSON body nested deeper than ``API_JSON_MAX_DEPTH`` answers 400 (before this, Python's
JSON decoder raised RecursionError: a 500 with a traceback logged at ERROR on every JSON
endpoint, anonymous ones included). A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` answers 413:
``{"error", "field"}`` on API paths, a plain page elsewhere.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from games.models import Deal, Session
from tests.api.conftest import API
from tests.vectors import SCORED

DEPTH = settings.API_JSON_MAX_DEPTH


def nested(depth: int) -> str:
    """A JSON object ``{"rules": "standard", "players": [[...]]}`` whose deepest value
    sits at ``depth`` (the outer object counts as 1)."""
    return '{"rules": "standard", "players": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def assert_error_shape(response: Any, status: int, *mentions: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    # (the scorer's refusals also give their code: games.engine.errors)
    assert set(body) in ({"error", "field"}, {"error", "field", "code", "args"})
    for word in mentions:
        assert word in body["error"]
    return body


def assert_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing above WARNING was logged, and nothing with a traceback."""
    assert [r for r in caplog.records if r.levelno > logging.WARNING] == []
    assert [r for r in caplog.records if r.exc_info] == []


# ---- nesting -------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [f"{API}/score/", f"{API}/arrange/"])
@pytest.mark.parametrize(
    "body",
    ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a": ' * 5000 + "1" + "}" * 5000],
    ids=["unclosed", "arrays", "objects"],
)
def test_deeply_nested_json_answers_400_on_the_calculators(
    url: str, body: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    response = Client().post(url, body, content_type="application/json")

    answer = assert_error_shape(response, 400, "nested", str(DEPTH))
    assert answer["field"] is None
    assert_quiet(caplog)


def test_json_just_over_the_depth_limit_is_refused_and_at_it_is_read() -> None:
    over = Client().post(f"{API}/score/", nested(DEPTH + 1), content_type="application/json")
    at = Client().post(f"{API}/score/", nested(DEPTH), content_type="application/json")

    assert_error_shape(over, 400, "nested")
    # At the limit the body is read, and the engine answers about the players instead.
    body = assert_error_shape(at, 400)
    assert "nested" not in body["error"]
    assert body["field"] is not None and body["field"].startswith("players")


def test_deeply_nested_json_answers_400_where_a_login_is_needed(
    session: Session, as_alice: APIClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    deep = "[" * 50_000 + "]" * 50_000

    for url in (f"{API}/groups/", f"{API}/sessions/{session.pk}/deals/"):
        response = as_alice.generic("POST", url, deep, content_type="application/json")
        assert_error_shape(response, 400, "nested")
    assert_quiet(caplog)


def test_an_ordinary_request_still_scores() -> None:
    response = Client().post(f"{API}/score/", SCORED[0]["request"], content_type="application/json")

    assert response.status_code == 200, response.content


# ---- size ----------------------------------------------------------------------------------


def oversized_json() -> str:
    return '{"rules": "' + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + '"}'


@pytest.mark.parametrize("url", [f"{API}/score/", f"{API}/arrange/"])
def test_an_oversized_body_answers_413_in_the_error_shape(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    response = Client().post(url, oversized_json(), content_type="application/json")

    answer = assert_error_shape(response, 413, "too large")
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}" in answer["error"]
    assert answer["field"] is None
    assert_quiet(caplog)


def test_an_oversized_body_answers_413_where_a_login_is_needed(
    session: Session, as_alice: APIClient
) -> None:
    url = f"{API}/sessions/{session.pk}/deals/"

    response = as_alice.generic("POST", url, oversized_json(), content_type="application/json")

    assert_error_shape(response, 413, "too large")
    assert Deal.objects.filter(session=session).count() == 0


def test_an_oversized_form_field_in_a_multipart_body_answers_413(as_alice: APIClient) -> None:
    # Multipart bodies are measured by their fields (files do not count): Django finds
    # out while reading them, inside the view.
    response = as_alice.post(
        f"{API}/groups/",
        {"name": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)},
        format="multipart",
    )

    assert_error_shape(response, 413, "too large")


def test_too_many_form_fields_answer_400_in_the_error_shape(as_alice: APIClient) -> None:
    fields = "&".join(f"f{k}=1" for k in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))

    response = as_alice.generic(
        "POST", f"{API}/groups/", fields, content_type="application/x-www-form-urlencoded"
    )

    assert_error_shape(response, 400, "fields")


def test_a_body_under_the_limit_is_read(as_alice: APIClient) -> None:
    # Just under the limit: read, and refused for what it says, not for its size.
    name = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 100)

    response = as_alice.post(f"{API}/groups/", {"name": name, "rules": "standard"}, format="json")

    assert_error_shape(response, 400)
    assert response.json()["field"] == "name"


def test_an_oversized_form_on_a_page_answers_a_plain_413(client: Client) -> None:
    response = client.post(
        "/accounts/login/",
        "username=" + "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
        content_type="application/x-www-form-urlencoded",
    )

    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/plain")
    assert b"too large" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/groups/1/stakes/"])
def test_too_many_fields_on_a_page_answer_a_plain_400_without_a_traceback(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    # The CSRF check reads a page's form before any view: Django would answer its own 400
    # and log the refusal with a traceback at ERROR (found by the fuzz run's forms).
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/login/")  # the CSRF cookie: the check then reads the form
    fields = "&".join(f"f{k}=1" for k in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))

    with caplog.at_level(logging.INFO):
        response = client.post(path, fields, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert b"too many fields: at most 1,000" in response.content
    assert not [record for record in caplog.records if record.exc_info]
    # At the limit, the form is read (and the CSRF check refuses it, as any such post).
    at_limit = "&".join(f"f{k}=1" for k in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS))
    response = client.post(path, at_limit, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 403


def test_every_api_view_reads_json_through_the_capped_parser() -> None:
    # A view naming DRF's own JSONParser (as DRF's token view does) would bring the 500 back.
    from django.urls import URLPattern, URLResolver, get_resolver
    from rest_framework.parsers import JSONParser as DRFJSONParser

    from games.api.parsers import JSONParser

    def views(patterns: list[Any]) -> list[Any]:
        found = []
        for entry in patterns:
            if isinstance(entry, URLResolver):
                found += views(entry.url_patterns)
            elif isinstance(entry, URLPattern):
                found.append(entry.callback)
        return found

    checked = 0
    for callback in views(get_resolver().url_patterns):
        cls = getattr(callback, "cls", None)
        if cls is None or not hasattr(cls, "parser_classes"):
            continue
        initkwargs = getattr(callback, "initkwargs", {})
        parsers = initkwargs.get("parser_classes", cls.parser_classes)
        json_parsers = [p for p in parsers if issubclass(p, DRFJSONParser)]
        assert all(p is JSONParser for p in json_parsers), (cls, parsers)
        checked += 1
    assert checked > 10
