"""Pings against a real nats-server: the supervisor's verdicts (answered, silent, unknown) and
``axonal status``'s bounded checks, with NATS up, stopped (SIGSTOP) or killed."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import nats
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg

from axonal_bus.settings import BusSettings
from axonal_stack.health import stack_status
from axonal_stack.liveness import BusWatch
from axonal_stack.nats_server import NatsServer
from axonal_stack.ports import free_port
from axonal_stack.state import ProcessRef, ServiceState, StackState
from axonal_testing.waiting import wait_for

pytestmark = pytest.mark.slow  # real servers, timeouts waited out


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    nats_server = NatsServer(tmp_path / "nats")
    nats_server.start()
    try:
        yield nats_server
    finally:
        if nats_server.exit_code() is None and nats_server.pid is not None:
            os.kill(nats_server.pid, signal.SIGCONT)
        nats_server.stop()


async def serve_pings(server: NatsServer, answering: set[str]) -> Client:
    """Answer the pings of ``answering``; ``mute`` subscribes and never answers."""
    nc = await nats.connect(server.url)

    async def answer(msg: Msg) -> None:
        service = msg.subject.split(".")[2]
        if service in answering:
            reply = {
                "service": service,
                "instance": "host:1",
                "version": "1.0",
                "started_at": datetime.now(UTC).isoformat(),
                "status": "ok",
                "checks": {"database": "ok"},
            }
            await msg.respond(json.dumps({"ok": True, "result": reply}).encode())

    await nc.subscribe("axonal.rpc.*.ping", cb=answer)
    await nc.flush()
    return nc


def state(server_url: str, services: list[str]) -> StackState:
    return StackState(
        home="/nowhere",
        namespace="axonal",
        phase="running",
        nats_url=server_url,
        database_url=f"postgresql://postgres@127.0.0.1:{free_port()}/axonal",
        services={
            name: ServiceState(module=f"axonal_{name}", process=ProcessRef(pid=1, started=0))
            for name in services
        },
    )


async def test_the_supervisor_tells_a_silent_service_from_a_nats_outage(server: NatsServer):
    services = await serve_pings(server, answering={"identity"})
    up = [True]
    watch = BusWatch(BusSettings(nats_url=server.url), lambda: up[0])
    await watch.connect()
    try:
        assert await watch.probe("identity") == "ok"
        assert await watch.probe("mute") == "silent"  # subscribed, never answers
        assert await watch.probe("absent") == "silent"  # nothing subscribed at all
        up[0] = False  # the supervisor saw nats-server exit
        assert await watch.probe("identity") == "unknown"
        up[0] = True
        assert server.pid is not None
        os.kill(server.pid, signal.SIGSTOP)  # NATS alive but answering nothing
        assert await watch.probe("mute") == "unknown"
        os.kill(server.pid, signal.SIGCONT)

        # the server catches up with what queued while it was stopped
        async def answers() -> bool:
            return await watch.probe("identity") == "ok"

        await wait_for(answers, timeout=10, message="answers again")
    finally:
        await services.close()
        await watch.close()


async def test_status_names_what_is_down_and_stays_bounded(server: NatsServer):
    services = await serve_pings(server, answering={"identity"})
    try:
        started = time.monotonic()
        doc = await stack_status(state(server.url, ["identity", "mute"]), running=True)
        assert time.monotonic() - started < 2.5
        assert doc.healthy is False
        assert set(doc.down) == {"postgres", "mute"}  # nothing listens on that PostgreSQL port
        assert doc.down["postgres"].endswith("connection refused")
        assert doc.down["mute"] == "mute: no answer to ping: no answer within 1s"
        (identity,) = (s for s in doc.services if s.service == "identity")
        assert (identity.status, identity.instance, identity.checks) == (
            "ok", "host:1", {"database": "ok"}
        )  # fmt: skip
    finally:
        await services.close()


async def test_status_says_when_the_supervisor_is_restarting_a_service(server: NatsServer):
    restarting = state(server.url, ["tracking"])
    restarting.services["tracking"].process = None
    restarting.services["tracking"].restarts = 2
    doc = await stack_status(restarting, running=True)
    assert doc.down["tracking"] == (
        "tracking: no answer to ping: nothing answers (no responder) "
        "(the supervisor is restarting it)"
    )
    assert doc.services[0].restarts == 2


@pytest.mark.parametrize("how", ["stopped", "killed"])
async def test_status_with_nats_stopped_or_killed_answers_in_time(server: NatsServer, how: str):
    assert server.pid is not None
    os.kill(server.pid, signal.SIGSTOP if how == "stopped" else signal.SIGKILL)
    if how == "killed":
        assert server.process is not None
        server.process.wait(10)  # gone, its socket closed
    started = time.monotonic()
    doc = await stack_status(state(server.url, ["identity"]), running=True)
    elapsed = time.monotonic() - started
    assert elapsed < 2.5, elapsed
    reason = "no answer within 1s" if how == "stopped" else "connection refused"
    assert doc.down["nats"] == f"NATS unreachable at 127.0.0.1:{server.port}: {reason}"
    assert doc.services[0].status == "down"
    assert "identity" not in doc.down  # not checked: NATS is what is down
