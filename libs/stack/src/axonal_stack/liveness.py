"""The supervisor's own NATS connection, and the liveness pings it sends services over it.

A ping left unanswered counts against a service (``silent``) only when NATS itself answers
right after it; while NATS is down, restarting or not answering, nothing can be told about
the services (``unknown``), so a NATS outage never gets them killed as hung.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from nats.aio.client import Client

from axonal_bus.broker import connect_nats
from axonal_bus.errors import RemoteError, RpcError
from axonal_bus.ping import ping
from axonal_bus.settings import BusSettings
from axonal_stack.policy import PingOutcome
from axonal_stack.probes import NatsProbe, ProbeError
from axonal_stack.users import with_credentials

__all__ = ["BusWatch"]

#: Seconds one liveness ping (or NATS's own PING) waits for its answer.
PING_TIMEOUT = 2


class BusWatch:
    """A connection to ``bus`` that reconnects for ever (NATS may be restarted under it).

    ``server_up`` tells whether the NATS process the stack runs is up (always true for a
    NATS the stack does not run).
    """

    def __init__(self, bus: BusSettings, server_up: Callable[[], bool]) -> None:
        self.settings = bus
        self.server_up = server_up
        self.nc: Client | None = None
        self.connected = asyncio.Event()

    async def connect(self, timeout: float = 15) -> Client:
        """Connect once (raising after ``timeout``); reconnections are then automatic."""

        async def disconnected() -> None:
            self.connected.clear()

        async def reconnected() -> None:
            self.connected.set()

        self.nc = await asyncio.wait_for(
            connect_nats(
                self.settings,
                name="axonal-supervisor",
                connect_timeout=5,
                max_reconnect_attempts=-1,
                reconnect_time_wait=0.25,
                disconnected_cb=disconnected,
                reconnected_cb=reconnected,
            ),
            timeout=timeout,
        )
        self.connected.set()
        return self.nc

    def _probe_url(self) -> str:
        settings = self.settings
        if not settings.nats_user:
            return settings.nats_url
        password = settings.nats_password.get_secret_value() if settings.nats_password else ""
        return with_credentials(settings.nats_url, settings.nats_user, password)

    def nats_up(self) -> bool:
        """NATS runs and this connection to it is up."""
        return self.server_up() and self.nc is not None and self.nc.is_connected

    async def nats_answers(self) -> bool:
        """Whether NATS itself answers now (a handshake on a connection of its own): a stopped
        or overloaded server leaves every ping unanswered, and that is no service's fault.

        Not ``nc.flush(timeout)``: when its PING times out, nats-py (2.16) fails on the late
        PONG and stops reading that connection for good, while it still says it is connected.
        """
        if not self.nats_up():
            return False
        try:
            probe = await NatsProbe.connect(self._probe_url(), PING_TIMEOUT)
        except ProbeError:
            return False
        await probe.close()
        return self.nats_up()

    async def probe(self, service: str, replica: int | None = None) -> PingOutcome:
        """Ping ``service`` (that ``replica`` of it, when given) once: ``ok``/``degraded``
        (it answered), ``silent`` or ``unknown``."""
        if not self.nats_up():
            return "unknown"
        assert self.nc is not None
        try:
            reply = await ping(self.nc, self.settings.subjects, service, PING_TIMEOUT, replica)
        except RemoteError:  # it answered, with an error
            return "degraded"
        except RpcError:
            return "silent" if await self.nats_answers() else "unknown"
        except Exception:  # noqa: BLE001 - a connection failing under the ping
            return "unknown"
        return reply.status

    async def close(self) -> None:
        nc, self.nc = self.nc, None
        if nc is not None:
            with contextlib.suppress(Exception):
                await nc.close()
