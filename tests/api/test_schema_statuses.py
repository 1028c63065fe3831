"""The OpenAPI schema documents every status code the service's shared machinery answers,
operation by operation (games.api.schema), so that drift is caught without a server.

The rules are read here from the schema itself (its bodies, parameters and security), not
from the code that writes it; a few answers are then provoked for real."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.api.conftest import API
from tests.live.helpers import hand

METHODS = ("get", "put", "patch", "post", "delete")
# The operations that are throttled (games.api.throttles).
THROTTLED = {f"{API}/score/", f"{API}/arrange/"}


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


OPERATIONS = operations()
IDS = [f"{method} {path}" for method, path, _ in OPERATIONS]


def expected(method: str, path: str, operation: dict[str, Any]) -> set[str]:
    codes = {"503", "406"}
    parameters = operation.get("parameters", [])
    if "requestBody" in operation:
        codes |= {"400", "413", "415"}
    if any(p["in"] == "query" for p in parameters) or method != "GET":
        codes.add("400")
    if "{" in path:
        codes.add("404")
    schemes = {name for requirement in operation.get("security", []) for name in requirement}
    if "seatToken" in schemes:  # checked first, and without a challenge: DRF answers 403
        codes.add("403")
    elif "tokenAuth" in schemes:
        codes.add("401")
    if "cookieAuth" in schemes and method != "GET":  # CSRF, and the roles
        codes.add("403")
    if path in THROTTLED:
        codes.add("429")
    return codes


@pytest.mark.parametrize(("method", "path", "operation"), OPERATIONS, ids=IDS)
def test_the_operation_documents_what_the_machinery_answers(
    method: str, path: str, operation: dict[str, Any]
) -> None:
    documented = set(operation["responses"])

    assert expected(method, path, operation) <= documented
    assert any(code.startswith("2") for code in documented)


@pytest.mark.parametrize(("method", "path", "operation"), OPERATIONS, ids=IDS)
def test_every_refusal_has_the_error_shape(
    method: str, path: str, operation: dict[str, Any]
) -> None:
    for code, response in operation["responses"].items():
        if code.startswith(("4", "5")):
            assert response.get("$ref", "").startswith("#/components/responses/") or (
                response["content"]["application/json"]["schema"]
                == {"$ref": "#/components/schemas/Error"}
            ), code


def test_a_patch_body_keeps_its_required_fields() -> None:
    [members] = [
        op
        for method, path, op in OPERATIONS
        if method == "PATCH" and path == f"{API}/groups/{{group_pk}}/members/{{id}}/"
    ]

    body = members["requestBody"]
    assert body["required"] is True
    assert body["content"] == {
        "application/json": {"schema": {"$ref": "#/components/schemas/MembershipUpdate"}}
    }


def test_an_unknown_api_url_answers_in_the_error_shape(client: Client) -> None:
    answer = client.get(f"{API}/documents/not-a-number/")

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"
    assert answer.json() == {"error": "Not found.", "field": None}
    assert "text/html" in client.get("/no-such-page/")["Content-Type"]


def test_a_refusal_asked_for_as_csv_is_json(db: None) -> None:
    api = APIClient()
    api.force_authenticate(User.objects.create_user("erin"))

    answer = api.get(f"{API}/groups/999/ledger/?player=1&format=csv")

    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/json"


def test_an_empty_seat_token_is_refused(db: None, as_alice: APIClient) -> None:
    answer = as_alice.get(f"{API}/sessions/1/live/", HTTP_X_SEAT_TOKEN="")

    assert answer.status_code == 403


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2**31, max_value=2**80))
def test_a_running_offset_past_the_limit_is_refused(offset: int) -> None:
    from games.api.reports import SummaryQuery

    query = SummaryQuery(data={"running_offset": str(offset)})

    assert not query.is_valid()
    assert "running_offset" in query.errors


@settings(max_examples=25, deadline=None)
@given(
    st.one_of(st.integers(), st.floats(allow_nan=False), st.lists(st.text(), max_size=2)),
    st.one_of(st.integers(), st.text(max_size=5), st.none().map(lambda _: [])),
)
def test_a_json_body_is_held_to_its_types(notes: Any, flag: Any) -> None:
    from games.api.groups import validated
    from games.api.payments import Settle
    from games.api.serializers import SessionUpdateSerializer
    from games.errors import ServiceError

    with pytest.raises(ServiceError, match="notes: a string is expected"):
        validated(SessionUpdateSerializer, {"notes": notes})
    with pytest.raises(ServiceError, match="pair_by_pair: true or false is expected"):
        validated(Settle, {"pair_by_pair": flag})


@pytest.mark.parametrize("query", ["groups/{group}/standings/?date_to=", "sessions/?date_before="])
def test_an_empty_date_is_refused(query: str, group: Any, as_alice: APIClient) -> None:
    answer = as_alice.get(f"{API}/" + query.format(group=group.pk))

    assert answer.status_code == 400
    assert "a value is expected" in answer.json()["error"]


@pytest.mark.parametrize(
    ("method", "action"),
    [
        ("post", "withdraw/"),
        ("post", "take-over/"),
        ("post", "release/"),
        ("post", "nudge/"),
        ("post", "submit/"),
        ("post", "check/"),
        ("put", ""),
    ],
)
def test_a_seat_the_session_has_not_is_not_found(
    session: Any, as_alice: APIClient, method: str, action: str
) -> None:
    as_alice.post(f"{API}/sessions/{session.pk}/live/")  # a deal in progress
    url = f"{API}/sessions/{session.pk}/live/seats/9/{action}"

    # A whole hand: a submit checks its body before the seat.
    answer = getattr(as_alice, method)(url, {"entry": hand(1)}, format="json")

    assert answer.status_code == 404
    assert answer.json() == {"error": "seat 9: no such seat at this session", "field": None}
