"""For benchmarks/live_table.py: a phone's HTTP client (HTTP/1.1 on asyncio, no dependency),
the local Redis, and what the server's log says."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from pathlib import Path
from typing import Any


class Http:
    """A phone's HTTP/1.1 client on asyncio: keep-alive connections, one per request in
    flight (a browser opens more when it needs them). A 503 with Retry-After (the server
    busy) is sent again after that pause, as the phone's queue does, for up to ``patience``
    seconds; ``busy`` counts them."""

    patience = 30.0

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        # The phone's own secret: the first phone to open a seat holds it (X-Seat-Device).
        self.device = secrets.token_hex(16)
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.busy = 0

    async def request(
        self, method: str, path: str, body: Any = None, key: str = ""
    ) -> tuple[int, Any]:
        """The answer's status and JSON body; ``key``: an Idempotency-Key."""
        deadline = time.monotonic() + self.patience
        while True:
            status, headers, answer = await self._send(method, path, body, key)
            pause = headers.get("retry-after", "")
            if status != 503 or not pause.isdigit() or time.monotonic() + int(pause) > deadline:
                return status, answer
            self.busy += 1
            await asyncio.sleep(int(pause))

    async def _send(
        self, method: str, path: str, body: Any, key: str
    ) -> tuple[int, dict[str, str], Any]:
        data = b"" if body is None else json.dumps(body).encode()
        keyed = f"Idempotency-Key: {key}\r\n" if key else ""
        head = (
            f"{method} /api/v1{path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"X-Seat-Token: {self.token}\r\nX-Seat-Device: {self.device}\r\n"
            f"{keyed}"
            "Accept: application/json\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        for attempt in range(2):  # a kept connection the server closed meanwhile: once more
            fresh = not self.idle
            reader, writer = (
                await asyncio.open_connection("127.0.0.1", self.port) if fresh else self.idle.pop()
            )
            try:
                writer.write(head.encode() + data)
                await writer.drain()
                status, headers, payload = await _response(reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                if fresh or attempt:
                    raise
                continue
            if headers.get("connection", "").lower() != "close":
                self.idle.append((reader, writer))
            else:
                writer.close()
            try:
                answer = json.loads(payload) if payload else None
            except ValueError:
                answer = payload.decode("utf-8", "replace")
            return status, headers, answer
        raise ConnectionError("no answer")

    def close(self) -> None:
        for _reader, writer in self.idle:
            writer.close()


async def _response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    status_line = await reader.readuntil(b"\r\n")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        while await reader.readuntil(b"\r\n") != b"\r\n":
            pass
        payload = b"".join(chunks)
    else:
        payload = await reader.readexactly(int(headers.get("content-length", 0)))
    return status, headers, payload


def local_redis(db: int) -> str | None:
    """The local Redis database ``db`` (emptied), or None when Redis does not answer."""
    import redis

    url = f"redis://127.0.0.1:6379/{db}"
    try:
        redis.Redis.from_url(url, socket_timeout=2).flushdb()
    except redis.RedisError:
        return None
    return url


NOTEWORTHY = ("WARNING", "ERROR", "Traceback", "killed", "announce")


def server_log(lines: list[str]) -> None:
    """What Daphne's log says: answers by status, and its warnings and errors (but the
    health check's "no worker", which is true here)."""
    statuses: dict[str, int] = {}
    other: list[str] = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            entry = None
        if isinstance(entry, dict) and "status" in entry:
            statuses[str(entry["status"])] = statuses.get(str(entry["status"]), 0) + 1
        elif any(w in line for w in NOTEWORTHY) and "health check worker" not in line:
            other.append(line.split(" ", 2)[-1] if line[:2] == "20" else line)
    answers = ", ".join(f"{n} x {status}" for status, n in sorted(statuses.items()))
    print(f"  server log: answers {answers}; {len(other)} warnings or errors")
    for line in sorted(set(other), key=other.index)[:5]:
        print(f"    {other.count(line)} x {line[:160]}")


def statements(folder: Path) -> int:
    """The SQL statements the servers counting into ``folder`` have run so far, as of
    0.1 s ago (benchmarks/live_counting.py)."""
    total = 0
    for path in folder.iterdir():
        if not path.name.startswith("."):
            with contextlib.suppress(OSError, ValueError):  # a process gone meanwhile
                total += int(path.read_text() or 0)
    return total
