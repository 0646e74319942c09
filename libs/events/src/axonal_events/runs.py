"""RPC payloads of the scheduler: runs, their statuses and their logs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.catalog.run import RunStatus

__all__ = [
    "GetRun",
    "ListRuns",
    "LogLine",
    "LogPage",
    "ReadLogs",
    "RunInfo",
    "RunList",
    "StatusChange",
    "StatusHistory",
]


class GetRun(Payload):
    run_uuid: str


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


class ListRuns(Payload):
    owner: str
    project: str
    status: RunStatus | None = None
    pipeline_uuid: str | None = None
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
