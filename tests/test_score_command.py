import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine.errors import REFUSALS
from tests.vectors import CASES, REJECTED, SCORED, assert_matches, assert_mentions

ROOT = Path(__file__).resolve().parents[1]
GOOD, OTHER = SCORED[0], SCORED[-1]
BAD = REJECTED[0]


def score(*args: str, out: io.StringIO | None = None) -> str:
    """Run `manage.py score ARGS` in this process and return what it printed."""
    out = out or io.StringIO()
    call_command("score", *args, stdout=out)
    return out.getvalue()


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def encode(request: object) -> bytes:
    return json.dumps(request, ensure_ascii=False).encode()


def test_scores_a_file(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_bytes(encode(GOOD["request"]))

    printed = score(str(path))

    assert printed.startswith('{\n  "')
    assert_matches(GOOD["expect"], json.loads(printed))


@pytest.mark.parametrize("args", [(), ("-",)], ids=["no-argument", "dash"])
def test_reads_standard_input(monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]) -> None:
    feed_stdin(monkeypatch, encode(GOOD["request"]))

    printed = score(*args)

    assert_matches(GOOD["expect"], json.loads(printed))


def test_rejected_request_prints_the_error_and_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, encode(BAD["request"]))
    out = io.StringIO()

    with pytest.raises(CommandError):
        score(out=out)

    error = json.loads(out.getvalue())
    assert set(error) == {"error", "field", "code", "args"}
    assert error["code"] in REFUSALS
    assert_mentions(BAD, error["error"])


def test_invalid_json_fails(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text('{"rules": "standard",\n', encoding="utf-8")

    with pytest.raises(CommandError, match="not valid JSON"):
        score(str(path))


def test_missing_file_fails(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Cannot read"):
        score(str(tmp_path / "missing.json"))


def test_lines_keep_order_and_survive_bad_lines(tmp_path: Path) -> None:
    lines = [encode(GOOD["request"]), b"{not json", b"", encode(BAD["request"])]
    lines.append(encode(OTHER["request"]))
    path = tmp_path / "deals.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")

    printed = score("--lines", str(path)).splitlines()

    # The blank third line prints nothing: four results for five lines.
    assert len(printed) == 4
    first, bad_json, rejected, last = map(json.loads, printed)
    assert_matches(GOOD["expect"], first)
    assert bad_json["line"] == 2
    assert bad_json["error"].startswith("Line 2 is not valid JSON")
    assert rejected["line"] == 4
    assert_mentions(BAD, rejected["error"])
    assert_matches(OTHER["expect"], last)


def test_lines_score_every_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    feed_stdin(monkeypatch, b"".join(encode(case["request"]) + b"\n" for case in CASES))

    printed = score("--lines").splitlines()

    assert len(printed) == len(CASES)
    for case, line in zip(CASES, printed, strict=True):
        outcome = json.loads(line)
        if "expect" in case:
            assert_matches(case["expect"], outcome)
        else:
            assert_mentions(case, outcome["error"])


def run_manage_py(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    """Run manage.py in a child whose database URL points at nothing that answers."""
    env = {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def test_needs_no_database() -> None:
    single = run_manage_py("score", stdin=encode(GOOD["request"]))
    rejected = run_manage_py("score", "-", stdin=encode(BAD["request"]))
    lines = run_manage_py("score", "--lines", stdin=encode(GOOD["request"]) + b"\n[]\n")

    assert single.returncode == 0, single.stderr.decode()
    assert_matches(GOOD["expect"], json.loads(single.stdout))
    assert rejected.returncode == 1, rejected.stderr.decode()
    assert_mentions(BAD, json.loads(rejected.stdout)["error"])
    assert lines.returncode == 0, lines.stderr.decode()
    assert len(lines.stdout.splitlines()) == 2


def test_many_lines_come_back_in_order() -> None:
    """Speed is measured by `make bench`; here only that a long run keeps every line."""
    requests = [encode(case["request"]) for case in CASES]
    stdin = b"\n".join(requests[i % len(requests)] for i in range(1_000)) + b"\n"

    result = run_manage_py("score", "--lines", stdin=stdin)

    assert result.returncode == 0, result.stderr.decode()
    printed = result.stdout.splitlines()
    assert len(printed) == 1_000
    for i, line in enumerate(printed):
        case = CASES[i % len(CASES)]
        outcome = json.loads(line)
        if "expect" in case:
            assert_matches(case["expect"], outcome)
        else:
            assert_mentions(case, outcome["error"])
