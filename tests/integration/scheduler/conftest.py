"""The scheduler in-process on a real NATS and PostgreSQL, with a small fake agent."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest_asyncio

from axonal_bus import rpc
from axonal_bus.errors import RemoteError, RpcTimeoutError
from axonal_bus.service import ServiceSettings
from axonal_events import ErrorCode, StreamKind
from axonal_events.commands import RunAction, SubmitRun
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun, ListRuns, RunInfo
from axonal_registry.app import build_app as build_registry
from axonal_registry.settings import RegistrySettings
from axonal_scheduler.app import build_app
from axonal_scheduler.settings import SchedulerSettings
from axonal_testing.agent_double import FakeAgent, send
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for


class Client:
    """What a test does to the scheduler: submit, act, read."""

    serial = "serial"  # a queue of one run at a time
    urgent = "urgent"  # a queue of priority 10

    def __init__(self, nc: Any, settings: ServiceSettings, agent: FakeAgent) -> None:
        self.nc, self.js, self.settings, self.agent = nc, nc.jetstream(), settings, agent
        self.subjects = settings.subjects

    async def submit(self, text: str, project: str = "acme/demo", **extra: Any) -> str:
        run_uuid = extra.pop("run_uuid", None) or uuid.uuid4().hex
        owner, name = project.split("/")
        cmd = SubmitRun(run_uuid=run_uuid, owner=owner, project=name, files=[text], **extra)
        await send(self.js, self.subjects.command("scheduler", "submit"), cmd)
        return run_uuid

    async def act(self, verb: str, run_uuid: str, **extra: Any) -> None:
        action = RunAction(verb=verb, run_uuid=run_uuid, **extra)
        await send(self.js, self.subjects.command("scheduler", verb), action)

    async def get(self, run_uuid: str) -> RunInfo | None:
        """The run, or ``None`` while it does not exist (or once it is deleted)."""
        try:
            return await rpc.call(
                self.nc, self.subjects, Scheduler.get_run, GetRun(run_uuid=run_uuid)
            )
        except RemoteError as exc:
            if exc.code is ErrorCode.NOT_FOUND:
                return None
            raise

    async def wait_status(self, run_uuid: str, *statuses: str, timeout: float = 15) -> RunInfo:
        async def reached() -> RunInfo | None:
            try:
                run = await self.get(run_uuid)
            except RpcTimeoutError:  # a busy machine: ask again
                return None
            return run if run is not None and run.status in statuses else None

        return await wait_for(reached, timeout=timeout, message=f"{run_uuid} in {statuses}")

    async def wait_deleted(self, run_uuid: str) -> None:
        async def gone() -> bool:
            return await self.get(run_uuid) is None

        await wait_for(gone, message=f"{run_uuid} deleted")

    async def events(self, run_uuid: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        stream = self.subjects.stream_name(StreamKind.EVENTS)
        out = []
        for subject, data, _ in await read_stream(self.js, stream, self.subjects.events("run")):
            doc = json.loads(data)
            if run_uuid is None or doc["data"]["run_uuid"] == run_uuid:
                out.append((subject.rsplit(".", 1)[-1], doc["data"]))
        return out

    async def children(self, parent: str) -> dict[str, RunInfo]:
        query = ListRuns(owner="acme", project="demo", pipeline_uuid=parent)
        listed = await rpc.call(self.nc, self.subjects, Scheduler.list_runs, query)
        return {run.name or run.uuid: run for run in listed.runs}


@pytest_asyncio.fixture
async def scheduler(service_settings, running_service, nats_client):
    settings = service_settings(
        SchedulerSettings,
        queue_concurrency={Client.serial: 1},
        queue_priority={Client.urgent: 10},
    )
    await running_service(build_app(settings))
    agent = FakeAgent(nats_client, settings)
    for queue in ("default", Client.serial, Client.urgent):
        await agent.start(queue)
    try:
        yield Client(nats_client, settings, agent)
    finally:
        await agent.stop()


@pytest_asyncio.fixture
async def registry(service_settings, running_service) -> RegistrySettings:
    """The registry beside the scheduler: the hub that hubRef names."""
    settings = service_settings(RegistrySettings)
    await running_service(build_registry(settings))
    return settings
