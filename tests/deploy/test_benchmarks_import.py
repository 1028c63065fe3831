"""Every benchmark script of ``make bench`` starts: imported as ``make bench`` runs it
(a fresh interpreter, no DJANGO_SETTINGS_MODULE set), up to the point where it would
begin timing. A script broken at import stops ``make bench`` before the scripts after it
print anything."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = re.findall(r"\$\(PY\) (benchmarks/\w+\.py)", (ROOT / "Makefile").read_text())


def test_make_bench_runs_every_script() -> None:
    scripts = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "benchmarks").glob("*.py")
        if "__main__" in path.read_text()
    )
    assert sorted(BENCH) == scripts


@pytest.mark.parametrize("script", BENCH)
def test_a_benchmark_script_imports_without_settings(script: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    load = (
        "import importlib.util, sys;"
        f" spec = importlib.util.spec_from_file_location('bench', {script!r});"
        " module = importlib.util.module_from_spec(spec); sys.modules['bench'] = module;"
        " spec.loader.exec_module(module)"
    )
    done = subprocess.run(
        [sys.executable, "-c", load], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
