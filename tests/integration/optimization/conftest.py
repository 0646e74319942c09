"""The scheduler and the optimization service on a real NATS and PostgreSQL, with the agent's
test double computing the Branin function from each trial's params."""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from typing import Any

import pytest_asyncio

from axonal_bus import rpc
from axonal_bus.errors import AxonalError
from axonal_events.commands import ExecuteRun, SubmitRun
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun, ListRuns, RunInfo
from axonal_scheduler.app import build_app as build_scheduler
from axonal_scheduler.settings import SchedulerSettings
from axonal_testing.agent_double import FakeAgent, send
from axonal_testing.waiting import wait_for


def branin(x: float, y: float) -> float:
    a = (y - 5.1 / (4 * math.pi**2) * x**2 + 5 / math.pi * x - 6) ** 2
    return a + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x) + 10


def sweep(matrix: str, extra_inputs: str = "") -> str:
    """A sweep over Branin's domain whose trials report ``loss``."""
    return f"""
version: 1.1
kind: operation
name: branin
matrix:
{matrix}
  params:
    x: {{kind: uniform, value: [-5, 10]}}
    y: {{kind: uniform, value: [0, 15]}}
component:
  inputs: [{{name: x, type: float}}, {{name: y, type: float}}{extra_inputs}]
  run: {{kind: job, container: {{image: python, command: [echo, "{{{{ x }}}}"]}}}}
"""


def branin_trial(cmd: ExecuteRun) -> list[tuple[str, dict[str, Any]]]:
    """Branin, plus ``10 / epochs`` when the trial has a resource (more is better)."""
    loss = branin(float(cmd.inputs["x"]), float(cmd.inputs["y"]))
    if "epochs" in cmd.inputs:
        loss += 10 / float(cmd.inputs["epochs"])
    return [("running", {}), ("succeeded", {"outputs": {"loss": loss}})]


@dataclass
class Sweeps:
    """What a test does: submit a sweep, read it and its trials."""

    nc: Any
    settings: SchedulerSettings
    agent: FakeAgent

    async def submit(self, text: str) -> str:
        run_uuid = uuid.uuid4().hex
        cmd = SubmitRun(run_uuid=run_uuid, owner="acme", project="hpo", files=[text])
        await send(self.nc.jetstream(), self.settings.subjects.command("scheduler", "submit"), cmd)
        return run_uuid

    async def get(self, run_uuid: str) -> RunInfo:
        subjects = self.settings.subjects
        return await rpc.call(self.nc, subjects, Scheduler.get_run, GetRun(run_uuid=run_uuid))

    async def trials(self, sweep_uuid: str) -> list[RunInfo]:
        query = ListRuns(owner="acme", project="hpo", pipeline_uuid=sweep_uuid, limit=1000)
        listed = await rpc.call(self.nc, self.settings.subjects, Scheduler.list_runs, query)
        return listed.runs

    async def ended(self, sweep_uuid: str, timeout: float = 60) -> RunInfo:
        async def done() -> RunInfo | None:
            try:
                run = await self.get(sweep_uuid)
            except AxonalError:  # not created yet, or the scheduler is restarting
                return None
            return run if run.status in ("succeeded", "failed", "stopped") else None

        return await wait_for(done, timeout=timeout, message=f"sweep {sweep_uuid} ended")


@pytest_asyncio.fixture
async def sweeps(service_settings, running_service, nats_client):
    settings = service_settings(SchedulerSettings)
    await running_service(build_scheduler(settings))
    agent = FakeAgent(nats_client, settings)
    agent.script = branin_trial
    await agent.start("default")
    try:
        yield Sweeps(nats_client, settings, agent)
    finally:
        await agent.stop()
