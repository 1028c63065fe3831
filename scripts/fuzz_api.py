"""Fuzz the REST API against its own OpenAPI schema with Schemathesis, then send every
JSON endpoint abusive bodies.

Starts the production recipe (scripts/serve_prod.sh) on a throw-away PostgreSQL database,
gives a user a group with players, a session and a deal (so that some generated ids hit
real objects), then runs `schemathesis run` over /api/schema/ with that user's token and
every check Schemathesis has: no server error, every status code, media type, header and
body as the schema documents it, schema-valid requests accepted and invalid ones refused,
credentials never ignored, deleted objects gone, created ones found
(scripts/schemathesis.toml widens one check for the operations it names, saying why).
Schemathesis only sends bodies the schema describes, so each operation that takes a JSON
body is then also sent, with the token (and the calculators without it), JSON nested
far deeper than the API reads and a body over Django's size limit: the first must answer a
4xx, 400 where the body is read (the calculators always read it), the second 413, both
in the `{"error", "field"}` shape, never a 5xx. Last, the table-side pages: signed in
through the login page, every form is posted odd values and bodies over the size and
field-count limits (scripts/fuzz_forms.py); none may answer a 5xx. Exits non-zero when
any of these finds something.
The server is started with the calculators' throttles raised, so that neither is cut short
by a 429.

    .venv/bin/python scripts/fuzz_api.py --max-examples 50
    .venv/bin/python scripts/fuzz_api.py --url http://127.0.0.1:8000 --token KEY \
        --username NAME --password PASSWORD  # a running one (the pages need a password)
"""

from __future__ import annotations

import argparse
import http.client
import json
import select
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts import fuzz_forms, prodkit

CHECKS = "all"
# Which answers positive_data_acceptance takes from the operations whose answer depends on
# data no schema holds (the file says which, and why).
CONFIG = Path(__file__).resolve().parent / "schemathesis.toml"
PASSWORD = "fuzzer-password-1"
NAMES = ("Ann", "Bob", "Cy", "Di")
DEAL = [
    {"name": "Ann", "front": "Ac Kc 3d", "middle": "4c 4d 9h Jd Qs", "back": "7c 7d 7h 2s 5d"},
    {"name": "Bob", "front": "2c 2d 8s", "middle": "5c 5h Tc Ts Kd", "back": "3c 4h 5s 6d 7s"},
    # Every seated player is in a deal: Cy and Di sat this one out.
    {"name": "Cy", "sat_out": True},
    {"name": "Di", "sat_out": True},
]


# The calculators' throttles, raised for a fuzz run (requests per minute per user/address).
FUZZ_RATES = {
    f"THROTTLE_{scope}_{who}": "100000/minute"
    for scope in ("SCORE", "ARRANGE", "EXPECTED")
    for who in ("ANON", "USER")
}
# The password change (auth/password/) counts each wrong old password Schemathesis sends
# as a failed login of the run's user: with the default limit the user would be locked out
# after five, and the web forms' run could not sign in after it. The lock-out's own tests
# are tests/deploy/test_login_throttle.py.
FUZZ_LOGIN_FAILURES = {"LOGIN_FAILURE_LIMIT": "100000"}
# Django's DATA_UPLOAD_MAX_MEMORY_SIZE, unless the server was configured otherwise.
BODY_LIMIT = 2_621_440
CALCULATORS = frozenset({"/api/v1/score/", "/api/v1/arrange/"})
DEEP = {
    "deep arrays": b"[" * 100_000 + b"]" * 100_000,
    "deep objects": b'{"a": ' * 20_000 + b"1" + b"}" * 20_000,
    "deep and unclosed": b"[" * 100_000,
    "just too deep": b'{"players": ' + b"[" * 40 + b"]" * 40 + b"}",
}


def seed_data(base: str, token: str) -> dict[str, int]:
    """A group with four players, a session and one deal; their ids, by the path segment
    that comes before each in a URL (``groups``, ``players``, ``sessions``, ``deals``)."""
    client = prodkit.Client(base, token)
    status, group = client.call("POST", "/groups/", {"name": "Fuzz club", "rules": "standard"})
    assert status == 201, group
    players = [
        client.call("POST", f"/groups/{group['id']}/players/", {"name": name})[1] for name in NAMES
    ]
    status, session = client.call(
        "POST", "/sessions/", {"group": group["id"], "players": list(NAMES)}
    )
    assert status == 201, session
    status, deal = client.call("POST", f"/sessions/{session['id']}/deals/", {"players": DEAL})
    assert status == 201, deal
    return {
        "groups": group["id"],
        "players": players[0]["id"],
        "sessions": session["id"],
        "deals": deal["number"],
    }


def json_operations(base: str) -> list[tuple[str, str]]:
    """(method, path template) of every operation whose request body may be JSON."""
    status, schema = prodkit.request_json("GET", f"{base}/api/schema/?format=json")
    assert status == 200, schema
    return [
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]


def fill_path(template: str, ids: dict[str, int]) -> str:
    """The path with each ``{parameter}`` replaced by the seeded id of the segment before
    it (``/groups/{group_pk}/players/{id}/``), 1 when none was seeded."""
    parts = template.split("/")
    return "/".join(
        str(ids.get(parts[k - 1], 1)) if part.startswith("{") else part
        for k, part in enumerate(parts)
    )


def send_raw(method: str, url: str, body: bytes, token: str | None) -> tuple[int, Any]:
    """One request with ``body`` as it is; the status and the JSON answer (else text).

    The body goes in pieces, and stops as soon as the server answers: a server refusing
    a body over its limit answers from the headers alone and closes the connection
    without reading the rest, which would otherwise break the pipe under the sender."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=60)
    try:
        connection.putrequest(method, parts.path)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(body)))
        if token:
            connection.putheader("Authorization", f"Token {token}")
        connection.endheaders()
        sock = connection.sock
        try:
            for start in range(0, len(body), 65_536):
                if select.select([sock], [], [], 0)[0]:
                    # Answered already: say no more is coming, so that a server still
                    # waiting to drain the body (Django's runserver) stops waiting.
                    sock.shutdown(socket.SHUT_WR)
                    break
                sock.sendall(body[start : start + 65_536])
        except OSError:
            pass  # closed (or reset) by the server once it had answered: read that answer
        answer = connection.getresponse()
        status, raw = answer.status, answer.read()
    finally:
        connection.close()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")[:200]


def judge(kind: str, path: str, status: int, answer: Any) -> str | None:
    """What is wrong with this answer to an abusive body, or None."""
    shaped = isinstance(answer, dict) and set(answer) == {"error", "field"}
    if kind == "oversized":
        return None if status == 413 and shaped else "not a 413 in the error shape"
    if status >= 500 or status < 400:
        return "not a 4xx"
    if not shaped:
        return "not in the error shape"
    if status == 400 and "nested" not in answer["error"]:
        return "a 400 that does not say the body is nested too deeply"
    if path in CALCULATORS and status != 400:
        return "the calculator did not read the body and answer 400"
    return None


def abusive_bodies(
    base: str, token: str, ids: dict[str, int], body_limit: int = BODY_LIMIT
) -> list[str]:
    """Sends each JSON operation deep and oversized bodies (see the module's docstring);
    prints what it found and answers the wrong answers (none: an empty list)."""
    bodies = {**DEEP, "oversized": b'{"name": "' + b"x" * body_limit + b'"}'}
    problems: list[str] = []
    statuses: dict[int, int] = {}
    for method, template in json_operations(base):
        path = fill_path(template, ids)
        callers = [token, None] if template in CALCULATORS else [token]
        for kind, body in bodies.items():
            for caller in callers:
                try:
                    status, answer = send_raw(method, base + path, body, caller)
                except OSError as exc:
                    problems.append(f"{method} {path} ({kind}): no answer: {exc}")
                    continue
                statuses[status] = statuses.get(status, 0) + 1
                wrong = judge(
                    "oversized" if kind == "oversized" else "deep", template, status, answer
                )
                if wrong:
                    who = "with the token" if caller else "anonymous"
                    problems.append(
                        f"{method} {path} ({kind}, {who}): {status}: {wrong}: {answer!r:.200}"
                    )
    counts = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
    print(f"abusive bodies: {sum(statuses.values())} requests: {counts}")
    for problem in problems:
        print(f"  {problem}")
    return problems


def schemathesis(base: str, token: str, max_examples: int, max_time: int | None, seed: int) -> int:
    """One run over every operation; its exit status. With ``max_time``, Schemathesis goes
    on generating until that many seconds are spent; without, it stops after
    ``max_examples`` per operation."""
    command = [
        str(Path(sys.executable).parent / "schemathesis"),
        "--config-file",
        str(CONFIG),
        "run",
        f"{base}/api/schema/?format=json",
        "--url",
        base,
        "--header",
        f"Authorization: Token {token}",
        "--checks",
        CHECKS,
        "--max-examples",
        str(max_examples),
        "--seed",
        str(seed),
        "--request-timeout",
        "30",
        # One worker: with two threads Schemathesis 4.32 sometimes fails inside itself
        # (a KeyError in hypothesis' lambda-source cache), reported as an error of the run.
        "--workers",
        "1",
        "--no-color",
        "--generation-database",
        "none",
        # Revoking a token could revoke the very one the run uses, leaving it 401s only.
        "--exclude-operation-id",
        "v1_auth_tokens_destroy",
    ]
    if max_time is not None:
        command += ["--max-time", str(max_time)]
    return subprocess.run(command, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=50, help="per operation")
    parser.add_argument(
        "--max-time", type=int, help="go on generating for this many seconds (default: do not)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--url", help="a server already running (then --token is needed)")
    parser.add_argument("--token", help="an API token of a user of that server")
    parser.add_argument("--username", help="that user's name, to sign in to the pages")
    parser.add_argument("--password", help="that user's password")
    parser.add_argument("--form-examples", type=int, default=20, help="odd posts per form")
    parser.add_argument("--server-log", type=Path, help="keep the server's output in this file")
    parser.add_argument(
        "--body-limit", type=int, default=BODY_LIMIT, help="the server's body limit in bytes"
    )
    args = parser.parse_args()
    if args.url:
        if not args.token:
            parser.error("--url needs --token")
        status = schemathesis(args.url, args.token, args.max_examples, args.max_time, args.seed)
        wrong = abusive_bodies(args.url, args.token, {}, args.body_limit)
        if args.username and args.password:
            ids = seed_data(args.url, args.token)
            wrong += fuzz_forms.web_forms(
                args.url, args.username, args.password, ids, args.form_examples, args.seed
            )
        return status or int(bool(wrong))
    with prodkit.throwaway_database("scorekeeper_fuzz") as database_url:
        env = prodkit.production_env(database_url, **FUZZ_RATES, **FUZZ_LOGIN_FAILURES)
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        token = prodkit.make_user(env, "fuzzer", PASSWORD)
        with (
            tempfile.TemporaryDirectory() as tmp,
            prodkit.serving(env, args.server_log or Path(tmp) / "serve.log") as server,
        ):
            ids = seed_data(server.base, token)
            status = schemathesis(server.base, token, args.max_examples, args.max_time, args.seed)
            wrong = abusive_bodies(server.base, token, ids, args.body_limit)
            wrong += fuzz_forms.web_forms(
                server.base, "fuzzer", PASSWORD, ids, args.form_examples, args.seed
            )
            errors = [line for line in server.output().splitlines() if "Traceback" in line]
            print(f"server log: {len(errors)} lines with a traceback")
            for line in errors[:3]:
                print(f"  {line[:2000]}")
    return status or int(bool(wrong) or bool(errors))


if __name__ == "__main__":
    sys.exit(main())
