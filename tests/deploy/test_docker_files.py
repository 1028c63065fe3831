"""The Docker files (Docker itself cannot run on CI machines): their shape, and that the
environment docker/.env.example describes passes `check --deploy` once its secrets are set."""

import re
import secrets
from pathlib import Path

import yaml

from tests.deploy.test_production_settings import run

DOCKER = Path(__file__).resolve().parents[2] / "docker"
SETTINGS = (DOCKER.parent / "scorekeeper" / "settings.py").read_text()
# Read by compose, gunicorn or the worker's command rather than by the settings.
PROCESS_VARIABLES = {"POSTGRES_PASSWORD", "WEB_CONCURRENCY", "CELERY_CONCURRENCY"}


def example_env() -> dict[str, str]:
    lines = (DOCKER / ".env.example").read_text().splitlines()
    pairs = [line.split("=", 1) for line in lines if line and not line.startswith("#")]
    return {name: value for name, value in pairs}


def test_the_image_is_multi_stage_unprivileged_and_checked() -> None:
    dockerfile = (DOCKER / "Dockerfile").read_text()

    assert len(re.findall(r"^FROM ", dockerfile, re.MULTILINE)) == 2
    assert re.search(r"^USER scorekeeper$", dockerfile, re.MULTILINE)
    assert "/healthz" in dockerfile.split("HEALTHCHECK", 1)[1]
    assert "libpango-1.0-0" in dockerfile
    assert "exec gunicorn scorekeeper.wsgi" in dockerfile
    assert "collectstatic" in dockerfile


def test_compose_runs_web_live_worker_postgres_redis_after_migrating() -> None:
    compose = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    services = compose["services"]

    assert set(services) == {"migrate", "web", "live", "worker", "postgres", "redis"}
    assert services["migrate"]["command"] == "python manage.py migrate --noinput"
    assert services["worker"]["command"].startswith("celery -A scorekeeper worker")
    live = services["live"]
    assert live["command"].startswith("daphne --bind 0.0.0.0 --port 8001 ")
    assert live["command"].endswith(" scorekeeper.asgi:application")
    # The image's health check probes PORT: Daphne's.
    assert live["environment"]["PORT"] == "8001"
    assert live["ports"] == ["${LIVE_PORT:-8001}:8001"]
    for name in ("web", "live", "worker"):
        depends = services[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}
        assert depends["postgres"] == {"condition": "service_healthy"}
        assert services[name]["env_file"] == ".env"
        # The worker writes the PDFs the web serves: both see one volume at MEDIA_ROOT.
        assert "media:/app/media" in services[name]["volumes"]
    assert "media" in compose["volumes"]
    assert "ENV MEDIA_ROOT=/app/media" in (DOCKER / "Dockerfile").read_text()


def test_every_example_variable_is_read() -> None:
    unread = [
        name
        for name in example_env()
        if name not in PROCESS_VARIABLES and f'"{name}"' not in SETTINGS
    ]

    assert unread == []


def test_the_example_environment_passes_check_deploy() -> None:
    env = example_env() | {"SECRET_KEY": secrets.token_urlsafe(50)}

    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", **env)

    assert result.returncode == 0, result.stdout + result.stderr


def test_every_process_shares_the_redis_channel_layer() -> None:
    # web and worker announce (games.live.push), live holds the sockets: one layer for all.
    env = example_env()

    assert env["CHANNEL_LAYER_URL"] == "redis://redis:6379/2"
    assert env["CHANNEL_LAYER_URL"] not in (env["CELERY_BROKER_URL"], env["CACHE_URL"])
    assert env["LIVE_SOCKET_URL"] == ""  # the proxy routes /ws/ on the page's own origin
