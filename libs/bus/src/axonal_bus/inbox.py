"""Idempotent consumers: apply an event's effect once, however often it is delivered."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import asyncpg

from axonal_db import Connection, transaction

__all__ = ["claim", "process_once"]

T = TypeVar("T")


async def claim(conn: Connection, consumer: str, event_id: str) -> bool:
    """Record ``event_id`` as processed by ``consumer``; ``False`` if it already was.

    Call it inside the transaction that applies the effect, so both commit or neither does.
    """
    first = await conn.fetchval(
        "INSERT INTO inbox (consumer, event_id) VALUES ($1, $2) "
        "ON CONFLICT DO NOTHING RETURNING true",
        consumer,
        event_id,
    )
    return bool(first)


async def process_once(
    pool: asyncpg.Pool,
    consumer: str,
    event_id: str,
    effect: Callable[[Connection], Awaitable[T]],
) -> tuple[bool, T | None]:
    """Run ``effect`` in a transaction unless ``consumer`` already processed ``event_id``.

    Returns ``(applied, result)``; ``(False, None)`` for a duplicate delivery.
    """
    async with transaction(pool) as conn:
        if not await claim(conn, consumer, event_id):
            return False, None
        return True, await effect(conn)
