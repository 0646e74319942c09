"""``async with transaction(pool) as conn:`` — one connection inside one transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Literal

import asyncpg

from axonal_db.pool import Connection

__all__ = ["Isolation", "transaction"]

Isolation = Literal["read_committed", "repeatable_read", "serializable"]


@asynccontextmanager
async def transaction(
    db: asyncpg.Pool | Connection,
    *,
    isolation: Isolation | None = None,
    readonly: bool = False,
) -> AsyncIterator[Connection]:
    """Yield a connection inside a transaction: committed on exit, rolled back on error.

    ``db`` is a pool (a connection is acquired and released) or a connection; on a connection
    that is already in a transaction this opens a savepoint.
    """
    if isinstance(db, asyncpg.Pool):
        async with db.acquire() as conn, conn.transaction(isolation=isolation, readonly=readonly):
            yield conn
    else:
        async with db.transaction(isolation=isolation, readonly=readonly):
            yield db
