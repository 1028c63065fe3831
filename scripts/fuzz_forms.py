"""The fuzz run's part for the table-side pages (called by scripts/fuzz_api.py): sign in
through the login page, then post every form of the pages odd values (long text, unicode,
huge or non-finite numbers, NUL characters, repeated fields) and bodies over Django's size
and field-count limits. No answer may be a server error (5xx).

The forms, their URLs and their fields are listed in ``FORMS`` (the same forms as
``games/web/urls.py``; tests/web/test_form_fuzz.py fails when a new one is missing there).
"""

from __future__ import annotations

import http.client
import random
import re
import select
import socket
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode, urlsplit

SEAT_FIELDS = ("front", "middle", "back", "cards13", "discards", "cards", "cards_left")
DEAL_FIELDS = (
    *(f"p{k}-{f}" for k in range(4) for f in (*SEAT_FIELDS, "surrender", "natural", "sat_out")),
    "idempotency_key",
    "reason",
    "dealer",
    "arrange",
)
RULE_FIELDS = (
    "preset",
    "bonus",
    "foul_penalty",
    "surrender_cost",
    "scoop_all_multiplier",
    "royalties",
    "naturals",
    "max_players",
    "fantasyland_cards",
    "multipliers",
    "two_multiplier",
    "target_score",
)

# (form, URL with {group} {session} {player}, its fields). Signing out comes last, and the
# login form just before it, so that failed logins cannot stop the signed-in run.
FORMS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("group", "/groups/{group}/", ("name",)),
    ("group-new", "/groups/new/", ("name", "currency", "unit_value", "preset", "players")),
    ("rules", "/groups/{group}/rules/", RULE_FIELDS),
    ("stakes", "/groups/{group}/stakes/", ("unit_value", "currency", "multiplier", "first")),
    ("group-player", "/groups/{group}/players/{player}/", ("action", "name", "into")),
    (
        "session-new",
        "/groups/{group}/sessions/new/",
        ("seat1", "seat2", "seat3", "rules", "game", "date", "place"),
    ),
    ("deal-preview", "/sessions/{session}/deal/preview/", DEAL_FIELDS),
    ("deal", "/sessions/{session}/deal/", DEAL_FIELDS),
    ("deal-edit", "/sessions/{session}/deals/1/edit/", DEAL_FIELDS),
    ("deal-void", "/sessions/{session}/deals/1/void/", ("reason",)),
    ("deal-restore", "/sessions/{session}/deals/1/restore/", ("reason",)),
    ("session-close", "/sessions/{session}/close/", ("confirm",)),
    ("session-reopen", "/sessions/{session}/reopen/", ("reason",)),
    ("session-settle", "/sessions/{session}/settle/", ("how",)),
    (
        "payment-new",
        "/groups/{group}/payments/new/",
        ("payer", "payee", "amount", "date", "note", "session", "confirmed", "next"),
    ),
    ("payment-confirm", "/groups/{group}/payments/1/confirm/", ("next",)),
    ("payment-void", "/groups/{group}/payments/1/void/", ("reason", "next")),
    (
        "payment-edit",
        "/groups/{group}/payments/1/edit/",
        ("payer", "payee", "amount", "date", "note", "reason"),
    ),
    ("invite-new", "/groups/{group}/invites/new/", ("next",)),
    ("invite-revoke", "/groups/{group}/invites/1/revoke/", ("next",)),
    ("invite", "/invites/not-a-real:token/", ("player", "new_player")),
    ("signup", "/accounts/signup/", ("username", "password1", "password2", "next")),
    ("password-reset", "/accounts/password/reset/", ("email",)),
    (
        "password-reset-confirm",
        "/accounts/password/reset/MQ/set-password/",
        ("new_password1", "new_password2"),
    ),
    (
        "password-change",
        "/accounts/password/change/",
        ("old_password", "new_password1", "new_password2"),
    ),
    ("login", "/accounts/login/", ("username", "password")),
    ("logout", "/accounts/logout/", ("next",)),
    ("language", "/language/", ("language", "next")),
)

ODD = (
    "",
    " ",
    "1e400",
    "-1e400",
    "9" * 5000,
    "0." + "0" * 40 + "1",
    "NaN",
    "-inf",
    "9999999999.9999",
    "-1",
    "\x00",
    "a\x00b",
    "x" * 600,
    "١٢",
    "½",
    "\u202eevil",
    "'; drop table games_deal; --",
    "<script>alert(1)</script>",
)


def odd_value(rng: random.Random) -> str | list[str]:
    """One odd value: from ``ODD``, random unicode text, or a field sent twice."""
    pick = rng.randrange(4)
    if pick == 0:
        return "".join(
            chr(rng.choice([rng.randrange(32, 0xD800), rng.randrange(0xE000, 0x110000)]))
            for _ in range(rng.randrange(1, 300))
        )
    if pick == 1:
        return [rng.choice(ODD), rng.choice(ODD)]
    return rng.choice(ODD)


def _send_until_answered(connection: http.client.HTTPConnection, body: bytes) -> None:
    """The body in pieces, stopping once the server answers (a server refusing a body over
    its limit answers from the headers and closes without reading the rest)."""
    sock = connection.sock
    try:
        for start in range(0, len(body), 65_536):
            if select.select([sock], [], [], 0)[0]:
                sock.shutdown(socket.SHUT_WR)
                return
            sock.sendall(body[start : start + 65_536])
    except OSError:
        pass  # closed (or reset) by the server once it had answered: read that answer


class Browser:
    """Cookies and the CSRF token of one signed-in person, over plain HTTP (the cookies
    are marked Secure in production, so they are kept here by hand)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}

    def send(
        self, method: str, path: str, body: bytes = b"", content_type: str = ""
    ) -> tuple[int, str]:
        parts = urlsplit(self.base + path)
        connection = http.client.HTTPConnection(parts.netloc, timeout=60)
        headers = {"Origin": self.base, "Referer": self.base + path}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.cookies.get("csrftoken"):
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if content_type:
            headers["Content-Type"] = content_type
        try:
            connection.putrequest(method, parts.path)
            for key, value in {**headers, "Content-Length": str(len(body))}.items():
                connection.putheader(key, value)
            connection.endheaders()
            _send_until_answered(connection, body)
            answer = connection.getresponse()
            text = answer.read().decode(errors="replace")
            for header in answer.headers.get_all("Set-Cookie") or ():
                name, _, rest = header.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return answer.status, text
        finally:
            connection.close()

    def post(self, path: str, form: Mapping[str, Any]) -> int:
        fields = {**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
        body = urlencode(fields, doseq=True).encode()
        return self.send("POST", path, body, "application/x-www-form-urlencoded")[0]

    def sign_in(self, username: str, password: str) -> None:
        status, page = self.send("GET", "/accounts/login/")
        assert status == 200, status
        if "csrftoken" not in self.cookies:  # pragma: no cover - Django always sets it
            match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
            self.cookies["csrftoken"] = match.group(1) if match else ""
        status = self.post("/accounts/login/", {"username": username, "password": password})
        assert status == 302, f"signing in answered {status}"


def web_forms(
    base: str,
    username: str,
    password: str,
    ids: Mapping[str, int],
    examples: int = 20,
    seed: int = 2026,
    body_limit: int = 2_621_440,
) -> list[str]:
    """Posts each form ``examples`` odd forms, then an oversized body and one with too many
    fields; prints what it sent and answers the 5xx found (none: an empty list)."""
    rng = random.Random(seed)
    browser = Browser(base)
    browser.sign_in(username, password)
    where = {"group": ids["groups"], "session": ids["sessions"], "player": ids["players"]}
    problems: list[str] = []
    statuses: dict[int, int] = {}
    for name, template, fields in FORMS:
        path = template.format(**where)
        bodies: list[dict[str, Any]] = [
            {field: odd_value(rng) for field in rng.sample(fields, min(len(fields), 3))}
            for _ in range(examples)
        ]
        bodies.append({"name": "x" * (body_limit + 1)})
        bodies.append({f"field{k}": "1" for k in range(1_500)})
        for form in bodies:
            status = browser.post(path, form)
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 500:
                shown = repr(
                    {k: v if len(str(v)) < 40 else f"{str(v)[:37]}..." for k, v in form.items()}
                )
                problems.append(f"POST {path} ({name}): {status} for {shown:.300}")
    counts = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
    print(f"web forms: {sum(statuses.values())} posts: {counts}")
    for problem in problems:
        print(f"  {problem}")
    return problems
