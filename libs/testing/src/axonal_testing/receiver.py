"""A webhook receiver on loopback for end-to-end tests: it notes every POST (headers and
body) and the status it answered, ``status``, which a test may change."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Post", "Receiver", "receiving"]

Post = tuple[dict[str, str], bytes]


class Receiver(ThreadingHTTPServer):
    """Serves on ``127.0.0.1`` at a free port once :func:`receiving` starts it."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.posts: list[Post] = []
        self.statuses: list[int] = []  # what each post was answered
        lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with lock:  # posts[i] was answered statuses[i]
                    status = receiver.status
                    receiver.posts.append((dict(self.headers.items()), body))
                    receiver.statuses.append(status)
                self.send_response(status)
                self.end_headers()
                self.wfile.write(b"receiver says %d" % status)

            def log_message(self, *_: object) -> None:
                return

        super().__init__(("127.0.0.1", 0), Handler)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies received so far."""
        return [json.loads(body) for _, body in self.posts]


@contextmanager
def receiving(status: int = 200) -> Iterator[Receiver]:
    """A :class:`Receiver` serving in a thread until the block ends."""
    server = Receiver(status)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
