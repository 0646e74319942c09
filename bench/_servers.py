"""A real nats-server and PostgreSQL in a temporary folder, for one benchmark run."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from axonal_stack.nats_server import NatsServer
from axonal_stack.postgres_server import PostgresServer

__all__ = ["nats_and_postgres"]


@contextmanager
def nats_and_postgres() -> Iterator[tuple[str, str]]:
    """Start both servers; yields their URLs (NATS, PostgreSQL) and stops them after."""
    with tempfile.TemporaryDirectory() as tmp:
        nats_server = NatsServer(Path(tmp) / "nats")
        postgres = PostgresServer(Path(tmp) / "pg")
        nats_server.start()
        postgres.start()
        try:
            yield nats_server.url, postgres.url
        finally:
            postgres.stop()
            nats_server.stop()
