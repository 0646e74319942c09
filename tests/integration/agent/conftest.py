"""Agents running in-process on the test's bus and database, plus what they report."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio
from faststream import FastStream
from nats.aio.client import Client
from nats.js.api import ConsumerConfig

from axonal_agent.app import build_app
from axonal_agent.context import Context
from axonal_agent.ports import Executor
from axonal_agent.settings import AgentSettings
from axonal_bus.outbox import event_headers
from axonal_bus.settings import BusSettings
from axonal_events import CATALOG, StreamKind, new_event
from axonal_events.commands import COMMANDS, ExecuteRun, StatusReport
from axonal_events.logs import LogBatch
from axonal_testing.waiting import wait_for


@dataclass
class Observed:
    """Status reports and log batches seen on the bus, and heartbeats."""

    reports: list[StatusReport] = field(default_factory=list)
    batches: list[LogBatch] = field(default_factory=list)
    heartbeats: list[Any] = field(default_factory=list)

    def statuses(self, run_uuid: str) -> list[str]:
        return [r.status.value for r in self.reports if r.run_uuid == run_uuid]

    def final(self, run_uuid: str) -> StatusReport | None:
        done = [
            r
            for r in self.reports
            if r.run_uuid == run_uuid and r.status.value in {"succeeded", "failed", "stopped"}
        ]
        return done[-1] if done else None

    def lines(self, run_uuid: str) -> list[str]:
        return [rec.line for b in self.batches if b.run_uuid == run_uuid for rec in b.records]

    async def wait_final(self, run_uuid: str, timeout: float = 20) -> StatusReport:
        return await wait_for(
            lambda: self.final(run_uuid), timeout=timeout, message=f"final report of {run_uuid}"
        )


@pytest_asyncio.fixture
async def observed(bus_settings: BusSettings, nats_client: Client) -> AsyncIterator[Observed]:
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    seen = Observed()
    reports = await js.pull_subscribe(
        subjects.command("scheduler", "report"),
        durable="scheduler",
        stream=subjects.stream_name(StreamKind.COMMANDS),
        config=ConsumerConfig(ack_wait=30),
    )

    async def on_log(msg: Any) -> None:
        seen.batches.append(LogBatch.model_validate_json(msg.data))

    async def on_heartbeat(msg: Any) -> None:
        seen.heartbeats.append(CATALOG.decode(msg.data).data)

    logs = await nats_client.subscribe(subjects.ingest("logs.>"), cb=on_log)
    beats = await nats_client.subscribe(subjects.event("agent.heartbeat"), cb=on_heartbeat)

    done = asyncio.Event()

    async def pull() -> None:
        while not done.is_set():  # a cancel can be lost inside a fetch: the loop ends by itself
            try:
                msgs = await reports.fetch(16, timeout=0.5)
            except TimeoutError:
                continue
            except Exception:
                await asyncio.sleep(0.1)
                continue
            for msg in msgs:
                seen.reports.append(COMMANDS.decode(msg.data).data)  # type: ignore[arg-type]
                await msg.ack()

    task = asyncio.create_task(pull())
    try:
        yield seen
    finally:
        done.set()
        await asyncio.wait_for(task, 10)
        for sub in (logs, beats):
            with contextlib.suppress(Exception):
                await sub.unsubscribe()


@dataclass
class AgentHandle:
    settings: AgentSettings
    ctx: Context
    stopped: asyncio.Event
    app: FastStream

    async def stop(self) -> None:
        """Stop the agent as SIGTERM would; returns once it has shut down."""
        self.app.exit()
        await asyncio.wait_for(self.stopped.wait(), 30)


@pytest.fixture
def start_agent(service_settings, running_service, tmp_path):
    """Start an agent of this test (``start_agent(cpu=1, run_on=...)``, ``run_on``: an
    executor of the test's; settings by name): small slots, fast heartbeats and retries; it
    is stopped after the test."""

    async def start(run_on: Executor | None = None, **overrides: Any) -> AgentHandle:
        fields: dict[str, Any] = {
            "name": f"agent-{uuid.uuid4().hex[:8]}",
            "queues": ["default"],
            "cpu": 4,
            "memory": 8 * 2**30,
            "gpu": 0,
            "work_root": tmp_path / "runs",
            "artifacts_root": tmp_path / "artifacts",
            "stop_grace_seconds": 2.0,
            "heartbeat_seconds": 0.5,
            "slot_retry_seconds": 0.2,
        }
        settings = service_settings(AgentSettings, **(fields | overrides))
        app = build_app(settings, run_on)
        stopped = asyncio.Event()

        async def mark_stopped() -> None:
            stopped.set()

        app.after_shutdown(mark_stopped)
        ctx = await running_service(app)
        return AgentHandle(settings, ctx, stopped, app)

    return start


@pytest_asyncio.fixture
async def execute(nats_client: Client, bus_settings: BusSettings):
    """Publish an ExecuteRun command as the scheduler would; returns the run uuid."""

    async def publish(
        run: dict[str, Any],
        *,
        run_uuid: str | None = None,
        attempt: int = 1,
        queue: str = "default",
        **fields: Any,
    ) -> str:
        run_uuid = run_uuid or uuid.uuid4().hex
        command = ExecuteRun(
            run_uuid=run_uuid,
            attempt=attempt,
            owner="acme",
            project="vision",
            queue=queue,
            run=run,
            **fields,
        )
        event = new_event(command, source="/tests/scheduler", project="acme/vision")
        await nats_client.jetstream().publish(
            bus_settings.subjects.agent_queue(queue), event.to_json(), headers=event_headers(event)
        )
        return run_uuid

    return publish
