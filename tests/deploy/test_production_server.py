"""The production recipe for real: scripts/serve_prod.sh (gunicorn with several workers and
a Celery worker) on a throw-away PostgreSQL database, then the proofs that fit in CI time
against it: the concurrency proof at 8 clients x 25 deals and a bounded Schemathesis run.

PostgreSQL only (the SQLite run skips it); Redis is needed for the broker and the cache.
"""

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from scripts import fuzz_api, fuzz_forms, prodkit, prove_concurrency
from tests.conftest import skip_or_fail
from tests.services.hands import deal

# One server for the module: `make test` (--dist loadfile) keeps a file on one pytest-xdist
# worker; spread over two, each would start its own, and the anonymous throttle would count
# in one Redis cache for both.
pytestmark = [
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="runs the production recipe on PostgreSQL (CI runs it with DATABASE_URL set)",
    ),
]

WEB_WORKERS = 3


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[prodkit.Server, str, str]]:
    """(the server, an API token, its database URL)."""
    broker = prodkit.production_env("postgres://unused/x")["CELERY_BROKER_URL"]
    if not prodkit.redis_answers(broker):
        skip_or_fail(f"no Redis at {broker}")
    with prodkit.throwaway_database("scorekeeper_test_serve") as database_url:
        # Signed-in calls to the calculators (Schemathesis) are not throttled here;
        # anonymous ones keep the default rates, which a test below runs into.
        env = prodkit.production_env(
            database_url,
            WEB_CONCURRENCY=str(WEB_WORKERS),
            **{name: rate for name, rate in fuzz_api.FUZZ_RATES.items() if "USER" in name},
            **fuzz_api.FUZZ_LOGIN_FAILURES,
        )
        prodkit.manage(env, "migrate", "--noinput", "-v", "0")
        token = prodkit.make_user(env, "prover", "prover-password-1")
        log = tmp_path_factory.mktemp("serve") / "serve.log"
        with prodkit.serving(env, log) as server:
            server.wait_for_output("ready.")  # the Celery worker
            yield server, token, database_url


def test_healthz_reports_database_broker_and_worker(
    served: tuple[prodkit.Server, str, str],
) -> None:
    server, _, _ = served

    assert prodkit.request_json("GET", f"{server.base}/healthz") == (
        200,
        {
            "database": "ok",
            "broker": "ok",
            "channel_layer": "ok",
            "worker": "ok",
            "rate_limits": "shared",
        },
    )


def test_the_api_answers_and_logs_one_json_line(served: tuple[prodkit.Server, str, str]) -> None:
    server, token, _ = served
    client = prodkit.Client(server.base, token)

    status, groups = client.call("GET", "/groups/", **{"X-Request-ID": "serve-prod-test-1"})

    assert (status, groups["count"]) == (200, 0)
    server.wait_for_output('"request_id": "serve-prod-test-1"', timeout=10)
    [line] = [x for x in server.output().splitlines() if "serve-prod-test-1" in x]
    assert '"path": "/api/v1/groups/"' in line and '"status": 200' in line


def test_whitenoise_serves_hashed_compressed_static_files(
    served: tuple[prodkit.Server, str, str],
) -> None:
    server, _, _ = served
    with urllib.request.urlopen(f"{server.base}/api/docs/", timeout=30) as answer:
        page = answer.read().decode()
    [bundle] = re.findall(r'/static/[^"]*swagger-ui-bundle\.[0-9a-f]{12}\.js', page)

    request = urllib.request.Request(server.base + bundle, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.headers["Content-Encoding"] == "gzip"
        assert "immutable" in answer.headers["Cache-Control"]


def test_a_recorded_deal_is_reviewed_by_the_worker(
    served: tuple[prodkit.Server, str, str],
) -> None:
    # The review is sent to the broker only once the answer has gone out (after_response):
    # it must still reach the Celery worker.
    server, token, _ = served
    client = prodkit.Client(server.base, token)
    status, group = client.call("POST", "/groups/", {"name": "Review club", "rules": "classic-1-6"})
    assert status == 201, group
    for name in ("Ann", "Bob"):
        assert client.call("POST", f"/groups/{group['id']}/players/", {"name": name})[0] == 201
    status, night = client.call(
        "POST", "/sessions/", {"group": group["id"], "players": ["Ann", "Bob"]}
    )
    assert status == 201, night
    deals = f"/sessions/{night['id']}/deals/"
    status, recorded = client.call("POST", deals, {"players": deal(Ann="A", Bob="B")})
    assert status == 201, recorded
    assert recorded["review"] is None

    review = None
    for _ in range(240):
        status, stored = client.call("GET", f"{deals}{recorded['number']}/")
        review = stored["review"]
        if review is not None:
            break
        time.sleep(0.25)
    assert review is not None, "the worker never stored the review"
    assert [p["name"] for p in review["players"]] == ["Ann", "Bob"]


def test_concurrent_clients_lose_nothing(served: tuple[prodkit.Server, str, str]) -> None:
    server, token, database_url = served
    report = prove_concurrency.Report(clients=8, deals_each=25, sessions=2, web_workers=3)

    prove_concurrency.run_against(server, token, database_url, report)

    print("\n".join(report.lines()))
    assert report.problems == []
    assert len(report.latencies) == 200


def test_schemathesis_with_every_check_finds_nothing(
    served: tuple[prodkit.Server, str, str],
) -> None:
    # Every check (fuzz_api.CHECKS), 20 examples per operation and a fixed seed, no time
    # budget (one would make it go on generating until spent): about 70 s on two cores.
    server, token, _ = served
    ids = fuzz_api.seed_data(server.base, token)

    assert fuzz_api.CHECKS == "all"
    assert fuzz_api.schemathesis(server.base, token, max_examples=20, max_time=None, seed=2026) == 0
    assert fuzz_api.abusive_bodies(server.base, token, ids) == []
    forms = fuzz_forms.web_forms(server.base, "prover", "prover-password-1", ids, examples=8)
    assert forms == []
    assert "Traceback" not in server.output()


def post_anonymously(url: str, body: Any) -> tuple[int, Any, str | None]:
    """The status, the JSON answer and its Retry-After header."""
    data = json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer), answer.headers.get("Retry-After")
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), error.headers.get("Retry-After")


def test_anonymous_expected_mode_is_throttled_across_the_web_workers(
    served: tuple[prodkit.Server, str, str],
) -> None:
    import redis

    server, _, _ = served
    body = {
        "cards": "As Ad Ah Ac 2c Ks Kd Kh 7c 7d Qs Qd 3h",
        "rules": "classic-1-6",
        "mode": "expected",
        "samples": 50,
    }
    rate = 6  # THROTTLE_EXPECTED_ANON's default, per minute

    answers = [post_anonymously(f"{server.base}/api/v1/arrange/", body) for _ in range(rate + 1)]

    # Within the rate (fewer if a run less than a minute ago used some), then 429.
    statuses = [status for status, _, _ in answers]
    assert statuses[-1] == 429 and set(statuses) <= {200, 429}, statuses
    _, refusal, retry_after = answers[-1]
    assert retry_after is not None and 1 <= int(retry_after) <= 60
    assert refusal["field"] is None
    assert refusal["error"].startswith(f"Too many requests: try again in {retry_after} second")
    # The count is in Redis (CACHE_URL), where every gunicorn worker reads it.
    cache = redis.Redis.from_url(prodkit.production_env("postgres://unused/x")["CACHE_URL"])
    assert cache.exists(":1:throttle:expected-anon:127.0.0.1")


def test_ctrl_c_stops_gunicorn_and_the_worker(served: tuple[prodkit.Server, str, str]) -> None:
    server, _, _ = served

    # Warm shutdown lets the worker finish the review batch it holds: on a loaded CI machine
    # after the fuzz run that took longer than the default minute once (SIGKILL, -9).
    assert server.stop(timeout=180) == 0

    with pytest.raises(OSError):
        prodkit.request_json("GET", f"{server.base}/healthz", timeout=3)
    assert "Warm shutdown" in Path(server.log).read_text()
