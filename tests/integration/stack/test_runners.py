"""The supervisor's runners with real processes: a hung service is killed and restarted, a
dead server is started again on the same port, and PostgreSQL comes back after a SIGKILL."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from axonal_stack.discovery import ServiceEntry
from axonal_stack.nats_server import NatsServer
from axonal_stack.policy import Backoff, PingOutcome
from axonal_stack.postgres_server import PostgresServer
from axonal_stack.runner import ServiceRunner
from axonal_stack.server_runner import ServerRunner
from axonal_testing.waiting import wait_for

from .test_postgres_server import psql

pytestmark = pytest.mark.slow  # real processes


@dataclass(frozen=True, slots=True)
class Sleeper(ServiceEntry):
    """A "service" that only sleeps: the probe decides what it answers."""

    def command(self) -> list[str]:
        return [sys.executable, "-c", "import time; time.sleep(600)"]


class Pings:
    """Answers ``ok`` until told to go ``silent`` (or ``unknown``: NATS down)."""

    def __init__(self) -> None:
        self.outcome: PingOutcome = "ok"
        self.count = 0

    async def __call__(self, service: str) -> PingOutcome:
        self.count += 1
        return self.outcome


def runner(tmp_path: Path, pings: Pings, hang_timeout: float) -> ServiceRunner:
    return ServiceRunner(
        Sleeper("sleeper", "none"),
        env=dict(os.environ),
        log_path=tmp_path / "sleeper.log",
        probe=pings,
        on_change=lambda: None,
        backoff=Backoff(initial=0.05),
        hang_timeout=hang_timeout,
        ping_interval=0.05,
    )


@pytest.fixture
def running() -> Iterator[list[asyncio.Task[None]]]:
    tasks: list[asyncio.Task[None]] = []
    yield tasks
    assert all(task.done() for task in tasks), "cancel every runner in the test"


async def test_a_service_silent_past_the_hang_timeout_is_killed_and_restarted(tmp_path: Path):
    pings = Pings()
    service = runner(tmp_path, pings, hang_timeout=0.5)
    task = asyncio.create_task(service.run())
    try:
        await wait_for(service.healthy.wait, timeout=10, message="healthy")
        first = service.state.process
        assert first is not None
        os.kill(first.pid, signal.SIGSTOP)  # stopped: only SIGKILL ends it
        pings.outcome = "silent"
        await wait_for(lambda: service.state.hangs == 1, timeout=10, message="killed as hung")
        assert service.state.last_exit_code == -signal.SIGKILL
        assert service.state.last_restart_reason == "answered no ping for 1s"
        assert service.state.restarts == 1
        pings.outcome = "ok"
        await wait_for(
            lambda: service.state.process and service.state.process.pid != first.pid,
            timeout=10,
            message="a new process",
        )
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_nats_outage_kills_no_service(tmp_path: Path):
    pings = Pings()
    service = runner(tmp_path, pings, hang_timeout=0.3)
    task = asyncio.create_task(service.run())
    try:
        await wait_for(service.healthy.wait, timeout=10, message="healthy")
        pings.outcome = "unknown"
        seen = pings.count
        await wait_for(lambda: pings.count > seen + 20, timeout=10, message="a second of pings")
        assert service.state.restarts == 0
        assert service.healthy.is_set()
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert service.state.process is None
    assert service.state.last_exit_code == -signal.SIGTERM  # stopped by the cancellation


async def test_a_killed_nats_server_is_restarted_on_its_port_with_its_streams(tmp_path: Path):
    import nats  # noqa: PLC0415

    server = NatsServer(tmp_path / "nats")
    server.start()
    messages: list[str] = []
    restarted = asyncio.Event()

    def changed(runner: ServerRunner, message: str) -> None:
        messages.append(message)
        if runner.state.up:
            restarted.set()

    watch = ServerRunner("nats", server, start_timeout=30, on_change=changed)
    task = asyncio.create_task(watch.run())
    nc = await nats.connect(server.url, max_reconnect_attempts=-1, reconnect_time_wait=0.1)
    try:
        js = nc.jetstream()
        await js.add_stream(name="KEPT", subjects=["kept.>"])
        await js.publish("kept.one", b"1")
        port, pid = server.port, server.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(restarted.wait(), timeout=30)
        assert (server.port, watch.state.restarts, watch.state.up) == (port, 1, True)
        assert watch.state.last_exit_code == -signal.SIGKILL
        assert server.pid != pid
        assert "exited with code -9; restarting it on port" in messages[0]
        assert "restarted" in messages[1]
        await wait_for(lambda: nc.is_connected, timeout=10, message="client reconnected")
        info = await js.stream_info("KEPT")
        assert info.state.messages == 1  # the JetStream store was kept
    finally:
        await nc.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        server.stop()


async def test_postgres_killed_with_a_client_connected_comes_back_on_its_port(tmp_path: Path):
    import asyncpg  # noqa: PLC0415

    # as the stack runs it: no fsync, but commits written to the OS before they return
    server = PostgresServer(tmp_path / "pg", durable=False, settings={"synchronous_commit": "on"})
    server.start()
    try:
        psql(server.url, "CREATE TABLE survived (v int); INSERT INTO survived VALUES (7)")
        client = await asyncpg.connect(server.url)  # a backend still running after the kill
        old = server.pid
        assert old is not None
        os.kill(old, signal.SIGKILL)
        await wait_for(lambda: server.exit_code() is not None, timeout=10, message="dead")
        await asyncio.to_thread(server.reap_group)
        assert not (server.pgdata / "postmaster.pid").exists()  # it named the dead postmaster
        await server.start_async(timeout=60)
        assert server.pid != old
        assert psql(server.url, "SELECT v FROM survived") == "7"
        with pytest.raises((asyncpg.PostgresError, OSError, asyncpg.InterfaceError)):
            await client.fetchval("SELECT 1")  # that connection is gone for good
    finally:
        server.stop()


def test_lock_files_of_another_postmaster_are_kept(tmp_path: Path):
    server = PostgresServer(tmp_path / "pg", durable=False)
    server.pgdata.mkdir(parents=True)
    lock = server.pgdata / "postmaster.pid"
    lock.write_text("4242\n/some/where\n")
    server.clear_after_crash(1234)
    assert lock.exists()
    server.clear_after_crash(4242)
    assert not lock.exists()
