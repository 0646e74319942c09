"""Where and how one attempt of a run is launched on Kubernetes (pure data).

A :class:`Cluster` is the agent's configuration, the same for every run: the namespace, pod
defaults, the artifacts volumes, the images of its helper containers and the connection
catalog. A :class:`Target` is one attempt on it. Its name and labels are derived from the run
uuid and the attempt, so that launching the same attempt twice meets ``409 AlreadyExists``
instead of making a twin.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "AGENT_LABEL",
    "ATTEMPT_LABEL",
    "CONTEXT_ARTIFACTS",
    "PROJECT_LABEL",
    "RUN_UUID_LABEL",
    "SENSITIVE_ENV",
    "STORE_PATH",
    "Cluster",
    "Connection",
    "SourceRef",
    "Target",
    "label_value",
    "workload_name",
]

#: ``{{ globals.artifacts_path }}`` as the compiler renders it: the attempt's artifacts volume.
CONTEXT_ARTIFACTS = "/plx-context/artifacts"
#: Where init containers copying from the artifacts store see it (read-only).
STORE_PATH = "/plx-store"
#: The run's env that only travels in its Secret (``secretKeyRef``), never inline.
SENSITIVE_ENV = ("AXONAL_API_TOKEN", "AXONAL_NATS_URL")

RUN_UUID_LABEL = "axonal.dev/run-uuid"
ATTEMPT_LABEL = "axonal.dev/attempt"
AGENT_LABEL = "axonal.dev/agent"
PROJECT_LABEL = "axonal.dev/project"

#: KubeRay refuses a RayJob name longer than this (the strictest of the operators).
_MAX_NAME = 47
_LABEL_VALUE = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")


def workload_name(run_uuid: str, attempt: int) -> str:
    """``plx-<the uuid's 32 hex digits>-<attempt>``: a DNS-1035 label of at most 47
    characters (the whole uuid: a prefix of a UUIDv7 is its timestamp, shared by runs
    created together). ``ValueError`` for a uuid that is not one."""
    name = f"plx-{uuid.UUID(run_uuid).hex}-{attempt}"
    if attempt < 1 or len(name) > _MAX_NAME:
        raise ValueError(f"attempt {attempt} does not make a workload name")
    return name


def label_value(text: str) -> str:
    """``text`` as a label value: other characters become ``-``, at most 63, alphanumeric
    at both ends (``""`` when nothing is left)."""
    value = re.sub(r"[^A-Za-z0-9_.-]", "-", text)[:63].strip("-_.")
    return value if _LABEL_VALUE.match(value) else ""


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A Secret or ConfigMap of a connection: its ``items`` (keys; every key when empty) as
    files under ``mount_path``, or, without a mount path, as env variables (the items one by
    one, or every key with ``envFrom``)."""

    name: str
    items: tuple[str, ...] = ()
    mount_path: str | None = None


@dataclass(frozen=True, slots=True)
class Connection:
    """A connection of the agent's catalog, named in a run's ``connections`` or an init
    item's ``connection``; ``schema`` is its Polyaxon schema (``url`` for a git one)."""

    name: str
    kind: str
    schema: Mapping[str, Any] = field(default_factory=dict)
    secret: SourceRef | None = None
    config_map: SourceRef | None = None
    env: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Cluster:
    """The agent's Kubernetes configuration.

    ``artifacts_claim``: the PVC holding each attempt's artifacts folder (``<uuid>/<attempt>``,
    as the local agent's work root), mounted at :data:`CONTEXT_ARTIFACTS`; ``None``: an
    emptyDir. ``store_claim``: the artifacts store, read by ``init`` ``artifacts``/``paths``.
    ``default_image``: for a container that names none (a ``cmd`` shortcut).
    ``git_image`` and ``tools_image`` run the ``init`` steps (a shell, ``git``, ``cp``).
    """

    namespace: str
    service_account: str | None = None
    image_pull_secrets: tuple[str, ...] = ()
    node_selector: Mapping[str, str] = field(default_factory=dict)
    artifacts_claim: str | None = None
    store_claim: str | None = None
    connections: Mapping[str, Connection] = field(default_factory=dict)
    default_image: str | None = None
    git_image: str = "alpine/git:2.47.2"
    tools_image: str = "busybox:1.37"
    ttl_seconds_after_finished: int | None = 3600


@dataclass(frozen=True, slots=True)
class Target:
    """One attempt of a run on a :class:`Cluster`.

    ``env``: the run context (``AXONAL_*``) and toEnv values, given to each main container
    over its own env. ``secret``: the Secret holding :data:`SENSITIVE_ENV` (``secret_keys``),
    referenced with ``secretKeyRef``; ``None``: the run gets none of them. ``probe``: the
    operation's ``termination.probe`` (a service's readiness).
    """

    cluster: Cluster
    run_uuid: str
    attempt: int
    agent: str
    project: str
    env: Mapping[str, str] = field(default_factory=dict)
    secret: str | None = None
    secret_keys: tuple[str, ...] = SENSITIVE_ENV
    timeout_seconds: float | None = None
    probe: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        workload_name(self.run_uuid, self.attempt)
        inline = sorted(set(self.env) & {*SENSITIVE_ENV, *self.secret_keys})
        if inline:
            raise ValueError(f"{', '.join(inline)} must come from the run's Secret, not env")

    @property
    def name(self) -> str:
        """The name of the workload and of its primary object."""
        return workload_name(self.run_uuid, self.attempt)

    @property
    def namespace(self) -> str:
        return self.cluster.namespace

    @property
    def workspace(self) -> str:
        """The attempt's folder in the artifacts claim."""
        return f"{uuid.UUID(self.run_uuid).hex}/{self.attempt}"

    @property
    def labels(self) -> dict[str, str]:
        """On every object and pod of the attempt."""
        labels = {
            "app.kubernetes.io/managed-by": "axonal",
            "app.kubernetes.io/part-of": "axonal",
            RUN_UUID_LABEL: uuid.UUID(self.run_uuid).hex,
            ATTEMPT_LABEL: str(self.attempt),
            AGENT_LABEL: label_value(self.agent),
            PROJECT_LABEL: label_value(self.project),
        }
        return {key: value for key, value in labels.items() if value}

    @property
    def selector(self) -> dict[str, str]:
        """The labels that select the attempt's pods (and nothing else)."""
        return {key: self.labels[key] for key in (RUN_UUID_LABEL, ATTEMPT_LABEL)}
