"""The stack's own NATS and PostgreSQL: ports, process options, the shared database."""

from __future__ import annotations

import logging
import socket
from collections.abc import Mapping
from typing import Any

from axonal_db import connect
from axonal_events import Subjects
from axonal_events.access import users_config
from axonal_stack.nats_server import ClusterRoutes, NatsServer
from axonal_stack.policy import choose_port
from axonal_stack.ports import free_port
from axonal_stack.postgres_server import PostgresServer
from axonal_stack.process import parent_death_signal
from axonal_stack.processes import ref_for
from axonal_stack.settings import StackSettings
from axonal_stack.state import NatsNode

__all__ = [
    "CLUSTER_NAME",
    "ROUTE_USER",
    "can_listen",
    "ensure_database",
    "nats_cluster",
    "nats_server",
    "pick_port",
    "postgres_server",
    "running_nats",
]

log = logging.getLogger("axonal_stack")

#: The name of the stack's NATS cluster, and the user its routes connect as.
CLUSTER_NAME = "axonal"
ROUTE_USER = "route"
_MAX_PORT = 65535


def can_listen(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a server could listen on ``host:port`` now.

    Binds with ``SO_REUSEADDR`` like nats-server and PostgreSQL do, so connections of the
    previous run lingering in TIME_WAIT do not push a restarted stack onto another port.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def pick_port(recorded: int | None, preferred: int, host: str) -> int:
    """The recorded port if free, else the preferred one if free, else any free port."""
    return choose_port(
        recorded, preferred, lambda p: can_listen(p, host), lambda: free_port(None, host)
    )


class _Nats(NatsServer):
    """``nats-server`` that exits with the supervisor, even when the supervisor is killed."""

    def popen_kwargs(self) -> dict[str, object]:
        return {"preexec_fn": parent_death_signal()}


def nats_server(
    settings: StackSettings, recorded_port: int | None, passwords: Mapping[str, str]
) -> NatsServer:
    """NATS under ``home/nats`` (not started), with a user per service (``passwords``)."""
    port = pick_port(recorded_port, settings.nats_port, settings.host)
    server = _Nats(
        settings.paths.nats,
        host=settings.host,
        port=port,
        sync_interval=settings.sync_interval,
        extra_config=users_config(Subjects(settings.namespace), passwords),
    )
    server.port = port  # its own free-port check refuses ports still in TIME_WAIT
    return server


def nats_cluster(
    settings: StackSettings, recorded: Mapping[str, NatsNode], passwords: Mapping[str, str]
) -> dict[str, NatsServer]:
    """The nodes of the stack's NATS cluster by name (``nats-1``...; not started), each under
    ``home/nats-cluster/<name>`` with its client and route ports (recorded ones if free,
    else the preferred ones counted up from ``AXONAL_NATS_PORT`` and
    ``AXONAL_NATS_CLUSTER_PORT``, else free ones), routes to the others and the same users."""
    host, chosen = settings.host, set[int]()
    names = [f"nats-{i}" for i in range(1, settings.nats_nodes + 1)]
    ports: dict[str, tuple[int, int]] = {}
    for i, name in enumerate(names):
        before = recorded.get(name)
        client = _pick_unused(
            before.port if before else None, _nth(settings.nats_port, i), host, chosen
        )
        route = _pick_unused(
            before.cluster_port if before else None,
            _nth(settings.nats_cluster_port, i),
            host,
            chosen,
        )
        ports[name] = (client, route)
    users = users_config(Subjects(settings.namespace), passwords)
    secret = settings.paths.read_nats_route_secret()
    nodes: dict[str, NatsServer] = {}
    for name, (client, route) in ports.items():
        peers = tuple(f"{host}:{ports[other][1]}" for other in names if other != name)
        node = _Nats(
            settings.paths.nats_node(name),
            host=host,
            port=client,
            sync_interval=settings.sync_interval,
            extra_config=users,
            server_name=name,
            cluster=ClusterRoutes(CLUSTER_NAME, route, peers, ROUTE_USER, secret),
        )
        node.port = client  # as for one server: a port in TIME_WAIT is fine to listen on
        nodes[name] = node
    return nodes


def running_nats(servers: Mapping[str, NatsServer], *, cluster: bool) -> dict[str, Any]:
    """What ``stack.json`` records of the stack's NATS once started: the URL (every node's,
    comma-separated), the first port, the process (or each node's ports and process)."""
    first = next(iter(servers.values()))
    update: dict[str, Any] = {
        "nats_url": ",".join(server.url for server in servers.values()),
        "nats_port": first.port,
        "nats_users": True,
        "nats": None,
        "nats_nodes": {},
    }
    refs = {name: ref_for(server.pid) for name, server in servers.items() if server.pid}
    if not cluster:
        return update | {"nats": refs.get("nats")}
    update["nats_nodes"] = {
        name: NatsNode(port=node.port, cluster_port=node.cluster.port, process=refs.get(name))
        for name, node in servers.items()
        if node.cluster is not None
    }
    return update


def _nth(first: int, i: int) -> int:
    """The preferred port of the ``i``-th node (from 0): ``first + i``; 0 (none) when
    ``first`` is none or that is no port."""
    return first + i if first and first + i <= _MAX_PORT else 0


def _pick_unused(recorded: int | None, preferred: int, host: str, taken: set[int]) -> int:
    """:func:`pick_port`, never a port ``taken`` already (which it joins)."""
    port = pick_port(recorded if recorded not in taken else None, preferred, host)
    while port in taken:
        port = free_port(None, host)
    taken.add(port)
    return port


def postgres_server(settings: StackSettings, recorded_port: int | None) -> PostgresServer:
    """PostgreSQL under ``home/postgres`` (not started); start it from the main thread."""
    port = pick_port(recorded_port, settings.postgres_port, settings.host)
    server = PostgresServer(
        settings.paths.postgres,
        host=settings.host,
        port=port,
        durable=settings.postgres_durable,
        # Even without fsync, a commit reaches the OS before it returns: the supervisor
        # restarts a killed PostgreSQL, and no acknowledged write may be lost with it.
        settings={"synchronous_commit": "on"},
        die_with_parent=True,  # the main thread lives as long as the supervisor
    )
    server.port = port  # as for NATS: a port in TIME_WAIT is fine to listen on
    return server


async def ensure_database(server: PostgresServer, name: str) -> None:
    """Create database ``name`` unless it exists (its data survives restarts)."""
    conn = await connect(server.url)
    try:
        if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            await conn.execute(f'CREATE DATABASE "{name}"')
            log.info("created database %s", name)
    finally:
        await conn.close()
