"""Services in-process on the test's bus and database: settings, start, health, stop.

``service_settings(TrackingSettings)`` gives a service's settings pointed at this test's NATS
namespace and database; ``await running_service(build_app(settings))`` starts the service,
returns once it answers ``ping`` with ``ok`` and stops it after the test.
:func:`service_process` runs one as its own process instead, for tests that kill it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import IO, Any, Protocol, TypeVar

import pytest
import pytest_asyncio
from faststream import FastStream
from nats.aio.client import Client

from axonal_bus.errors import AxonalError
from axonal_bus.ping import ping
from axonal_bus.service import CONTEXT_KEY, ServiceContext, ServiceSettings
from axonal_bus.settings import BusSettings
from axonal_events import Subjects
from axonal_testing.waiting import wait_for

__all__ = [
    "RunningService",
    "SettingsFactory",
    "running_service",
    "service_process",
    "service_settings",
    "stop_when_up",
]

S = TypeVar("S", bound=ServiceSettings)
_STOP_TIMEOUT = 15.0


class SettingsFactory(Protocol):
    def __call__(self, settings_type: type[S], /, **fields: Any) -> S: ...


RunningService = Callable[[FastStream], Awaitable[ServiceContext[Any]]]


@pytest.fixture
def service_settings(bus_settings: BusSettings, database_url: str) -> SettingsFactory:
    """Make a service's settings for this test's namespace and database (plus ``fields``)."""

    def make(settings_type: type[S], /, **fields: Any) -> S:
        base: dict[str, Any] = {
            "nats_url": bus_settings.nats_url,
            "namespace": bus_settings.namespace,
            "database_url": database_url,
            "log_json": True,
        }
        return settings_type.model_validate(base | fields)

    return make


async def _healthy(nc: Client, ctx: ServiceContext[Any]) -> bool:
    try:
        return (await ping(nc, ctx.subjects, ctx.name, 0.5)).status == "ok"
    except AxonalError:
        return False


@pytest_asyncio.fixture
async def running_service(nats_client: Client) -> AsyncIterator[RunningService]:
    """Start service applications (``build_app(settings)``) for this test; each one is
    healthy when the call returns, and stopped (in reverse order) after the test."""
    started: list[tuple[FastStream, asyncio.Task[None]]] = []

    async def start(app: FastStream) -> ServiceContext[Any]:
        ctx: ServiceContext[Any] = app.context.get(CONTEXT_KEY)
        task = asyncio.create_task(app.run())
        started.append((app, task))

        async def up() -> bool:
            if task.done():
                task.result()  # raises what stopped it
                raise RuntimeError(f"{ctx.name} stopped while starting")
            return await _healthy(nats_client, ctx)

        await wait_for(up, timeout=20, message=f"{ctx.name} answers ping")
        return ctx

    try:
        yield start
    finally:
        for app, task in reversed(started):
            app.exit()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, _STOP_TIMEOUT)


async def stop_when_up(
    nc: Client, subjects: Subjects, name: str, process: subprocess.Popen[bytes]
) -> int:
    """Stop a :func:`service_process` with SIGTERM once it answers ping (a signal that comes
    while Python is still importing kills it before its handlers exist); its exit code."""

    async def up() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode} while starting")
        try:
            return (await ping(nc, subjects, name, 0.5)).status == "ok"
        except AxonalError:
            return False

    await wait_for(up, timeout=30, message=f"{name} answers ping")
    process.terminate()
    return await asyncio.to_thread(process.wait, 15)


def service_process(module: str, settings: BusSettings, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """``python -m <module>`` on ``settings``'s bus and database, as its own process (to be
    killed), its output in ``log``."""
    env = {
        **os.environ,
        "AXONAL_NATS_URL": settings.nats_url,
        "AXONAL_NAMESPACE": settings.namespace,
        "AXONAL_LOG_JSON": "true",
    }
    if isinstance(settings, ServiceSettings):
        env["AXONAL_DATABASE_URL"] = settings.database_url
    return subprocess.Popen(
        [sys.executable, "-m", module], env=env, stdout=log, stderr=subprocess.STDOUT
    )
