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


def test_the_live_table_benchmark_ends_with_its_one_line_form() -> None:
    # Issue 31's contract: scripts read the run from this line, so its form never drifts.
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    load = (
        "import importlib.util, sys;"
        " spec = importlib.util.spec_from_file_location('bench', 'benchmarks/live_table.py');"
        " module = importlib.util.module_from_spec(spec); sys.modules['bench'] = module;"
        " spec.loader.exec_module(module);"
        " print(module.final_line(50, 1, 0.6129, 0.9371, 0, 38.24, 23.6));"
        " print(module.final_line(8, 2, 1.004, 12.3456, 3, 5.0, 29.0))"
    )
    done = subprocess.run(
        [sys.executable, "-c", load], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]

    assert done.stdout.splitlines() == [
        "live_table tables=50 processes=1 median_s=0.61 p95_s=0.94 untold=0 deals_per_s=38.2"
        " statements_per_deal=24",
        "live_table tables=8 processes=2 median_s=1.00 p95_s=12.35 untold=3 deals_per_s=5.0"
        " statements_per_deal=29",
    ]
    form = (
        r"live_table tables=\d+ processes=\d+ median_s=\d+\.\d\d p95_s=\d+\.\d\d untold=\d+"
        r" deals_per_s=\d+\.\d statements_per_deal=\d+"
    )
    assert all(re.fullmatch(form, line) for line in done.stdout.splitlines())


def test_the_live_table_benchmark_prints_that_line_last() -> None:
    source = (ROOT / "benchmarks" / "live_table.py").read_text()
    main = source[source.index("def main()") : source.index('if __name__ == "__main__"')]
    assert main.rstrip().splitlines()[-1].strip() == "print(line)  # the last line, always"
    assert "line = report(" in main
