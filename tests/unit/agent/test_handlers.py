"""The agent's handlers and its memory, called directly: no server."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from axonal_agent.adapters.local import LocalExecutor
from axonal_agent.agent import REMEMBERED_STOPS, Agent, Attempt
from axonal_agent.app import SERVICE, build_app
from axonal_agent.context import Context
from axonal_agent.domain.init_steps import InitStep
from axonal_agent.domain.resources import Resources
from axonal_agent.ports import LogSink, ProcessSpec
from axonal_agent.runs.handlers import decode_execute, on_stopping
from axonal_agent.runs.heartbeats import heartbeat
from axonal_agent.runs.subscriptions import durable_for
from axonal_agent.settings import AgentSettings
from axonal_bus.errors import Permanent
from axonal_bus.service import CONTEXT_KEY
from axonal_events import EventDecodeError, RunStatus, RunStatusChanged, new_event
from axonal_events.commands import ExecuteRun, StatusReport

RUN = "a" * 32
OTHER = "b" * 32


class FakeProcess:
    pid = 4242

    def __init__(self) -> None:
        self.stops: list[float] = []

    async def wait(self) -> int:
        return 0

    async def stop(self, grace: float) -> None:
        self.stops.append(grace)


class FakeExecutor:
    async def prepare(self, folder: Path, steps: Sequence[InitStep], log: LogSink) -> None:
        return None

    async def start(self, spec: ProcessSpec, log: LogSink) -> FakeProcess:
        return FakeProcess()

    async def reap(self, pid: int, started_at: datetime | None) -> bool:
        return False


def settings(tmp_path: Path) -> AgentSettings:
    return AgentSettings.model_validate(
        {
            "name": "agent-1",
            "queues": ["default", "gpu/a100"],
            "cpu": 2,
            "memory": 2**30,
            "gpu": 0,
            "work_root": tmp_path,
            "stop_grace_seconds": 3.0,
        }
    )


def command(run_uuid: str = RUN, attempt: int = 1) -> ExecuteRun:
    return ExecuteRun(
        run_uuid=run_uuid,
        attempt=attempt,
        owner="acme",
        project="vision",
        queue="default",
        run={"kind": "job", "container": {"command": ["true"]}},
    )


def running(ctx: Context, cmd: ExecuteRun) -> FakeProcess:
    """An attempt of ``cmd`` under way in ``ctx``'s memory, with a started process."""
    process = FakeProcess()
    attempt = Attempt(cmd, Path("/runs") / cmd.run_uuid, None, process=process)
    ctx.agent.attempts[attempt.key] = attempt
    return process


def stopping(run_uuid: str):
    data = RunStatusChanged(
        run_uuid=run_uuid,
        project="acme/vision",
        status=RunStatus.STOPPING,
        previous_status=RunStatus.RUNNING,
        occurred_at=datetime.now(UTC),
    )
    return new_event(data, source="/tests/scheduler", project="acme/vision")


def test_durable_names_are_one_token_per_queue():
    assert durable_for("default") == "agent-default"
    assert durable_for("gpu/a100") == "agent-gpu-a100"


def test_only_execute_commands_are_decoded():
    event = new_event(command(), source="/tests/scheduler")
    assert decode_execute(event.to_json()).data == command()
    report = StatusReport(run_uuid=RUN, attempt=1, agent="a", status=RunStatus.RUNNING)
    with pytest.raises(Permanent, match=r"not an agent\.execute command"):
        decode_execute(new_event(report, source="/tests/agent").to_json())
    with pytest.raises(EventDecodeError):
        decode_execute(b"not json")


async def test_a_stop_event_stops_the_attempts_of_its_run_only(tmp_path):
    ctx = Context(SERVICE, settings(tmp_path), FakeExecutor())
    target, other = running(ctx, command(RUN)), running(ctx, command(OTHER))
    await on_stopping(ctx, stopping(RUN))
    await asyncio.sleep(0)  # the stop runs in a task of its own
    assert target.stops == [3.0]
    assert other.stops == []
    assert ctx.agent.stop_requested(RUN)
    assert not ctx.agent.stop_requested(OTHER)


async def test_a_stop_event_for_a_run_not_here_is_remembered(tmp_path):
    ctx = Context(SERVICE, settings(tmp_path), FakeExecutor())
    await on_stopping(ctx, stopping(OTHER))
    assert ctx.agent.stop_requested(OTHER)
    assert ctx.agent.attempts == {}


def test_stops_are_remembered_up_to_a_bound():
    agent = Agent(Resources(cpu=1, memory=1, gpu=0))
    for n in range(REMEMBERED_STOPS + 1):
        agent.remember_stop(f"{n:032d}")
    assert not agent.stop_requested(f"{0:032d}")  # the oldest is forgotten first
    assert agent.stop_requested(f"{REMEMBERED_STOPS:032d}")


async def test_heartbeat_announces_queues_slots_and_runs(tmp_path):
    ctx = Context(SERVICE, settings(tmp_path), FakeExecutor())
    ctx.agent.ledger.reserve(f"{RUN}:1", Resources(cpu=1, memory=2**20, gpu=0))
    running(ctx, command(RUN))
    beat = heartbeat(ctx)
    assert (beat.agent, beat.queues, beat.runs) == ("agent-1", ["default", "gpu/a100"], [RUN])
    assert (beat.slots["cpu"], beat.free_slots["cpu"]) == (2, 1)


def test_build_app_runs_attempts_on_the_executor_it_is_given(tmp_path):
    fake = FakeExecutor()
    ctx: Context = build_app(settings(tmp_path), fake).context.get(CONTEXT_KEY)
    assert ctx.executor is fake
    default: Context = build_app(settings(tmp_path)).context.get(CONTEXT_KEY)
    assert isinstance(default.executor, LocalExecutor)
