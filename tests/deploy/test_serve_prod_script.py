"""scripts/serve_prod.sh refuses a RUN_WORKER it cannot read before it starts anything."""

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from scripts.prodkit import as_from_a_terminal

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("value", ["maybe", "2", "worker"])
def test_a_malformed_run_worker_stops_it_at_once(value: str, tmp_path: Path) -> None:
    # Were it to get further, the first thing it runs is this "python": it leaves a mark.
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\ntouch {tmp_path / 'ran'}\n")
    python.chmod(0o755)
    env = {**os.environ, "RUN_WORKER": value, "SECRET_KEY": "x" * 50, "PYTHON": str(python)}

    done = subprocess.run(
        [str(ROOT / "scripts" / "serve_prod.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )

    assert done.returncode == 2
    assert f"RUN_WORKER={value} is not a boolean" in done.stderr
    assert not (tmp_path / "ran").exists()


def fake_python(tmp_path: Path, daphne: str) -> Path:
    """A "python" that logs each command (with the live variables it was given): migrate
    and collectstatic end at once, gunicorn and celery wait, daphne runs ``daphne``."""
    python = tmp_path / "python"
    log = tmp_path / "commands"
    python.write_text(
        "#!/bin/bash\n"
        f'echo "$* | $LIVE_SOCKET_URL | $CHANNEL_LAYER_URL" >> {log}\n'
        'case "$2" in\n'
        f"  daphne) {daphne} ;;\n"
        "  gunicorn | celery) exec sleep 60 ;;\n"
        "esac\n"
    )
    python.chmod(0o755)
    return python


def serve(tmp_path: Path, python: Path, **env: str) -> subprocess.CompletedProcess[str]:
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("LIVE_SOCKET_URL", "LIVE_PORT")},
        "SECRET_KEY": "x" * 50,
        "PYTHON": str(python),
        "PORT": "9100",
        "CHANNEL_LAYER_URL": "",
        **env,
    }
    return subprocess.run(
        [str(ROOT / "scripts" / "serve_prod.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_daphne_serves_the_sockets_on_the_next_port_with_redis(tmp_path: Path) -> None:
    done = serve(tmp_path, fake_python(tmp_path, "exit 3"))

    commands = (tmp_path / "commands").read_text().splitlines()
    [daphne] = [line for line in commands if line.startswith("-m daphne")]
    assert daphne.startswith("-m daphne scorekeeper.asgi:application")
    assert "--port 9101" in daphne and "--bind 127.0.0.1" in daphne
    assert daphne.endswith("| ws://{host}:9101 | redis://127.0.0.1:6379/2")
    # Daphne stopping by itself takes gunicorn and the worker down: its status is the exit.
    assert done.returncode == 3
    assert "a process stopped (status 3); stopping the others" in done.stderr


def test_the_live_port_and_socket_url_can_be_set(tmp_path: Path) -> None:
    serve(
        tmp_path,
        fake_python(tmp_path, "exit 1"),
        LIVE_PORT="9200",
        LIVE_SOCKET_URL="wss://{host}",
        CHANNEL_LAYER_URL="redis://127.0.0.1:6379/9",
        RUN_WORKER="false",
    )

    commands = (tmp_path / "commands").read_text().splitlines()
    [daphne] = [line for line in commands if line.startswith("-m daphne")]
    assert "--port 9200" in daphne
    assert daphne.endswith("| wss://{host} | redis://127.0.0.1:6379/9")
    assert not [line for line in commands if line.startswith("-m celery")]


def test_ctrl_c_stops_daphne_with_the_others(tmp_path: Path) -> None:
    ready, mark = tmp_path / "daphne-ready", tmp_path / "daphne-stopped"
    python = fake_python(
        tmp_path, f"trap 'touch {mark}; exit 0' TERM; touch {ready}; sleep 60 & wait"
    )
    env = {**os.environ, "SECRET_KEY": "x" * 50, "PYTHON": str(python), "PORT": "9100"}
    script = subprocess.Popen(
        [str(ROOT / "scripts" / "serve_prod.sh")],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,  # Ctrl-C, as from a terminal
    )
    assert script.stderr is not None
    try:
        while "Ctrl-C stops them all" not in script.stderr.readline():
            pass
        while not ready.exists():
            time.sleep(0.05)
        script.send_signal(signal.SIGINT)
        try:
            status = script.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"serve_prod.sh still running 20 s after Ctrl-C:\n{_left(script)}")
        assert status == 0
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
    assert mark.exists()


def _left(script: subprocess.Popen[str]) -> str:
    """What is still running in the script's session (state, what it waits in, each
    process's blocked and ignored signals) and what it printed, for a failure to say."""
    table = subprocess.run(
        ["ps", "-o", "pid,ppid,stat,wchan:20,blocked,ignored,args", "--sid", str(script.pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    os.killpg(script.pid, signal.SIGKILL)
    printed = script.stderr.read() if script.stderr is not None else ""
    return f"{table}\nstderr after the ready line:\n{printed}"
