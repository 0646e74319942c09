"""Agent settings: the shared service settings (``AXONAL_NATS_URL``, ``AXONAL_DATABASE_URL``...)
and the agent's own (prefix ``AXONAL_AGENT_``); slots default to what the machine has."""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path
from typing import Literal

import psutil
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import SettingsConfigDict

from axonal_agent.domain.resources import Resources
from axonal_bus.service import ServiceSettings

__all__ = ["AgentSettings", "KubeConnection", "KubeSource"]


def _default_root(leaf: str) -> Path:
    home = os.environ.get("AXONAL_HOME")
    return Path(home) / leaf if home else Path(tempfile.gettempdir()) / "axonal-agent" / leaf


class KubeSource(BaseModel):
    """A Secret or ConfigMap of a connection: ``items`` (keys; all when empty) as files
    under ``mountPath``, or as env variables without one."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str = Field(min_length=1)
    items: list[str] = Field(default_factory=list)
    mount_path: str | None = Field(default=None, alias="mountPath")


class KubeConnection(BaseModel):
    """A connection of the Kubernetes executor's catalog (``AXONAL_AGENT_KUBE_CONNECTIONS``,
    a JSON object by name): its ``kind`` (``git``, ``s3``, ``volume_claim``...), its
    Polyaxon ``schema`` and what it brings into the pods."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    kind: str = Field(min_length=1)
    schema_: dict[str, object] = Field(default_factory=dict, alias="schema")
    secret: KubeSource | None = None
    config_map: KubeSource | None = Field(default=None, alias="configMap")
    env: dict[str, str] = Field(default_factory=dict)


class AgentSettings(ServiceSettings):
    """``AXONAL_AGENT_NAME``, ``AXONAL_AGENT_QUEUES`` (JSON list), ``AXONAL_AGENT_CPU``...;
    ``AXONAL_API_URL`` and ``AXONAL_RUN_TOKEN_SECRET`` (the stack's) stand in for their agent
    variables when those are unset."""

    model_config = SettingsConfigDict(
        env_prefix="AXONAL_AGENT_", extra="ignore", populate_by_name=True
    )

    name: str = Field(default_factory=socket.gethostname, min_length=1)
    queues: list[str] = Field(default_factory=lambda: ["default"], min_length=1)
    cpu: float = Field(default_factory=lambda: float(psutil.cpu_count() or 1), gt=0)
    memory: float = Field(default_factory=lambda: float(psutil.virtual_memory().total), gt=0)
    gpu: float = Field(default=0, ge=0)
    work_root: Path = Field(default_factory=lambda: _default_root("runs"))
    artifacts_root: Path = Field(
        default_factory=lambda: _default_root("artifacts"),
        description="Where relative init artifacts paths are read from.",
    )
    api_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("AXONAL_AGENT_API_URL", "AXONAL_API_URL"),
        description="Given to runs as AXONAL_API_URL (the stack sets AXONAL_API_URL).",
    )
    run_token_secret: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("AXONAL_AGENT_RUN_TOKEN_SECRET", "AXONAL_RUN_TOKEN_SECRET"),
        description="Signs each run's AXONAL_API_TOKEN (the api shares it); unset: no token.",
    )
    run_nats_url: SecretStr | None = Field(
        default=None,
        description="Given to runs as AXONAL_NATS_URL, with the credentials of a NATS user that "
        "may publish runs' metrics (the stack's `run`); unset: the agent's own AXONAL_NATS_URL.",
    )
    run_token_ttl_seconds: float = Field(default=30 * 86400, gt=0)
    stop_grace_seconds: float = Field(default=10.0, ge=0)
    service_ready_seconds: float = Field(
        default=120.0, gt=0, description="How long a service may take to answer before it fails."
    )
    heartbeat_seconds: float = Field(default=10.0, gt=0)
    slot_retry_seconds: float = Field(
        default=1.0, gt=0, description="Delay before a run that does not fit is offered again."
    )

    executor: Literal["local", "kubernetes"] = Field(
        default="local",
        description="local: runs are processes on the agent's host; kubernetes: the run's "
        "images run on a cluster (the kube_* settings).",
    )
    kube_namespace: str = Field(default="default", min_length=1)
    kube_namespaces: dict[str, str] = Field(
        default_factory=dict, description="Queue -> namespace, for queues not in kube_namespace."
    )
    kube_config: Path | None = Field(
        default=None, description="A kubeconfig file; unset: the pod's service account."
    )
    kube_context: str | None = None
    kube_api_host: str | None = Field(
        default=None, description="An API server URL used as it is, without credentials."
    )
    kube_service_account: str | None = None
    kube_image_pull_secrets: list[str] = Field(default_factory=list)
    kube_node_selector: dict[str, str] = Field(default_factory=dict)
    kube_artifacts_claim: str | None = None
    kube_store_claim: str | None = None
    kube_connections: dict[str, KubeConnection] = Field(default_factory=dict)
    kube_default_image: str | None = None
    kube_git_image: str = "alpine/git:2.47.2"
    kube_tools_image: str = "busybox:1.37"
    kube_ttl_seconds_after_finished: int | None = Field(default=3600, ge=0)
    kube_stuck_after_seconds: float = Field(
        default=300.0,
        gt=0,
        description="How long a container may fail to pull its image or start, or a "
        "service crash-loop with no replica available, before its run fails.",
    )
    kube_watch_seconds: int = Field(default=300, ge=1)

    @field_validator(
        "run_token_secret",
        "run_nats_url",
        "kube_config",
        "kube_context",
        "kube_api_host",
        "kube_service_account",
        "kube_artifacts_claim",
        "kube_store_claim",
        "kube_default_image",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return value or None

    @property
    def runs_nats_url(self) -> str:
        """The NATS URL runs publish their metrics to."""
        return self.run_nats_url.get_secret_value() if self.run_nats_url else self.nats_url

    @property
    def slots(self) -> Resources:
        return Resources(cpu=self.cpu, memory=self.memory, gpu=self.gpu)
