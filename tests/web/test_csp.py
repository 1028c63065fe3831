"""Every answer carries a Content-Security-Policy, and the pages run no inline script.

The table-side pages get the strict policy: scripts, styles, images and everything else
only from this site, no inline script, no inline style, no plugin, no framing. Django's
admin, DRF's browsable API and Swagger UI (/api/docs/) keep scripts to this site too, but
may use inline styles (and Swagger UI data: images), which their own templates need.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import get_resolver

from games import services
from games.live import seat_links
from games.models import Group, Player, Session
from games.services.invites import token_for
from games.web import urls as web_urls
from scorekeeper.csp import ContentSecurityPolicyMiddleware
from tests.services.hands import deal

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    # The test client's host over ws: and wss: (games.live.socket_url): the live WebSocket.
    "connect-src": ["'self'", "ws://testserver", "wss://testserver"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

# What each table-side page's URL is, by its name in games.web.urls; the names missing here
# are no page (they take a POST and redirect, or answer a file).
PAGES = {
    "home": "/",
    "web:login": "/accounts/login/",
    "web:signup": "/accounts/signup/",
    "web:password-reset": "/accounts/password/reset/",
    "web:password-reset-done": "/accounts/password/reset/sent/",
    "web:password-reset-confirm": "/accounts/password/reset/MQ/set-password/",
    "web:password-reset-complete": "/accounts/password/reset/done/",
    "web:password-change": "/accounts/password/change/",
    "web:password-change-done": "/accounts/password/change/done/",
    "web:invite": "/invites/{i}/",
    "web:groups": "/groups/",
    "web:group-new": "/groups/new/",
    "web:group": "/groups/{g}/",
    "web:rules": "/groups/{g}/rules/",
    "web:session-new": "/groups/{g}/sessions/new/",
    "web:session": "/sessions/{s}/",
    "web:deal": "/sessions/{s}/deal/",
    "web:live": "/sessions/{s}/live/",
    "web:seat": "/seat/{k}/",
    "web:deal-edit": "/sessions/{s}/deals/1/edit/",
    "web:deal-page": "/sessions/{s}/deals/1/?option=bonus&value=2-4",
    "web:summary": "/sessions/{s}/summary/",
    "web:balances": "/groups/{g}/balances/",
    "web:season": "/groups/{g}/season/?range=all",
    "web:season-player": "/groups/{g}/season/players/{a}/?range=all",
    "web:payment-edit": "/groups/{g}/payments/{p}/edit/",
    "web:offline": "/offline/",
}
NOT_PAGES = {
    "web:logout": "POST, then a redirect",
    "web:language": "POST (the language switcher), then a redirect",
    "web:stakes": "POST, then a redirect",
    "web:group-player": "POST, then a redirect",
    "web:deal-preview": "POST, answers JSON to deal.js",
    "web:deal-void": "POST, then a redirect",
    "web:deal-restore": "POST, then a redirect",
    "web:session-close": "POST, then a redirect",
    "web:session-reopen": "POST, then a redirect",
    "web:ledger-csv": "a CSV file",
    "web:payment-new": "POST, then a redirect",
    "web:payment-confirm": "POST, then a redirect",
    "web:payment-void": "POST, then a redirect",
    "web:session-settle": "POST, then a redirect",
    "web:invite-new": "POST, then a redirect",
    "web:invite-revoke": "POST, then a redirect",
    "web:manifest": "JSON (the web app manifest)",
    "web:service-worker": "a script (the service worker)",
    "web:favicon": "a redirect to the icon",
}


def policy(header: str) -> dict[str, list[str]]:
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


class InlineCode(HTMLParser):
    """Inline code in a page, as (kind, where): inline scripts, event handler attributes
    and javascript: URLs (kinds "script", "handler", "url"), and inline styles ("style")."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and "src" not in a and a.get("type") != "application/json":
            self.found.append(("script", f"<script {attrs}>"))
        if tag == "style":
            self.found.append(("style", "<style>"))
        for name, value in attrs:
            text = (value or "").strip().lower()
            if name.startswith("on"):
                self.found.append(("handler", f"<{tag} {name}={value!r}>"))
            elif name == "style":
                self.found.append(("style", f"<{tag} style={value!r}>"))
            elif name in ("href", "src", "action", "formaction") and text.startswith("javascript:"):
                self.found.append(("url", f"<{tag} {name}={value!r}>"))

    @classmethod
    def of(cls, page: str) -> list[tuple[str, str]]:
        reader = cls()
        reader.feed(page)
        return reader.found


@pytest.fixture
def played(session: Session, alice: User) -> Session:
    services.record_deal(session, deal(Ann="A", Bob="B", Cy="C", Di="D"), alice)
    return session


def test_the_list_of_pages_is_every_page() -> None:
    names = {f"web:{p.name}" for p in web_urls.urlpatterns if getattr(p, "name", None)}

    assert names | {"home"} == set(PAGES) | set(NOT_PAGES)
    assert not set(PAGES) & set(NOT_PAGES)
    assert "home" in get_resolver().reverse_dict


# The pages a signed-out visitor opens (the others are opened as alice).
SIGNED_OUT = {
    "web:login",
    "web:signup",
    "web:password-reset",
    "web:password-reset-confirm",
    "web:seat",
}


def page_urls(played: Session, group: Group) -> dict[str, str]:
    """Every page's URL (``PAGES``) for the night ``played`` of ``group``, after making what
    some pages show: a payment, an invite, the seat links."""
    alice = User.objects.get(username="alice")
    # A payment of the night, for its correction page (and the pages that list it).
    payment = services.settle_session(played, alice)[0]
    # An invite of the group, shown to its owner on the group page (with its QR code).
    invite = services.create_invite(group, by=alice)
    # The first seat's link, for its entry page.
    link = seat_links.token_for(seat_links.make_links(played)[0])
    ann = played.seats.get(seat=1).player_id
    return {
        name: url.format(g=group.pk, s=played.pk, p=payment.pk, i=token_for(invite), k=link, a=ann)
        for name, url in PAGES.items()
    }


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_has_the_strict_policy_and_no_inline_code(
    name: str, as_alice: Client, played: Session, group: Group
) -> None:
    url = page_urls(played, group)[name]
    client = Client() if name in SIGNED_OUT else as_alice

    response = client.get(url)

    assert response.status_code == 200, url
    assert policy(response["Content-Security-Policy"]) == STRICT
    assert InlineCode.of(response.content.decode()) == [], url


def test_pages_with_errors_and_other_answers_carry_the_policy_too(
    as_alice: Client, played: Session, players: dict[str, Player]
) -> None:
    answers = [
        as_alice.get("/groups/999999/"),  # 404
        as_alice.post(f"/sessions/{played.pk}/deal/", {}),  # the form with its errors
        as_alice.get(f"/sessions/{played.pk}/ledger/{players['Ann'].pk}.csv"),
        Client().get("/api/v1/presets/"),  # JSON
        Client().get("/seat/not-a-seat-link/"),  # a seat link that cannot be used (410)
    ]

    for answer in answers:
        assert policy(answer["Content-Security-Policy"]) == STRICT | (
            {"style-src": ["'self'", "'unsafe-inline'"]}
            if answer.wsgi_request.path.startswith("/api/v1/")
            else {}
        ), answer.wsgi_request.path


@pytest.mark.parametrize(
    ("url", "extra"),
    [
        ("/admin/", {"style-src": ["'self'", "'unsafe-inline'"]}),
        ("/admin/games/session/", {"style-src": ["'self'", "'unsafe-inline'"]}),
        ("/api/v1/groups/", {"style-src": ["'self'", "'unsafe-inline'"]}),
        ("/api-auth/login/", {"style-src": ["'self'", "'unsafe-inline'"]}),
        (
            "/api/docs/",
            {"style-src": ["'self'", "'unsafe-inline'"], "img-src": ["'self'", "data:"]},
        ),
    ],
)
def test_the_admin_browsable_api_and_api_docs_may_style_inline_but_not_script(
    url: str, extra: dict[str, list[str]], played: Session
) -> None:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="x"))

    response = client.get(url, HTTP_ACCEPT="text/html")

    assert response.status_code == 200, url
    assert policy(response["Content-Security-Policy"]) == STRICT | extra
    code = InlineCode.of(response.content.decode())
    assert [(kind, where) for kind, where in code if kind != "style"] == [], url


def test_the_api_docs_load_their_script_from_this_site(client: Client) -> None:
    page = client.get("/api/docs/")
    scripts = [line for line in page.content.decode().splitlines() if "<script" in line]
    init = next(line for line in scripts if "?" in line and "script" in line.split("?")[1])
    src = init.split('src="')[1].split('"')[0].replace("&amp;", "&")

    script = client.get(src)

    assert page.status_code == 200 and script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in script.content.decode()
    assert "/api/schema/" in script.content.decode()


def test_the_reader_finds_each_kind_of_inline_code() -> None:
    page = (
        '<script src="/static/a.js"></script><script type="application/json">{}</script>'
        '<script>alert(1)</script><button onclick="go()">x</button>'
        '<a href=" JavaScript:go()">y</a><p style="color: red">z</p><style>p {}</style>'
    )

    assert [kind for kind, _ in InlineCode.of(page)] == [
        "script",
        "handler",
        "url",
        "style",
        "style",
    ]


@override_settings(ALLOWED_HOSTS=["scores.example.org"], LIVE_SOCKET_URL="wss://{host}:8001")
def test_the_live_socket_elsewhere_is_allowed_and_named_on_the_page(client: Client) -> None:
    page = client.get("/accounts/login/", HTTP_HOST="scores.example.org:8443")

    assert policy(page["Content-Security-Policy"])["connect-src"] == [
        "'self'",
        "ws://scores.example.org:8443",
        "wss://scores.example.org:8443",
        "wss://scores.example.org:8001",  # {host} is the name alone, without the port
    ]
    assert '<body data-live-socket="wss://scores.example.org:8001"' in page.content.decode()


def test_the_same_origin_socket_leaves_the_attribute_empty(client: Client) -> None:
    page = client.get("/accounts/login/")

    assert '<body data-live-socket=""' in page.content.decode()


@override_settings(ALLOWED_HOSTS=["scores.example.org"])
def test_a_disallowed_host_allows_no_socket_host(client: Client) -> None:
    answer = client.get("/accounts/login/", HTTP_HOST="evil.example.com")

    assert answer.status_code == 400
    assert policy(answer["Content-Security-Policy"])["connect-src"] == ["'self'"]


def test_the_header_reads_in_the_settings_order_on_every_answer(client: Client) -> None:
    # django-csp (scorekeeper.csp's base) builds the header going through a set, whose
    # order changes from one process to the next; it is put back in the settings' order.
    headers = {client.get("/accounts/login/")["Content-Security-Policy"] for _ in range(3)}

    assert headers == {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
        " connect-src 'self' ws://testserver wss://testserver; object-src 'none';"
        " base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    }


def test_a_policy_a_view_set_itself_is_kept() -> None:
    def view(request: HttpRequest) -> HttpResponse:
        answer = HttpResponse("x")
        answer["Content-Security-Policy"] = "default-src 'none'"
        return answer

    answer = ContentSecurityPolicyMiddleware(view)(RequestFactory().get("/"))

    assert isinstance(answer, HttpResponse)
    assert answer["Content-Security-Policy"] == "default-src 'none'"
