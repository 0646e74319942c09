"""A test double of the agent (an agent needs processes; these tests need only its reports):
it pulls ``ExecuteRun`` commands from queues and answers with the reports a script returns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from nats.js.api import ConsumerConfig

from axonal_bus.outbox import event_headers
from axonal_bus.service import ServiceSettings
from axonal_events import EventData, StreamKind, new_event
from axonal_events.commands import COMMANDS, ExecuteRun, StatusReport

__all__ = ["FakeAgent", "Script", "send"]

Script = Callable[[ExecuteRun], list[tuple[str, dict[str, Any]]]]


class FakeAgent:
    """Pulls ExecuteRun from queues; replies with the reports its ``script`` returns."""

    def __init__(self, nc: Any, settings: ServiceSettings) -> None:
        self.nc, self.js, self.settings = nc, nc.jetstream(), settings
        self.subjects = settings.subjects
        self.received: list[ExecuteRun] = []
        self.script: Script | None = None
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self, queue: str) -> None:
        sub = await self.js.pull_subscribe(
            self.subjects.agent_queue(queue),
            durable=f"agent-{queue}",
            stream=self.subjects.stream_name(StreamKind.COMMANDS),
            config=ConsumerConfig(ack_wait=30),
        )
        self.tasks.append(asyncio.create_task(self._loop(sub)))

    async def _loop(self, sub: Any) -> None:
        while True:
            try:
                msgs = await sub.fetch(10, timeout=1)
            except TimeoutError:
                continue
            except Exception:  # noqa: BLE001 - a server restarting under the test: fetch again
                await asyncio.sleep(0.05)
                continue
            for msg in msgs:
                cmd = COMMANDS.decode(msg.data).data
                assert isinstance(cmd, ExecuteRun)
                self.received.append(cmd)
                await msg.ack()
                if self.script is not None:
                    for status, extra in self.script(cmd):
                        await self.report(cmd.run_uuid, cmd.attempt, status, **extra)

    async def report(self, run_uuid: str, attempt: int, status: str, **extra: Any) -> None:
        report = StatusReport(
            run_uuid=run_uuid, attempt=attempt, agent="fake", status=status, **extra
        )
        await send(self.js, self.subjects.command("scheduler", "report"), report)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def send(js: Any, subject: str, data: EventData) -> None:
    """Publish ``data`` as a command (or event) on ``subject``, as a service would."""
    event = new_event(data, source="/tests")
    await js.publish(subject, event.to_json(), headers=event_headers(event))
