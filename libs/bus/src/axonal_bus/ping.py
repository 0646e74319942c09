"""Health over the bus: every service answers ``<ns>.rpc.<service>.ping``.

``python -m axonal_bus.ping identity`` exits 0 when the service answers (container health
checks and Kubernetes probes use it), 1 otherwise, printing why.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from faststream.nats import NatsBroker
from nats.aio.client import Client

from axonal_bus import rpc
from axonal_bus.broker import connect_nats
from axonal_bus.errors import AxonalError
from axonal_bus.settings import BusSettings
from axonal_events import PingReply, PingRequest, Subjects
from axonal_events.rpc import ping_rpc, replica_ping_rpc

__all__ = ["Checks", "ping", "serve_ping"]

Checks = Callable[[], Awaitable[dict[str, str]]]


def serve_ping(
    broker: NatsBroker,
    subjects: Subjects,
    *,
    service: str,
    version: str,
    checks: Checks | None = None,
    replica: int | None = None,
) -> None:
    """Answer pings for ``service``; ``checks`` reports dependencies (``"ok"`` or a problem).
    A numbered ``replica`` also answers the pings addressed to it alone."""
    started_at = datetime.now(UTC)
    instance = f"{socket.gethostname()}:{os.getpid()}"

    async def answer(_: PingRequest) -> PingReply:
        states = await checks() if checks else {}
        healthy = all(state == "ok" for state in states.values())
        return PingReply(
            service=service,
            instance=instance,
            version=version,
            started_at=started_at,
            status="ok" if healthy else "degraded",
            checks=states,
        )

    rpc.serve(broker, subjects, ping_rpc(service), answer, queue=service)
    if replica is not None:
        rpc.serve(broker, subjects, replica_ping_rpc(service, replica), answer, queue=service)


async def ping(
    nc: Client, subjects: Subjects, service: str, timeout: float = 2.0, replica: int | None = None
) -> PingReply:
    """Ask ``service`` (any replica, or the numbered ``replica``) for its health."""
    method = ping_rpc(service) if replica is None else replica_ping_rpc(service, replica)
    return await rpc.call(nc, subjects, method, PingRequest(), timeout=timeout)


async def _main(service: str, timeout: float) -> int:
    settings = BusSettings()
    try:
        # no reconnect: nats-py reads max_reconnect_attempts=0 as "forever" on a first connect
        nc = await connect_nats(
            settings,
            name="axonal-ping",
            connect_timeout=2,
            allow_reconnect=False,
            max_reconnect_attempts=1,
            reconnect_time_wait=0,
            # run as the service itself (its health check): its user reads replies only there
            inbox_prefix=settings.subjects.inbox_prefix(service),
        )
    except Exception as exc:  # noqa: BLE001 - report, don't trace
        print(f"cannot reach NATS at {settings.nats_url_shown}: {exc}", file=sys.stderr)
        return 1
    try:
        reply = await ping(nc, settings.subjects, service, timeout)
    except AxonalError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    finally:
        await nc.close()
    print(reply.model_dump_json())
    return 0 if reply.status == "ok" else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Ask an Axonal service for its health.")
    parser.add_argument("service")
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args()
    sys.exit(asyncio.run(_main(args.service, args.timeout)))
