import pytest
from django.test import Client
from django.urls import reverse

from games.engine.errors import REFUSALS
from tests.vectors import (
    CASES,
    REJECTED,
    SCORED,
    Case,
    assert_matches,
    assert_mentions,
    case_id,
)

SCORE_URL = "/api/v1/score/"


def test_every_vector_is_checked() -> None:
    assert SCORED and REJECTED
    assert len(SCORED) + len(REJECTED) == len(CASES)


def test_url_is_named() -> None:
    assert reverse("api:score") == SCORE_URL


@pytest.mark.parametrize("case", SCORED, ids=case_id)
def test_scores_vector(client: Client, case: Case) -> None:
    response = client.post(SCORE_URL, case["request"], content_type="application/json")

    assert response.status_code == 200, response.content
    assert_matches(case["expect"], response.json())


@pytest.mark.parametrize("case", REJECTED, ids=case_id)
def test_rejects_vector(client: Client, case: Case) -> None:
    response = client.post(SCORE_URL, case["request"], content_type="application/json")

    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"error", "field", "code", "args"}
    assert body["code"] in REFUSALS
    assert_mentions(case, body["error"])


def test_malformed_json_is_rejected(client: Client) -> None:
    response = client.post(SCORE_URL, '{"rules": "standard",', content_type="application/json")

    assert response.status_code == 400
    body = response.json()
    assert "JSON" in body["error"]
    assert body["field"] is None


@pytest.mark.parametrize("body", ["[]", '"standard"', "42", "null"])
def test_body_must_be_an_object(client: Client, body: str) -> None:
    response = client.post(SCORE_URL, body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {
        "error": "The body must be a JSON object: a score request.",
        "field": None,
    }


def test_needs_no_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)

    response = client.post(SCORE_URL, SCORED[0]["request"], content_type="application/json")

    assert response.status_code == 200


def test_home_page_links_to_the_api(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert SCORE_URL in response.content.decode()
