"""A rule's caps on one replica: judge calls at once, and a minute."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import cast

from axonal_evaluation.app import SERVICE
from axonal_evaluation.context import Context, Pace
from axonal_evaluation.ports import Judge
from axonal_evaluation.settings import EvaluationSettings


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


def test_each_replica_holds_its_share_of_a_rules_caps():
    settings = EvaluationSettings(replicas=2)
    ctx = Context(SERVICE, settings, judge=cast("Judge", object()))
    assert ctx.rule_pace("r-1", 60)._interval == 2.0  # 30 a minute here, 30 on the other
    assert ctx.rule_cap("r-1", 3)._value == 2  # rounded up: never none
    assert ctx.rule_cap("r-2", 1)._value == 1
