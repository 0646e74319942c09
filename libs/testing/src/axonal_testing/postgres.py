"""PostgreSQL fixtures: one real server per test session, a fresh database per test.

Set ``AXONAL_DATABASE_URL`` to run against an existing server instead; its user must be
allowed to create and drop databases.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import quote, urlsplit, urlunsplit

import asyncpg
import pytest
import pytest_asyncio

from axonal_db import connect, create_pool
from axonal_stack.postgres_server import PostgresServer

__all__ = (
    "DATABASE_URL_ENV",
    "ExternalPostgres",
    "PostgresTarget",
    "create_database",
    "database_url",
    "drop_database",
    "pg_pool",
    "postgres_server",
)

DATABASE_URL_ENV = "AXONAL_DATABASE_URL"


class PostgresTarget(Protocol):
    """A PostgreSQL server tests can reach: its admin URL and the URL of any database."""

    @property
    def url(self) -> str: ...

    def url_for(self, database: str) -> str: ...


@dataclass(frozen=True, slots=True)
class ExternalPostgres:
    """A server that was already running, given by URL."""

    url: str

    def url_for(self, database: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path="/" + quote(database, safe="")))


def _database_name(test: str) -> str:
    stem = re.sub(r"[^a-z0-9_]", "_", test.lower())[:40]
    return f"t_{stem}_{uuid.uuid4().hex[:10]}"


async def create_database(server: PostgresTarget, name: str) -> str:
    """Create database ``name`` on ``server``; return its URL."""
    conn = await connect(server.url)
    try:
        # FILE_COPY: half the time of the default WAL_LOG copy for a small template
        await conn.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')
    finally:
        await conn.close()
    return server.url_for(name)


async def drop_database(server: PostgresTarget, name: str) -> None:
    """Drop database ``name``, disconnecting whoever still uses it."""
    conn = await connect(server.url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresTarget]:
    """One PostgreSQL for the session (non-durable, in a temp dir), or ``AXONAL_DATABASE_URL``."""
    external = os.environ.get(DATABASE_URL_ENV)
    if external:
        yield ExternalPostgres(external)
        return
    folder = Path(tempfile.mkdtemp(prefix="axonal-test-postgres-"))
    server = PostgresServer(folder, durable=False, die_with_parent=True)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest_asyncio.fixture(loop_scope="session")
async def database_url(
    postgres_server: PostgresTarget, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """URL of a database created for this test and dropped after it: nothing an earlier test
    left (rows, unpublished outbox events) is seen by the next one."""
    name = _database_name(request.node.name)
    url = await create_database(postgres_server, name)
    try:
        yield url
    finally:
        await drop_database(postgres_server, name)


@pytest_asyncio.fixture(loop_scope="session")
async def pg_pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A small pool on the test's database (no schema), closed after the test."""
    pool = await create_pool(database_url, min_size=1, max_size=4)
    try:
        yield pool
    finally:
        try:
            await asyncio.wait_for(pool.close(), timeout=10)
        except TimeoutError:  # a test kept a connection: don't hang the session
            pool.terminate()
