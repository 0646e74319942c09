"""RPC payloads of the scheduler: runs, their statuses and their logs."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.catalog.run import RunStatus

__all__ = [
    "ActionAccepted",
    "EndRun",
    "GetRun",
    "ListRuns",
    "LogLine",
    "LogPage",
    "Objective",
    "ReadLogs",
    "RunCreated",
    "RunInfo",
    "RunList",
    "StatusChange",
    "StatusHistory",
    "TrackRun",
    "UpdateRun",
]

RunUuid = Annotated[str, Field(min_length=32, max_length=36)]
Tag = Annotated[str, Field(min_length=1, max_length=100)]


class GetRun(Payload):
    run_uuid: str


class Objective(Payload):
    """The metric a matrix optimizes, and in which direction."""

    metric: str
    optimization: Literal["maximize", "minimize"] = "maximize"


class RunInfo(Payload):
    """A run as users see it."""

    uuid: str
    owner: str
    project: str
    name: str | None = None
    kind: str = Field(description="job, service, dag, matrix...")
    status: RunStatus
    reason: str | None = None
    message: str | None = None
    queue: str | None = None
    pipeline_uuid: str | None = None
    original_uuid: str | None = None
    attempt: int = 1
    is_approved: bool = True
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)
    cache_hit_of: str | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    children: int = Field(default=0, description="Runs of a DAG or matrix.")
    managed: bool = Field(
        default=True, description="Executed by an agent; false: tracked from the SDK."
    )
    description: str | None = None
    tags: list[str] = Field(default_factory=list)
    progress: float | None = Field(default=None, description="0 to 1, as the run reports it.")
    agent: str | None = Field(default=None, description="The agent that reports on it.")
    endpoints: dict[str, str] = Field(
        default_factory=dict,
        description="A service's URLs by declared port, recorded once it answered.",
    )
    compiled: dict[str, Any] | None = Field(
        default=None, description="The compiled operation; only when one run is read."
    )
    op_name: str | None = Field(default=None, description="A DAG op's name in its DAG.")
    upstream: dict[str, list[str]] | None = Field(
        default=None, description="A DAG's ops, each with the ops it waits for (its edges)."
    )
    objective: Objective | None = Field(
        default=None, description="A matrix's metric to optimize, when its spec names one."
    )
    warnings: list[str] = Field(
        default_factory=list, description="The fields of its file the local agent ignores."
    )


class TrackRun(Payload):
    """Create a run tracked from the SDK (non-managed): straight to ``running``, no agent.

    ``run_uuid`` is chosen by the caller: creating it again returns the existing run.
    """

    run_uuid: RunUuid
    owner: str = Field(min_length=1)
    project: str = Field(min_length=1)
    name: str | None = Field(default=None, max_length=256)
    description: str | None = Field(default=None, max_length=10_000)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    inputs: dict[str, Any] = Field(default_factory=dict)


class UpdateRun(Payload):
    """Merge ``inputs`` and ``outputs`` into a run's, add ``tags``, set ``progress``."""

    run_uuid: RunUuid
    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    progress: float | None = Field(default=None, ge=0.0, le=1.0)


class EndRun(Payload):
    """End a non-managed run with its final status (ending it again changes nothing)."""

    run_uuid: RunUuid
    status: Literal["succeeded", "failed", "stopped"]
    message: str | None = Field(default=None, max_length=10_000)


class ListRuns(Payload):
    owner: str
    project: str
    status: RunStatus | None = None
    pipeline_uuid: str | None = None
    kind: str | None = Field(default=None, max_length=64)
    tags: list[Tag] = Field(
        default_factory=list, max_length=20, description="Runs carrying every one of these."
    )
    name: str | None = Field(
        default=None, max_length=256, description="A part of the name, in any case."
    )
    created_after: datetime | None = None
    created_before: datetime | None = None
    limit: int = Field(default=50, ge=1, le=1000)
    offset: int = Field(default=0, ge=0)


class RunList(Payload):
    runs: list[RunInfo]
    total: int


class StatusChange(Payload):
    status: RunStatus
    reason: str | None = None
    message: str | None = None
    at: datetime


class StatusHistory(Payload):
    run_uuid: str
    changes: list[StatusChange]


class ReadLogs(Payload):
    run_uuid: str
    after: int = Field(default=0, ge=0, description="Return lines with a sequence above this.")
    limit: int = Field(default=1000, ge=1, le=10000)


class LogLine(Payload):
    seq: int
    at: datetime
    stream: str = Field(description="stdout or stderr")
    line: str


class LogPage(Payload):
    run_uuid: str
    lines: list[LogLine]
    done: bool = Field(description="The run is done: no more lines will come.")


class RunCreated(Payload):
    """``POST .../runs``: the submit is stored, and recorded by the scheduler (the api waits
    for that, within ``AXONAL_API_APPLY_WAIT``)."""

    uuid: str
    owner: str
    project: str
    status: str = Field(default="submitted", description="Stored, and recorded by the scheduler.")
    warnings: list[str] = Field(
        default_factory=list, description="The fields of the file the local agent will ignore."
    )


class ActionAccepted(Payload):
    """``POST .../runs/{uuid}/{verb}`` and ``DELETE .../runs/{uuid}``."""

    uuid: str
    action: str
    new_uuid: str | None = Field(default=None, description="The copy a restart creates.")
