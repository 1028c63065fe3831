"""The OpenAPI schema, the interactive docs (served without a CDN) and token login."""

import hashlib
import json
from pathlib import Path

import yaml
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from tests.api.conftest import API


def test_the_schema_is_valid_yaml_naming_every_endpoint(client: Client) -> None:
    response = client.get("/api/schema/")

    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    paths = set(schema["paths"])
    assert {
        f"{API}/groups/",
        f"{API}/groups/{{group_pk}}/members/",
        f"{API}/groups/{{group_pk}}/players/",
        f"{API}/groups/{{group_pk}}/players/{{id}}/merge/",
        f"{API}/groups/{{group_pk}}/rules/current/",
        f"{API}/groups/{{group_pk}}/stakes/",
        f"{API}/presets/",
        f"{API}/sessions/{{id}}/close/",
        f"{API}/sessions/{{session_pk}}/deals/{{number}}/void/",
        f"{API}/auth/token/",
        f"{API}/score/",
    } <= paths
    deal_post = schema["paths"][f"{API}/sessions/{{session_pk}}/deals/"]["post"]
    assert "Idempotency-Key" in [p["name"] for p in deal_post["parameters"]]


def test_the_schema_validates_against_the_openapi_specification(tmp_path: Path) -> None:
    # --validate raises when the generated schema breaks the OpenAPI 3 JSON schema.
    call_command("spectacular", "--validate", "--file", str(tmp_path / "schema.yaml"))

    assert yaml.safe_load((tmp_path / "schema.yaml").read_text())["paths"]


def test_the_schema_is_also_json(client: Client) -> None:
    response = client.get("/api/schema/?format=json")

    assert response.status_code == 200
    assert json.loads(response.content)["info"]["title"] == "Scorekeeper API"


def test_the_docs_page_loads_swagger_ui_from_our_own_static_files(client: Client) -> None:
    response = client.get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    bundle = "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"
    assert f"/static/{bundle}" in page
    assert "cdn" not in page.lower()
    assert finders.find(bundle) is not None


def test_a_token_for_a_password(db: None) -> None:
    user = User.objects.create_user("carol", password="carol-plays-at-nine")
    anonymous = APIClient()

    wrong = anonymous.post(
        f"{API}/auth/token/", {"username": "carol", "password": "nope"}, format="json"
    )
    right = anonymous.post(
        f"{API}/auth/token/",
        {"username": "carol", "password": "carol-plays-at-nine"},
        format="json",
    )

    assert wrong.status_code == 400
    assert set(wrong.json()) == {"error", "field"}
    assert right.status_code == 200
    token = right.json()["token"]
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anonymous.get(f"{API}/groups/").status_code == 200
    assert user.device_tokens.get().key_hash == hashlib.sha256(token.encode()).hexdigest()


def test_a_browser_session_works_too(client: Client, db: None) -> None:
    user = User.objects.create_user("dora")
    client.force_login(user)

    assert client.get(f"{API}/groups/").status_code == 200
    page = client.get(f"{API}/groups/", HTTP_ACCEPT="text/html")
    assert page.status_code == 200
    assert "/api-auth/logout/" in page.content.decode()
