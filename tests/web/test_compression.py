"""Text answers go gzip-compressed to a browser that asks (games.lib.compress): the
scoreboard of a 30-deal night is well under 40 KB on the wire; PDFs are sent as they are."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse

from games.lib.compress import TextGZipMiddleware
from tests.web.conftest import signed_in
from tests.web.test_scoreboard import long_night

pytestmark = pytest.mark.django_db

WIRE_LIMIT = 40 * 1024


def test_the_scoreboard_of_thirty_deals_is_compressed_when_asked(alice: User) -> None:
    session = long_night(alice, 30)
    client = signed_in(alice)
    url = f"/sessions/{session.pk}/"

    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    on_the_wire = len(packed.content)
    assert on_the_wire < len(plain.content) / 4
    assert on_the_wire < WIRE_LIMIT
    page = gzip.decompress(packed.content).decode()
    assert "deal-30" in page and "deal-1" in page


def test_the_api_json_is_compressed_too(alice: User) -> None:
    session = long_night(alice, 30)
    client = signed_in(alice)

    answer = client.get(f"/api/v1/sessions/{session.pk}/deals/", HTTP_ACCEPT_ENCODING="gzip")

    assert answer.status_code == 200
    assert answer["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(answer.content))["results"]


@pytest.mark.parametrize("kind", ["application/pdf", "image/png", "font/woff2"])
def test_what_is_compressed_already_goes_as_it_is(kind: str) -> None:
    request = HttpRequest()
    request.META["HTTP_ACCEPT_ENCODING"] = "gzip"
    body = b"%PDF-1.7 " + b"a" * 5000
    middleware = TextGZipMiddleware(lambda r: HttpResponse(body, content_type=kind))

    response = middleware(request)

    assert isinstance(response, HttpResponse)
    assert "Content-Encoding" not in response
    assert response.content == body
