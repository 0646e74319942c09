"""Operation helpers: cache, termination, plugins, build, hooks, events, joins, schedules."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated, Any, Literal, Union
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError
from pydantic import Field, PlainValidator, Tag, model_validator

from axonal_spec.base import SpecModel
from axonal_spec.models.fields import (
    BoolOrRef,
    IntOrRef,
    OrRef,
    RuleViolation,
    StrList,
    is_template,
    kind_discriminator,
    show,
)
from axonal_spec.models.params import JoinParams, Params, parse_ref

__all__ = [
    "EVENT_KINDS",
    "HOOK_TRIGGERS",
    "Build",
    "Cache",
    "CronSchedule",
    "Culling",
    "DateTimeSchedule",
    "EventTrigger",
    "Hook",
    "IntervalSchedule",
    "Join",
    "Mount",
    "Notification",
    "PatchStrategy",
    "Plugins",
    "Probe",
    "Schedule",
    "Template",
    "Termination",
    "TriggerPolicy",
]

_STATUSES = [
    "created",
    "resuming",
    "compiled",
    "on_schedule",
    "queued",
    "scheduled",
    "starting",
    "running",
    "processing",
    "stopping",
    "failed",
    "stopped",
    "succeeded",
    "skipped",
    "warning",
    "unschedulable",
    "upstream_failed",
    "retrying",
    "unknown",
    "done",
]
#: Every ``events[].kinds`` value.
EVENT_KINDS: tuple[str, ...] = (
    *(f"run_status_{status}" for status in _STATUSES),
    "run_approved_actor",
    "run_invalidated_actor",
    "run_new_artifacts",
    "connection_git_commit",
    "connection_dataset_version",
    "connection_registry_image",
    "alert_info",
    "alert_warning",
    "alert_critical",
    "model_version_new_metric",
    "project_custom_event",
    "org_custom_event",
)
#: Statuses a hook (or a notification) may be triggered on; ``done`` = any final status.
HOOK_TRIGGERS = ("succeeded", "failed", "stopped", "skipped", "upstream_failed", "done")
HookTrigger = Literal["succeeded", "failed", "stopped", "skipped", "upstream_failed", "done"]


class TriggerPolicy(StrEnum):
    """When a DAG op starts, given its upstream statuses (default ``all_succeeded``)."""

    ALL_SUCCEEDED = "all_succeeded"
    ALL_FAILED = "all_failed"
    ALL_DONE = "all_done"
    ONE_SUCCEEDED = "one_succeeded"
    ONE_FAILED = "one_failed"
    ONE_DONE = "one_done"


class PatchStrategy(StrEnum):
    """How a patch (``-f`` overlay, preset, ``runPatch``) merges onto what it patches."""

    REPLACE = "replace"
    ISNULL = "isnull"
    POST_MERGE = "post_merge"
    PRE_MERGE = "pre_merge"


def _seconds(value: Any) -> int | str:
    if isinstance(value, dt.timedelta):
        return int(value.total_seconds())
    if is_template(value):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    raise ValueError(f"expected a number of seconds, got {show(value)}")


Seconds = Annotated[int | str, PlainValidator(_seconds)]
DateTimeOrRef = OrRef[dt.datetime]


class Cache(SpecModel):
    """Reuse a previous identical run (on unless ``disable``)."""

    disable: BoolOrRef | None = None
    ttl: IntOrRef | None = None
    io: StrList | None = None
    sections: list[Literal["containers", "init", "connections"]] | None = None


class Culling(SpecModel):
    """Stop an idle run after ``timeout`` seconds."""

    timeout: IntOrRef | None = None


class Probe(SpecModel):
    """How to tell a run is idle: a command (``exec``) or an HTTP endpoint."""

    exec: dict[str, Any] | None = None
    http: dict[str, Any] | None = None


class Termination(SpecModel):
    """Retries, time to live, timeout and culling."""

    max_retries: IntOrRef | None = None
    ttl: IntOrRef | None = None
    timeout: IntOrRef | None = None
    culling: OrRef[Culling] | None = None
    probe: OrRef[Probe] | None = None
    pod_failure_policy: dict[str, Any] | None = None


class Notification(SpecModel):
    """A light agent-side notification (``plugins.notifications``)."""

    connections: StrList
    trigger: HookTrigger | None = None


class Plugins(SpecModel):
    """Auxiliary behaviours of a run (``sandbox``/``ssh`` only on services)."""

    auth: BoolOrRef | None = None
    docker: BoolOrRef | None = None
    shm: BoolOrRef | None = None
    mount_artifacts_store: BoolOrRef | None = None
    collect_artifacts: BoolOrRef | None = None
    collect_logs: BoolOrRef | None = None
    collect_resources: BoolOrRef | None = None
    sync_statuses: BoolOrRef | None = None
    auto_resume: BoolOrRef | None = None
    external_host: BoolOrRef | None = None
    tmux: BoolOrRef | None = None
    sandbox: BoolOrRef | None = None
    ssh: BoolOrRef | None = None
    log_level: str | None = None
    sidecar: dict[str, Any] | None = None
    notifications: OrRef[list[Notification]] | None = None


class Build(SpecModel):
    """A builder run (from the hub) whose image becomes the main container image."""

    hub_ref: str
    connection: str | None = None
    presets: StrList | None = None
    queue: str | None = None
    namespace: str | None = None
    cache: OrRef[Cache] | None = None
    params: Params | None = None
    run_patch: dict[str, Any] | None = None
    patch_strategy: PatchStrategy | None = None


class Hook(SpecModel):
    """An operation (from the hub) created after the run is done."""

    hub_ref: str
    connection: str | None = None
    trigger: HookTrigger | None = None
    conditions: str | None = None
    presets: StrList | None = None
    queue: str | None = None
    namespace: str | None = None
    params: OrRef[Params] | None = None
    disable_defaults: BoolOrRef | None = None


class EventTrigger(SpecModel):
    """Start when ``ref`` (``ops.<name>`` or ``runs.<uuid>``) emits one of ``kinds``."""

    kinds: list[str]
    ref: str

    @model_validator(mode="after")
    def _check(self) -> EventTrigger:
        for index, event in enumerate(self.kinds):
            if event not in EVENT_KINDS:
                raise RuleViolation(
                    [(("kinds", index), f"unknown event kind {show(event)} (see the spec, §4.3)")]
                )
        try:
            kind, _ = parse_ref(self.ref)
        except ValueError:
            kind = "dag"
        if kind == "dag":
            raise RuleViolation(
                [(("ref",), f"ref must be 'ops.<op-name>' or 'runs.<uuid>', got {show(self.ref)}")]
            )
        return self


class Join(SpecModel):
    """Runs matched by a query whose values are exposed as list params."""

    ref: str | None = None
    query: str
    sort: str | None = None
    limit: IntOrRef | None = None
    offset: IntOrRef | None = None
    params: JoinParams | None = None

    @model_validator(mode="after")
    def _cap(self) -> Join:
        if isinstance(self.limit, int) and not 0 < self.limit <= 5000:
            raise RuleViolation(
                [(("limit",), f"limit must be between 1 and 5000, got {self.limit}")]
            )
        return self


#: What a schedule does with the slots it missed while the platform was down (an Axonal
#: field): ``skip`` them (the default), fire the ``last`` one, or fire ``all`` of them.
CatchUp = Literal["skip", "last", "all"]


class _ScheduleBase(SpecModel):
    start_at: DateTimeOrRef | None = None
    end_at: DateTimeOrRef | None = None
    max_runs: IntOrRef | None = None
    depends_on_past: BoolOrRef | None = None
    catchup: CatchUp | None = None


class CronSchedule(_ScheduleBase):
    """One run per cron tick, in ``timezone`` (an IANA name, an Axonal field; default UTC)."""

    kind: Literal["cron"] = "cron"
    cron: str
    timezone: str | None = None

    @model_validator(mode="after")
    def _parses(self) -> CronSchedule:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        try:
            CronSim(self.cron, dt.datetime.now(dt.UTC))
        except CronSimError as exc:
            problems.append((("cron",), f"`{self.cron}` is not a cron expression: {exc}"))
        if self.timezone is not None:
            try:
                ZoneInfo(self.timezone)
            except (ZoneInfoNotFoundError, ValueError):
                problems.append((("timezone",), f"`{self.timezone}` is not an IANA time zone"))
        if problems:
            raise RuleViolation(problems)
        return self


class IntervalSchedule(_ScheduleBase):
    """One run every ``frequency`` seconds."""

    kind: Literal["interval"] = "interval"
    frequency: Seconds


class DateTimeSchedule(SpecModel):
    """A single run at ``startAt``."""

    kind: Literal["datetime"] = "datetime"
    start_at: DateTimeOrRef
    catchup: CatchUp | None = None


Schedule = Annotated[
    Union[  # noqa: UP007
        Annotated[CronSchedule, Tag("~cron")],
        Annotated[IntervalSchedule, Tag("~interval")],
        Annotated[DateTimeSchedule, Tag("~datetime")],
    ],
    kind_discriminator("schedule", ("cron", "interval", "datetime")),
]


class Template(SpecModel):
    """Marks a file as a template needing ``fields`` before it can run."""

    enabled: bool | None = None
    description: str | None = None
    fields: list[str] | None = None


class Mount(SpecModel):
    """A local path uploaded before the run starts (``from`` -> ``to``)."""

    path_from: str | None = Field(default=None, alias="from")
    path_to: str | None = Field(default=None, alias="to")
