"""Where the embedded stack lives and how it starts (env prefix ``AXONAL_``)."""

from __future__ import annotations

import base64
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from axonal_events import DEFAULT_NAMESPACE

__all__ = [
    "CLUSTER_NODES",
    "CLUSTER_SERVICE_REPLICAS",
    "DATABASE_NAME",
    "StackPaths",
    "StackSettings",
]

#: The database every service shares (each in its own schema).
DATABASE_NAME = "axonal"
#: NATS nodes and replicas of each service of ``axonal up --cluster``.
CLUSTER_NODES = 3
CLUSTER_SERVICE_REPLICAS = 2


class StackSettings(BaseSettings):
    """``AXONAL_HOME`` and friends.

    ``AXONAL_NATS_URL`` / ``AXONAL_DATABASE_URL`` point the stack at servers that already run:
    it then starts no NATS / PostgreSQL of its own. The ports are preferences: a taken one is
    replaced by a free one, and the choice is recorded in ``stack.json``. ``AXONAL_API_URL``
    is the URL runs and the CLI are given for the api (default: the local api's address).

    ``AXONAL_POSTGRES_DURABLE=false`` turns off fsync (tests): a crash of the machine may then
    lose data, a crash of PostgreSQL alone does not.

    ``AXONAL_STACK_HANG_TIMEOUT``: a healthy service that answers no ping (one every
    ``AXONAL_STACK_PING_INTERVAL`` seconds) for this long while NATS is up is killed and
    restarted (0: never).

    ``AXONAL_CLUSTER=true`` (``axonal up --cluster``): the platform as a cluster on this
    machine: three NATS nodes forming one JetStream cluster (client ports from
    ``AXONAL_NATS_PORT``, route ports from ``AXONAL_NATS_CLUSTER_PORT``), streams with three
    replicas, and two replicas of every service (only the replicas with ``AXONAL_NATS_URL``).
    """

    model_config = SettingsConfigDict(env_prefix="AXONAL_", extra="ignore")

    home: Path = Path("~/.axonal")
    nats_url: str | None = None
    database_url: str | None = None
    api_url: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    host: str = "127.0.0.1"
    nats_port: int = Field(default=4222, ge=0, le=65535)
    nats_cluster_port: int = Field(default=6222, ge=0, le=65535)
    cluster: bool = False
    postgres_port: int = Field(default=54320, ge=0, le=65535)
    api_port: int = Field(default=8000, ge=0, le=65535)
    postgres_durable: bool = True
    sync_interval: str | None = None
    startup_timeout: float = Field(default=90.0, gt=0)
    stop_timeout: float = Field(default=15.0, gt=0)
    stack_hang_timeout: float = Field(default=30.0, ge=0)
    stack_ping_interval: float = Field(default=3.0, gt=0)

    @field_validator("home")
    @classmethod
    def _absolute_home(cls, value: Path) -> Path:
        return value.expanduser().absolute()

    @field_validator("nats_url", "database_url", "api_url", "sync_interval")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        return value or None

    @property
    def paths(self) -> StackPaths:
        return StackPaths(self.home)

    @property
    def nats_nodes(self) -> int:
        """How many NATS servers the stack runs (when it runs its own)."""
        return CLUSTER_NODES if self.cluster else 1

    @property
    def stream_replicas(self) -> int:
        """Copies of each stream: one per NATS node."""
        return self.nats_nodes

    @property
    def service_replicas(self) -> int:
        """Processes of each service."""
        return CLUSTER_SERVICE_REPLICAS if self.cluster else 1


@dataclass(frozen=True, slots=True)
class StackPaths:
    """The layout of ``AXONAL_HOME``."""

    home: Path

    @property
    def nats(self) -> Path:
        return self.home / "nats"

    def nats_node(self, name: str) -> Path:
        """The folder of one node of the stack's NATS cluster."""
        return self.home / "nats-cluster" / name

    @property
    def postgres(self) -> Path:
        return self.home / "postgres"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def artifacts(self) -> Path:
        return self.home / "artifacts"

    @property
    def state(self) -> Path:
        return self.home / "stack.json"

    @property
    def lock(self) -> Path:
        return self.home / "stack.lock"

    @property
    def stack_log(self) -> Path:
        return self.logs / "stack.log"

    @property
    def run_token_secret(self) -> Path:
        return self.home / "run-token.secret"

    @property
    def nats_users(self) -> Path:
        """The NATS users' passwords (:mod:`axonal_stack.users`)."""
        return self.home / "nats-users.json"

    @property
    def connection_key(self) -> Path:
        return self.home / "connection.key"

    @property
    def nats_route_secret(self) -> Path:
        return self.home / "nats-route.secret"

    def read_run_token_secret(self) -> str:
        """The secret agents sign run tokens with (made once per home, readable by its owner)."""
        return _secret(self.run_token_secret, secrets.token_urlsafe(32))

    def read_nats_route_secret(self) -> str:
        """The password the nodes of the stack's NATS cluster connect their routes with."""
        return _secret(self.nats_route_secret, secrets.token_urlsafe(24))

    def read_connection_key(self) -> str:
        """The Fernet key LLM connection secrets are encrypted with (made once per home)."""
        return _secret(
            self.connection_key, base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
        )

    def service_log(self, service: str) -> Path:
        return self.logs / f"{service}.log"

    def create(self) -> None:
        """Make the folders (data already there is kept)."""
        for folder in (self.home, self.logs, self.artifacts):
            folder.mkdir(parents=True, exist_ok=True)


def _secret(path: Path, new: str) -> str:
    """The secret kept in ``path``, made ``new`` (readable by its owner only) the first time."""
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(new)
    return path.read_text().strip()
