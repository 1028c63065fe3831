"""scripts/serve_prod.sh refuses a RUN_WORKER it cannot read before it starts anything."""

import os
import subprocess
from pathlib import Path

import pytest

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
