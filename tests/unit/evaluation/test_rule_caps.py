"""A rule's caps on one replica: judge calls at once, and a minute."""

from __future__ import annotations

import asyncio
import itertools
import time

from axonal_evaluation.context import Pace


async def test_pace_spaces_calls_in_order():
    pace = Pace(0.05)
    started = time.monotonic()
    passed: list[float] = []

    async def call() -> None:
        await pace.wait()
        passed.append(time.monotonic() - started)

    await asyncio.gather(*(call() for _ in range(5)))
    assert passed[0] < 0.04
    assert passed[-1] >= 0.19
    gaps = [b - a for a, b in itertools.pairwise(passed)]
    assert min(gaps) >= 0.04
