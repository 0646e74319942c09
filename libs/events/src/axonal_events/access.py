"""Who may do what on the bus: one NATS user per service, its permissions derived from here.

``make nats-users`` writes the users of ``deploy/`` from here.

:data:`ACCESS` says, for every service, the events it emits, the commands it sends, the RPCs
it calls, the durable consumers it binds and the core subjects it listens to (what it serves
follows from its name: ``<ns>.rpc.<service>.*``). :func:`permissions` turns one entry into
NATS publish/subscribe allow-lists, :func:`users_config` into the ``authorization`` block of a
nats-server configuration. A test checks every service's code against its entry, so an event
or an RPC cannot be added without its permission.

Every service also gets what the shared runtime needs: its reply inbox
(``_INBOX_<ns>_<service>``), replies to the requests it receives (``allow_responses``), the
dead-letter subjects, the shared ``dlq-relay`` durable and reading a stream's message by
sequence (the relay copies the original message into the dead letter), and a ping of itself
(container health checks run ``python -m axonal_bus.ping <service>`` with its credentials).
Streams and durables are created by an admin connection (``python -m axonal_bus.provision``,
the embedded stack's supervisor); a service may create, read and pull only its own durables.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from axonal_events.catalog import (
    CATALOG,
    AgentHeartbeat,
    ApiWriteAudited,
    ArtifactVersionCreated,
    DeletionCompleted,
    EvalJobDone,
    HookRequested,
    HubComponentPushed,
    MetricCrossed,
    ModelVersionArchived,
    ModelVersionCreated,
    ModelVersionEvaluated,
    ModelVersionPromoted,
    NotificationDelivered,
    NotificationFailed,
    ProjectCreated,
    ProjectDeleted,
    ProjectQuotasChanged,
    ProjectRetentionChanged,
    PromptLabelsChanged,
    PromptVersionCreated,
    RunDeleted,
    RunDone,
    RunStatusChanged,
    ScoreCreated,
    TraceDeleted,
    TraceIngested,
)
from axonal_events.rpc import Rpc
from axonal_events.rpcs import ALL_RPCS, Registry, Scheduler, Tracking
from axonal_events.subjects import StreamKind, Subjects

__all__ = [
    "ACCESS",
    "ADMIN_USER",
    "DLQ_RELAY_DURABLE",
    "RUN_USER",
    "BusAccess",
    "Durable",
    "admin_permissions",
    "all_permissions",
    "password_variable",
    "permissions",
    "run_permissions",
    "users_config",
]

#: Provisioning and operations: every subject.
ADMIN_USER = "admin"
#: The processes of runs: they publish their own tracking data (``<ns>.ingest.metrics.>``).
RUN_USER = "run"
#: The durable every service's dead-letter relay shares (max-deliveries advisories).
DLQ_RELAY_DURABLE = "dlq-relay"
#: Streams a dead letter's original message is read from.
_ORIGIN_STREAMS = (StreamKind.EVENTS, StreamKind.COMMANDS, StreamKind.INGEST)


@dataclass(frozen=True, slots=True)
class Durable:
    """A durable consumer a service binds; ``name`` ``*`` is any durable of ``stream`` (the
    agent's, one per queue it is configured with)."""

    stream: StreamKind
    name: str


@dataclass(frozen=True, slots=True)
class BusAccess:
    """What one service does on the bus besides serving its own RPCs.

    Args:
        emits: event types it publishes (``run.*`` for a whole family).
        sends: command types (``scheduler.submit``); ``agent.execute`` is every agent queue.
        calls: RPCs of other services it calls; a service name allows all of that service's.
        durables: the durable consumers it binds (besides the shared ``dlq-relay``).
        publishes: other subjects it publishes, below the namespace (``ingest.logs.>``).
        listens: core NATS subjects it subscribes to, below the namespace (``evt.run.done``).
    """

    emits: tuple[str, ...] = ()
    sends: tuple[str, ...] = ()
    calls: tuple[Rpc[Any, Any] | str, ...] = ()
    durables: tuple[Durable, ...] = ()
    publishes: tuple[str, ...] = ()
    listens: tuple[str, ...] = ()


def _emitted(*models: type) -> tuple[str, ...]:
    """The event types of ``models`` (every ``run.<status>`` for :class:`RunStatusChanged`)."""
    return tuple(sorted({e.event_type for e in CATALOG if e.model in models}))


_E, _C, _I = StreamKind.EVENTS, StreamKind.COMMANDS, StreamKind.INGEST


def _deleting(service: str, access: BusAccess, *, retention: bool = False) -> BusAccess:
    """``access`` plus what deleting a project's data (and applying its retention) takes:
    the ``<service>-deletions`` (and ``-retention``) durables and ``deletion.completed``."""
    durables = [Durable(_E, f"{service}-deletions")]
    if retention:
        durables.append(Durable(_E, f"{service}-retention"))
    return BusAccess(
        emits=(*access.emits, *_emitted(DeletionCompleted)),
        sends=access.sends,
        calls=access.calls,
        durables=(*access.durables, *durables),
        publishes=access.publishes,
        listens=access.listens,
    )


#: Every service's access; :func:`permissions` renders one entry.
ACCESS: Mapping[str, BusAccess] = {
    "agent": _deleting(
        "agent",
        BusAccess(
            emits=_emitted(AgentHeartbeat),
            sends=("scheduler.report",),
            durables=(Durable(_C, "*"),),
            publishes=("ingest.logs.>",),
            listens=("evt.run.stopping",),
        ),
    ),
    "api": BusAccess(
        emits=_emitted(ApiWriteAudited),
        sends=("scheduler.*",),
        calls=tuple(sorted({rpc.service for rpc in ALL_RPCS})),
        publishes=("ingest.metrics.>", "ingest.artifacts.>", "ingest.traces.>", "ext.>"),
        listens=("applied.*", "ingest.logs.>", "evt.run.done", "evt.prompt.>"),
    ),
    "evaluation": _deleting(
        "evaluation",
        BusAccess(
            emits=_emitted(EvalJobDone, ScoreCreated),
            sends=("scheduler.submit", "evaluation.run_job"),
            calls=(Registry.get_prompt, Scheduler.get_run, Tracking.get_trace),
            durables=(
                Durable(_E, "evaluation-evaluator-runs"),
                Durable(_E, "evaluation-experiments"),
                Durable(_E, "evaluation-online"),
                Durable(_C, "evaluation-jobs"),
            ),
            publishes=("ingest.traces.>",),
        ),
    ),
    "identity": _deleting(
        "identity",
        BusAccess(
            emits=_emitted(
                ProjectCreated, ProjectDeleted, ProjectQuotasChanged, ProjectRetentionChanged
            ),
            durables=(Durable(_E, "identity-audit"),),
        ),
    ),
    "notifications": _deleting(
        "notifications",
        BusAccess(
            emits=_emitted(NotificationDelivered, NotificationFailed),
            durables=(Durable(_E, "notifications-events"),),
        ),
    ),
    "optimization": _deleting(
        "optimization",
        BusAccess(
            sends=("scheduler.add_trials", "scheduler.submit", "scheduler.stop"),
            calls=(Scheduler.get_run, Tracking.latest, Tracking.series),
            durables=(Durable(_C, "optimization-sweeps"), Durable(_E, "optimization-trials")),
        ),
    ),
    "registry": _deleting(
        "registry",
        BusAccess(
            emits=_emitted(
                HubComponentPushed,
                ModelVersionArchived,
                ModelVersionCreated,
                ModelVersionEvaluated,
                ModelVersionPromoted,
                PromptLabelsChanged,
                PromptVersionCreated,
            ),
            durables=(Durable(_E, "registry-artifacts"),),
        ),
    ),
    "scheduler": _deleting(
        "scheduler",
        BusAccess(
            emits=_emitted(
                HookRequested, NotificationFailed, RunDeleted, RunDone, RunStatusChanged
            ),
            sends=("agent.execute", "optimization.start", "scheduler.*"),
            calls=(Registry.resolve_component, Tracking.latest),
            durables=(
                Durable(_C, "scheduler"),
                Durable(_E, "scheduler-events"),
                Durable(_E, "scheduler-agents"),
                Durable(_I, "scheduler-logs"),
                Durable(_E, "scheduler-quotas"),
            ),
            publishes=("applied.*",),
        ),
        retention=True,
    ),
    "tracking": _deleting(
        "tracking",
        BusAccess(
            emits=_emitted(ArtifactVersionCreated, MetricCrossed, TraceDeleted, TraceIngested),
            durables=(
                Durable(_E, "tracking-runs"),
                Durable(_E, "tracking-scores"),
                Durable(_I, "tracking-metrics"),
                Durable(_I, "tracking-artifacts"),
                Durable(_I, "tracking-traces"),
            ),
        ),
        retention=True,
    ),
}


def _command(subjects: Subjects, command_type: str) -> str:
    service, _, verb = command_type.partition(".")
    if service == "agent":
        return f"{subjects.namespace}.cmd.agent.>"
    return f"{subjects.namespace}.cmd.{service}.{verb}"


def _consumer_api(subjects: Subjects, durable: Durable) -> list[str]:
    """What binding, pulling from and acknowledging ``durable`` takes (nats-py 2.16)."""
    stream, name = subjects.stream_name(durable.stream), durable.name
    return [
        f"$JS.API.CONSUMER.INFO.{stream}.{name}",
        f"$JS.API.CONSUMER.DURABLE.CREATE.{stream}.{name}",
        f"$JS.API.CONSUMER.CREATE.{stream}.{name}",
        f"$JS.API.CONSUMER.CREATE.{stream}.{name}.>",
        f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{name}",
        f"$JS.ACK.{stream}.{name}.>",
    ]


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def permissions(subjects: Subjects, service: str, access: BusAccess) -> dict[str, Any]:
    """The NATS permissions of ``service``'s user."""
    ns = subjects.namespace
    calls = [f"{ns}.rpc.{c}.*" if isinstance(c, str) else c.subject(subjects) for c in access.calls]
    durables = [*access.durables, Durable(StreamKind.ADVISORIES, DLQ_RELAY_DURABLE)]
    publish = [
        *(subjects.event(t) for t in access.emits),
        *(_command(subjects, c) for c in access.sends),
        *calls,
        subjects.rpc(service, "ping"),
        *(f"{ns}.{s}" for s in access.publishes),
        f"{ns}.dlq.>",
        *(f"$JS.API.STREAM.MSG.GET.{subjects.stream_name(k)}" for k in _ORIGIN_STREAMS),
        *(api for durable in durables for api in _consumer_api(subjects, durable)),
    ]
    subscribe = [
        f"{subjects.inbox_prefix(service)}.>",
        f"{ns}.rpc.{service}.*",
        *(f"{ns}.{s}" for s in access.listens),
    ]
    return {
        "publish": {"allow": _unique(publish)},
        "subscribe": {"allow": _unique(subscribe)},
        "allow_responses": True,
    }


def admin_permissions() -> dict[str, Any]:
    """Provisioning, the embedded stack's supervisor, operators' tools: everything."""
    return {"publish": {"allow": [">"]}, "subscribe": {"allow": [">"]}}


def run_permissions(subjects: Subjects) -> dict[str, Any]:
    """A run's process: its metrics batches onto INGEST, and their acknowledgements."""
    return {
        "publish": {"allow": [subjects.ingest("metrics.>")]},
        "subscribe": {"allow": [f"{subjects.inbox_prefix(RUN_USER)}.>"]},
    }


def password_variable(user: str) -> str:
    """The environment variable holding ``user``'s password on the server
    (``AXONAL_NATS_PASSWORD_SCHEDULER``)."""
    return "AXONAL_NATS_PASSWORD_" + re.sub(r"[^A-Z0-9]", "_", user.upper())


def all_permissions(subjects: Subjects) -> dict[str, dict[str, Any]]:
    """User name -> permissions, for the admin, every service and runs."""
    users = {ADMIN_USER: admin_permissions()}
    users |= {name: permissions(subjects, name, access) for name, access in ACCESS.items()}
    users[RUN_USER] = run_permissions(subjects)
    return users


def users_config(subjects: Subjects, passwords: Mapping[str, str] | None = None) -> str:
    """The ``authorization`` block of a nats-server configuration with every user.

    Without ``passwords`` each password is a variable the server reads from its environment
    (:func:`password_variable`), so the file holds no secret.
    """
    lines = ["authorization {", "  users: ["]
    for user, perms in all_permissions(subjects).items():
        password = (
            json.dumps(passwords[user]) if passwords is not None else f"${password_variable(user)}"
        )
        lines.append(
            f"    {{user: {json.dumps(user)}, password: {password}, "
            f"permissions: {json.dumps(perms)}}}"
        )
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"
