"""Acceptance: a sweep completes with exactly its budget of trials, none suggested twice and
none lost, when the optimization service, or the scheduler, is killed (SIGKILL) mid-sweep
and restarted."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from axonal_bus.errors import AxonalError
from axonal_db import connect
from axonal_optimization.app import build_app as build_optimization
from axonal_optimization.settings import OptimizationSettings
from axonal_scheduler.app import build_app as build_scheduler
from axonal_scheduler.settings import SchedulerSettings
from axonal_testing.agent_double import FakeAgent
from axonal_testing.services import service_process, stop_when_up
from axonal_testing.waiting import wait_for

from .conftest import Sweeps, branin_trial, sweep

BUDGET = 60
TPE = sweep(
    f"  kind: tpe\n  numRuns: {BUDGET}\n  concurrency: 2\n  seed: 5\n"
    "  metric: {name: loss, optimization: minimize}"
)


async def _check_complete(sweeps: Sweeps, sweep_uuid: str, database_url: str) -> None:
    ended = await sweeps.ended(sweep_uuid, timeout=120)
    assert ended.status == "succeeded", ended
    trials = await sweeps.trials(sweep_uuid)
    assert sorted(t.name for t in trials) == sorted(f"branin-{i}" for i in range(BUDGET))
    assert {t.status for t in trials} == {"succeeded"}
    conn = await connect(database_url)
    rows = await conn.fetch(
        "SELECT number, state FROM optimization.trials WHERE sweep_uuid = $1", sweep_uuid
    )
    await conn.close()
    assert sorted(r["number"] for r in rows) == list(range(BUDGET))
    assert {r["state"] for r in rows} == {"complete"}


@pytest.mark.parametrize("killed", ["optimization", "scheduler"])
async def test_a_sweep_survives_a_killed_service(
    killed, service_settings, running_service, nats_client, database_url, tmp_path: Path
):
    settings = {
        "scheduler": service_settings(SchedulerSettings),
        "optimization": service_settings(OptimizationSettings),
    }
    if killed == "optimization":
        await running_service(build_scheduler(settings["scheduler"]))
    else:
        await running_service(build_optimization(settings["optimization"]))
    agent = FakeAgent(nats_client, settings["scheduler"])
    agent.script = branin_trial
    sweeps = Sweeps(nats_client, settings["scheduler"], agent)
    module = f"axonal_{killed}"
    with (tmp_path / f"{killed}.log").open("wb") as log:
        first = service_process(module, settings[killed], log)
        await agent.start("default")
        try:
            sweep_uuid = await sweeps.submit(TPE)

            async def underway() -> bool:
                try:
                    return len(await sweeps.trials(sweep_uuid)) >= 10
                except AxonalError:  # the scheduler may not answer yet
                    return False

            await wait_for(underway, timeout=60, message="10 trials suggested")
            first.send_signal(signal.SIGKILL)  # mid-sweep: suggestions and acks in flight lost
            first.wait(10)
            if killed == "optimization":
                assert len(await sweeps.trials(sweep_uuid)) < BUDGET, "the kill came too late"
            second = service_process(module, settings[killed], log)
            try:
                await _check_complete(sweeps, sweep_uuid, database_url)
            finally:
                code = await stop_when_up(nats_client, settings[killed].subjects, killed, second)
                assert code == 0, "a clean stop exits 0"
        finally:
            await agent.stop()
            if first.poll() is None:
                first.kill()
