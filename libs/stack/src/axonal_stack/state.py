"""``stack.json``: what the supervisor started and where, written atomically.

The supervisor is the only writer while it runs; ``axonal status`` and ``axonal down`` read it.
Ports and URLs stay after a stop (the next start reuses the ports); process ids do not.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

__all__ = [
    "NatsNode",
    "Phase",
    "ProcessRef",
    "ServerState",
    "ServiceState",
    "StackState",
    "read_state",
    "write_state",
]

Phase = Literal["starting", "running", "stopping", "stopped", "failed"]


class ProcessRef(BaseModel):
    """A process, told apart from a later one that reuses its pid by when it started."""

    pid: int
    started: float = Field(
        description="Seconds after boot the process started: unlike its wall-clock creation "
        "time, unmoved when the system clock is stepped."
    )


class ServiceState(BaseModel):
    """One process of a service (a replica, when the stack runs several)."""

    module: str
    service: str | None = Field(
        default=None, description="The service this process is a replica of (its key's own)."
    )
    replica: int | None = Field(default=None, description="Its number among the replicas.")
    url: str | None = Field(default=None, description="Where it serves HTTP (an api).")
    process: ProcessRef | None = None
    restarts: int = 0
    last_exit_code: int | None = None
    hangs: int = Field(default=0, description="Restarts after the service stopped answering.")
    last_restart_reason: str | None = None


class ServerState(BaseModel):
    """NATS or PostgreSQL as the supervisor keeps it: restarted on the same port when it dies."""

    up: bool = True
    restarts: int = 0
    last_exit_code: int | None = None
    down_since: datetime | None = None


class NatsNode(BaseModel):
    """A node of the stack's NATS cluster: its ports (kept for the next start) and process."""

    port: int
    cluster_port: int
    process: ProcessRef | None = None


class StackState(BaseModel):
    home: str
    phase: Phase = "starting"
    detail: str = Field(default="", description="What the supervisor is doing or why it failed.")
    started_at: datetime | None = None
    supervisor: ProcessRef | None = None
    namespace: str
    nats_url: str | None = None
    nats_port: int | None = None
    nats: ProcessRef | None = None
    nats_users: bool = Field(
        default=False, description="The stack's NATS has its users (``nats-users.json``)."
    )
    cluster: bool = Field(default=False, description="Started by ``axonal up --cluster``.")
    nats_nodes: dict[str, NatsNode] = Field(
        default_factory=dict,
        description="The nodes of the stack's NATS cluster (``nats_url`` lists them all).",
    )
    database_url: str | None = None
    postgres_port: int | None = None
    postgres: ProcessRef | None = None
    api_url: str | None = None
    api_port: int | None = None
    artifacts_url: str | None = None
    services: dict[str, ServiceState] = Field(default_factory=dict)
    servers: dict[str, ServerState] = Field(
        default_factory=dict,
        description="``nats`` (or ``nats-1``...) and ``postgres`` when the stack runs them.",
    )

    @property
    def ui_url(self) -> str | None:
        """The web UI, which the api serves at its root: ``api_url`` with ``/``."""
        return f"{self.api_url.rstrip('/')}/" if self.api_url else None

    def processes(self) -> dict[str, ProcessRef]:
        """Every recorded process by role: ``supervisor``, ``nats`` (or the cluster's nodes,
        ``nats-1``...), ``postgres``, services."""
        found = {"supervisor": self.supervisor, "nats": self.nats, "postgres": self.postgres}
        found |= {name: node.process for name, node in self.nats_nodes.items()}
        found |= {name: svc.process for name, svc in self.services.items()}
        return {role: ref for role, ref in found.items() if ref is not None}

    def with_process(self, role: str, ref: ProcessRef | None) -> StackState:
        """The state with ``ref`` as the process of server ``role`` (``nats``, ``postgres``,
        or a node of the NATS cluster: ``nats-1``...)."""
        node = self.nats_nodes.get(role)
        if node is None:
            return self.model_copy(update={role: ref})
        nodes = {**self.nats_nodes, role: node.model_copy(update={"process": ref})}
        return self.model_copy(update={"nats_nodes": nodes})

    def stopped(self, detail: str = "") -> StackState:
        """The state after a stop: no process ids, ports and URLs kept for the next start."""
        services = {
            name: svc.model_copy(update={"process": None}) for name, svc in self.services.items()
        }
        return self.model_copy(
            update={
                "phase": "stopped",
                "detail": detail,
                "supervisor": None,
                "nats": None,
                "postgres": None,
                "services": services,
                "nats_nodes": {
                    name: node.model_copy(update={"process": None})
                    for name, node in self.nats_nodes.items()
                },
                "servers": {
                    name: server.model_copy(update={"up": False})
                    for name, server in self.servers.items()
                },
            }
        )


def read_state(path: Path) -> StackState | None:
    """The recorded state, or ``None`` when there is none (or it is unreadable)."""
    try:
        return StackState.model_validate_json(path.read_bytes())
    except (OSError, ValidationError):
        return None


def write_state(path: Path, state: StackState) -> None:
    """Replace ``path`` atomically: readers see the old or the new file, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(state.model_dump_json(indent=2))
            out.write("\n")
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise
