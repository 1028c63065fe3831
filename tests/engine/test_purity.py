"""The engine is plain Python: importing and using it (its arrangement half too) loads no
framework."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import games.engine.arrangement
from games.engine import score_request
score_request({"rules": "standard", "players": [
    {"name": "Ann", "front": "2c 3d 5h", "middle": "Kc Kd 4s 5s 9h", "back": "Ac Ad Ah 7c 8d"},
    {"name": "Bob", "front": "Qs Qh 2d", "middle": "Qc Qd Js Ts 6s", "back": "Jc Jd 7s 7h 8s"},
]})
frameworks = ("django", "rest_framework", "celery", "weasyprint")
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] in frameworks)))
"""


def test_engine_imports_no_framework() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""
