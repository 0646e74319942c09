"""Periodic work of a service with several replicas fires once per interval, not once per
replica (retention passes, housekeeping, pruning), on a real PostgreSQL."""

import asyncio
import itertools
import time
import uuid

import pytest_asyncio

from axonal_bus.schema import BUS_MIGRATIONS
from axonal_bus.ticks import claim_tick, every
from axonal_db import create_pool, migrate


@pytest_asyncio.fixture(loop_scope="session")
async def replicas(database_url):
    """Two pools on one service schema: two replicas of the service."""
    schema = f"svc_{uuid.uuid4().hex[:8]}"
    pools = [await create_pool(database_url, schema=schema) for _ in range(2)]
    await migrate(pools[0], schema=schema, sources=[BUS_MIGRATIONS])
    try:
        yield pools
    finally:
        for pool in pools:
            await pool.close()


async def test_one_replica_claims_a_tick_and_the_next_comes_after_the_interval(replicas):
    first, second = replicas
    claims = await asyncio.gather(*(claim_tick(p, "retention", 60) for p in replicas * 3))
    assert sorted(claims) == [False] * 5 + [True]
    assert not await claim_tick(second, "retention", 60)
    assert await claim_tick(first, "housekeeping", 60)  # timers are told apart by name
    await first.execute(
        "UPDATE timer_ticks SET fired_at = fired_at - interval '55 seconds' WHERE name = $1",
        "retention",
    )
    assert await claim_tick(second, "retention", 60)  # nine tenths of it have passed


async def test_two_replicas_timers_fire_once_per_interval_between_them(replicas):
    interval, fired = 0.25, []

    async def work(replica: int) -> None:
        fired.append((time.monotonic(), replica))

    loops = [
        asyncio.create_task(every(pool, "pruning", interval, lambda i=i: work(i), at_start=True))
        for i, pool in enumerate(replicas)
    ]
    await asyncio.sleep(2.6)
    for loop in loops:
        loop.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    times = [at for at, _ in fired]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    # one loop per replica, each firing every interval: twice per interval without the claim
    assert len(fired) <= 2.6 / (0.9 * interval) + 1, fired
    assert min(gaps) >= 0.8 * interval, gaps
    assert len(fired) >= 3  # the work goes on
