"""The pages under their Content-Security-Policy in headless Chromium.

The ``chromium`` fixture fails a test whose pages break the policy (Chromium reports each
violation on the console); these tests open what the night at the table does not: the
API docs (Swagger UI), the admin and the browsable API, and check that the report is seen.
"""

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games import services
from tests.services.hands import deal
from tests.web.browser import DESKTOP, watch_csp
from tests.web.conftest import PASSWORD


@pytest.fixture
def root(transactional_db: None) -> User:
    """A superuser who also plays: a group with a closed night of one deal."""
    user = User.objects.create_superuser("root", password=PASSWORD)
    group = services.create_group(user, "Friday club", "EUR", 1, "classic-1-6")
    seats = [services.add_player(group, name, by=user) for name in ("Ann", "Bob")]
    session = services.start_session(group, seats, user)
    services.record_deal(session, deal(Ann="A", Bob="B"), user)
    services.close_session(session, user)
    return user


def test_a_violation_is_seen(chromium: Any, live_server: Any) -> None:
    # A page of its own context, so that the fixture does not count this violation.
    page = chromium.new_context().new_page()
    seen = watch_csp(page)
    url = f"{live_server.url}/csp-check/"
    page.route(
        url,
        lambda route: route.fulfill(
            status=200,
            headers={"Content-Type": "text/html", "Content-Security-Policy": "script-src 'self'"},
            body="<!doctype html><title>before</title><script>document.title = 'ran'</script>",
        ),
    )

    page.goto(url)

    assert page.title() == "before"
    assert seen and "inline script" in seen[0]
    page.close()


def test_the_api_docs_draw_the_api(chromium: Any, live_server: Any, db: None) -> None:
    page = chromium.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)

    page.goto(f"{live_server.url}/api/docs/")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Scorekeeper API")
    expect(page.locator(".opblock-summary-path").first).to_be_visible()
    assert page.locator(".opblock").count() > 10
    page.close()


def test_the_admin_shows_the_ledger(chromium: Any, live_server: Any, root: User) -> None:
    page = chromium.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/admin/login/?next=/admin/games/session/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.locator("#result_list")).to_contain_text("Friday club")
    page.locator("#result_list tbody a").first.click()
    expect(page.locator("#content h1")).to_contain_text("View session")
    page.goto(f"{live_server.url}/admin/games/ledgerentry/")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.close()


def test_the_browsable_api_signs_in_and_out(chromium: Any, live_server: Any, root: User) -> None:
    page = chromium.new_page(viewport=DESKTOP)
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/api-auth/login/?next=/api/v1/groups/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".response-info")).to_contain_text("Friday club")

    page.locator(".dropdown-toggle", has_text="root").click()
    page.get_by_role("button", name="Log out").click()

    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    page.goto(f"{live_server.url}/api/v1/groups/")
    expect(page.locator(".response-info")).to_contain_text("Authentication credentials")
    page.close()
