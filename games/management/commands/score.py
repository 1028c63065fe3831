"""`manage.py score`: score requests read from a file or standard input, without a database."""

import json
import sys
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import ScoreError, score_request
from games.engine.messages import Message
from games.errors import error_body

# One encoder for every line: json.dumps with options builds a new one per call.
_compact = json.JSONEncoder(separators=(",", ":")).encode


class Rejected(Exception):
    """A request that cannot be scored, with the error object printed for it."""

    def __init__(self, message: str, field: str | None = None, code: Message | None = None) -> None:
        super().__init__(message)
        self.error = error_body(message, field, code)


def score(raw: bytes, where: str) -> dict[str, Any]:
    """Decode one JSON request and score it; Rejected when it is malformed or refused."""
    try:
        request = json.loads(raw)
    except UnicodeDecodeError:
        raise Rejected(f"{where} is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        position = (
            f"line {exc.lineno}, column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        )
        raise Rejected(f"{where} is not valid JSON: {exc.msg} ({position}).") from None
    if not isinstance(request, dict):
        raise Rejected(f"{where} must be a JSON object: a score request.")
    try:
        return score_request(request)
    except ScoreError as exc:
        raise Rejected(exc.message, exc.field, exc.code) from None


class Command(BaseCommand):
    help = (
        "Score one JSON request from FILE (or standard input) and print the result. With"
        " --lines, score one request per line and print one compact result per line."
    )
    # Scoring is pure computation: no checks, no migrations, no database connection.
    requires_system_checks = ()
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            nargs="?",
            default="-",
            help="a file of JSON (UTF-8); '-' or nothing reads standard input",
        )
        parser.add_argument(
            "--lines",
            action="store_true",
            help=(
                "one request per line in, one result per line out, in order; blank lines are"
                " skipped; a rejected line gives an error object and the rest are still scored"
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        if path == "-":
            self._run(sys.stdin.buffer, lines=options["lines"])
            return
        try:
            stream = open(path, "rb")  # noqa: SIM115 - closed by the with block below
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}") from exc
        with stream:
            self._run(stream, lines=options["lines"])

    def _run(self, stream: IO[bytes], *, lines: bool) -> None:
        if lines:
            self._score_lines(stream)
        else:
            self._score_one(stream.read())

    def _score_one(self, raw: bytes) -> None:
        """Print the result indented; on a bad request print its error object and exit 1."""
        try:
            result = score(raw, "The request")
        except Rejected as exc:
            self.stdout.write(json.dumps(exc.error, indent=2))
            raise CommandError(exc.error["error"]) from None
        self.stdout.write(json.dumps(result, indent=2))

    def _score_lines(self, stream: IO[bytes]) -> None:
        """Score each non-blank line; an error names its line and does not stop the run."""
        write = self.stdout.write
        for number, raw in enumerate(stream, start=1):
            if raw.isspace():
                continue
            try:
                write(_compact(score(raw, f"Line {number}")))
            except Rejected as exc:
                write(_compact({**exc.error, "line": number}))
        self.stdout.flush()
