"""The processes of the stack's services: one per service, or several replicas of each.

Replicas of a service share its durable consumers and RPC queue groups, so they share its
work; each is told its number (``AXONAL_REPLICA``) and how many there are (``AXONAL_REPLICAS``:
each holds its share of a rate the service enforces), answers the pings addressed to it alone
(the supervisor watches every replica), and gets what must differ between two processes on
one machine: an api its own port, an agent its own name (an agent restarting fails the runs
an earlier life of the same name left open).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from axonal_stack.discovery import ServiceEntry
from axonal_stack.runner import ServiceRunner
from axonal_stack.servers import can_listen, pick_port
from axonal_stack.state import ServiceState

__all__ = ["Replica", "api_ports", "free_api_port", "replicas"]

log = logging.getLogger("axonal_stack")


@dataclass(frozen=True, slots=True)
class Replica:
    """Replica ``number`` (from 1) of ``of`` replicas of a service."""

    entry: ServiceEntry
    number: int
    of: int = 1

    @property
    def service(self) -> str:
        return self.entry.name

    @property
    def key(self) -> str:
        """Its name in ``stack.json``, ``axonal status`` and the logs: the service's own for
        the first replica (``api``), then ``api-2``..."""
        return self.service if self.number == 1 else f"{self.service}-{self.number}"

    def env(self, shared: Mapping[str, str]) -> dict[str, str]:
        """``shared`` plus what is this replica's own."""
        env = {**shared, "AXONAL_REPLICA": str(self.number), "AXONAL_REPLICAS": str(self.of)}
        if self.service == "agent" and self.number > 1:
            base = shared.get("AXONAL_AGENT_NAME") or socket.gethostname()
            env["AXONAL_AGENT_NAME"] = f"{base}-{self.number}"
        return env


def replicas(services: list[ServiceEntry], count: int) -> list[Replica]:
    """``count`` replicas of each service, the first replicas of all services first."""
    return [Replica(entry, n, count) for n in range(1, count + 1) for entry in services]


def api_ports(
    planned: list[Replica],
    *,
    host: str,
    first: int,
    preferred: int,
    before: Mapping[str, ServiceState],
) -> dict[str, int]:
    """The HTTP port of each api replica by key: ``first`` (the api's, chosen already) for the
    first; for a further one, the port it had ``before`` if free, else the next ones up from
    ``preferred`` (none when 0), else a free one."""
    ports: dict[str, int] = {}
    for replica in (r for r in planned if r.service == "api"):
        if replica.number == 1:
            ports[replica.key] = first
            continue
        had = before.get(replica.key)
        recorded = urlsplit(had.url).port if had and had.url else None
        port = pick_port(recorded, preferred + replica.number - 1 if preferred else 0, host)
        while port in ports.values() or port == first:
            port = pick_port(None, 0, host)
        ports[replica.key] = port
    return ports


def free_api_port(runner: ServiceRunner, *, host: str) -> None:
    """Before a further api replica starts: if another process took its port since it was
    chosen (free then), it serves on a free one instead, and its URL in the state follows."""
    port = int(runner.env["AXONAL_API_PORT"])
    if can_listen(port, host):
        return
    new = pick_port(None, 0, host)
    log.warning("%s: port %d is taken; serving on %d", runner.name, port, new)
    runner.env["AXONAL_API_PORT"] = str(new)
    runner.state = runner.state.model_copy(update={"url": f"http://{host}:{new}"})
