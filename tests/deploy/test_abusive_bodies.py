"""The fuzz script's abusive bodies (scripts/fuzz_api.py), against a live server on the test
database: every operation that takes a JSON body, sent JSON nested far too deep and a body
over the size limit, answers 400 or another 4xx, and 413, in the error shape; never a 5xx.

The production server runs the same check in tests/deploy/test_production_server.py
(PostgreSQL runs only); this one runs on SQLite too.
"""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from pytest_django.live_server_helper import LiveServer

from games.models.accounts import DeviceToken
from scripts import fuzz_api, fuzz_forms


@pytest.mark.django_db(transaction=True)
def test_deep_and_oversized_bodies_get_a_4xx_in_the_error_shape(
    live_server: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _, token = DeviceToken.issue(User.objects.create_user("fuzzer"), "fuzzer")
    ids = fuzz_api.seed_data(live_server.url, token)

    problems = fuzz_api.abusive_bodies(
        live_server.url, token, ids, settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    )

    assert problems == []
    report = capsys.readouterr().out
    # Every JSON operation was reached: 5 bodies each, and the calculators twice.
    operations = fuzz_api.json_operations(live_server.url)
    assert len(operations) > 20
    assert f"abusive bodies: {5 * (len(operations) + 2)} requests" in report
    assert "413" in report and "400" in report


@pytest.mark.django_db(transaction=True)
def test_every_web_form_takes_odd_values_and_abusive_bodies_without_a_5xx(
    live_server: LiveServer, capsys: pytest.CaptureFixture[str]
) -> None:
    user = User.objects.create_user("fuzzer", password=fuzz_api.PASSWORD)
    _, token = DeviceToken.issue(user, "fuzzer")
    ids = fuzz_api.seed_data(live_server.url, token)

    problems = fuzz_forms.web_forms(
        live_server.url,
        "fuzzer",
        fuzz_api.PASSWORD,
        ids,
        examples=8,
        body_limit=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    )

    assert problems == []
    report = capsys.readouterr().out
    # Every form was posted: 8 odd forms, an oversized body and too many fields each.
    assert f"web forms: {10 * len(fuzz_forms.FORMS)} posts" in report
    assert " x 400" in report


def test_the_fuzz_run_posts_every_form_of_the_pages() -> None:
    from tests.web.test_form_fuzz import FORMS

    assert {name for name, _, _ in fuzz_forms.FORMS} == set(FORMS)
