"""A TCP proxy that really drops a phone's connection: the browser tests put it in front of
the server for one phone. ``drop()`` resets every connection through it and refuses new
ones until ``restore()`` (Playwright's offline switch would leave an open WebSocket be)."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from typing import Any


class DroppingProxy:
    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.dropped = False
        self.drops = 0
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        self.closed = False
        threading.Thread(target=self._accept, name="proxy", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.dropped:
                _reset(client)
                continue
            try:
                server = socket.create_connection(self.upstream)
            except OSError:
                _reset(client)
                continue
            with self.lock:
                self.open |= {client, server}
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                self._forget(end)

    def _forget(self, end: socket.socket) -> None:
        with self.lock:
            known = end in self.open
            self.open.discard(end)
        if known:
            _reset(end)

    def drop(self) -> None:
        """Every connection through the proxy is reset at once; new ones are refused."""
        self.dropped = True
        self.drops += 1
        with self.lock:
            ends, self.open = list(self.open), set()
        for end in ends:
            _reset(end)

    def restore(self) -> None:
        self.dropped = False

    def close(self) -> None:
        self.closed = True
        self.drop()
        self.listener.close()


def _reset(end: Any) -> None:
    """Close at once, as a connection the network lost looks to either end: a reset where
    the kernel sends one. (``shutdown`` first: a plain ``close`` would wait for the thread
    still blocked reading it.)"""
    with contextlib.suppress(OSError):
        end.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        end.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        end.close()
