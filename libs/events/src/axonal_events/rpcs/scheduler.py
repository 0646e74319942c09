"""The scheduler service's RPCs: runs (read, tracked from the SDK), their logs, automation
rules and schedules."""

from __future__ import annotations

from axonal_events.automations import (
    AutomationInfo,
    AutomationList,
    AutomationSpec,
    DeleteAutomation,
    FiringList,
    ListAutomations,
    ListFirings,
)
from axonal_events.rpc import Rpc
from axonal_events.runs import (
    EndRun,
    GetRun,
    ListRuns,
    LogPage,
    ReadLogs,
    RunInfo,
    RunList,
    StatusHistory,
    TrackRun,
    UpdateRun,
)
from axonal_events.schedules import (
    Backfill,
    BackfillResult,
    ListSchedules,
    ScheduleAction,
    ScheduleInfo,
    ScheduleList,
)

__all__ = ["Scheduler"]


class Scheduler:
    """Runs (read, tracked from the SDK), their logs, automation rules and schedules."""

    get_run = Rpc("scheduler", "get_run", GetRun, RunInfo, "One run.")
    list_runs = Rpc("scheduler", "list_runs", ListRuns, RunList, "Runs of a project, filtered.")
    statuses = Rpc("scheduler", "statuses", GetRun, StatusHistory, "A run's status changes.")
    logs = Rpc("scheduler", "logs", ReadLogs, LogPage, "A page of a run's log lines.")
    track_run = Rpc(
        "scheduler", "track_run", TrackRun, RunInfo, "Create (or find) a run tracked by the SDK."
    )
    update_run = Rpc("scheduler", "update_run", UpdateRun, RunInfo, "Merge into a tracked run.")
    end_run = Rpc("scheduler", "end_run", EndRun, RunInfo, "End a tracked run.")
    create_automation = Rpc(
        "scheduler", "create_automation", AutomationSpec, AutomationInfo, "Add a rule."
    )
    list_automations = Rpc(
        "scheduler", "list_automations", ListAutomations, AutomationList, "Rules of a project."
    )
    delete_automation = Rpc(
        "scheduler", "delete_automation", DeleteAutomation, AutomationList, "Remove a rule."
    )
    automation_firings = Rpc(
        "scheduler", "automation_firings", ListFirings, FiringList, "What a rule did."
    )
    list_schedules = Rpc(
        "scheduler", "list_schedules", ListSchedules, ScheduleList, "Schedules of a project."
    )
    act_on_schedule = Rpc(
        "scheduler", "act_on_schedule", ScheduleAction, ScheduleInfo, "Pause or resume a schedule."
    )
    backfill = Rpc(
        "scheduler", "backfill", Backfill, BackfillResult, "Create the runs of past slots."
    )
