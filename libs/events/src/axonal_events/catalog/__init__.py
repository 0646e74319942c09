"""Every event type of the platform, registered in :data:`CATALOG`."""

from __future__ import annotations

from axonal_events.catalog.access import ApiWriteAudited
from axonal_events.catalog.agents import AgentHeartbeat
from axonal_events.catalog.alerts import (
    NOTIFIERS,
    Comparison,
    HookRequested,
    MetricCrossed,
    NotificationDelivered,
    NotificationFailed,
)
from axonal_events.catalog.deletion import (
    DeletionCompleted,
    ProjectDeleted,
    ProjectQuotasChanged,
    ProjectRetentionChanged,
    RunDeleted,
    TraceDeleted,
)
from axonal_events.catalog.evaluation import EvalJobDone
from axonal_events.catalog.hub import HubComponentPushed
from axonal_events.catalog.models import (
    ArtifactVersionCreated,
    ModelVersionArchived,
    ModelVersionCreated,
    ModelVersionEvaluated,
    ModelVersionPromoted,
)
from axonal_events.catalog.project import ProjectCreated
from axonal_events.catalog.prompts import PromptLabelsChanged, PromptVersionCreated
from axonal_events.catalog.registry import Catalog, EventEntry
from axonal_events.catalog.run import DONE_STATUSES, RunDone, RunStatus, RunStatusChanged
from axonal_events.catalog.scores import ScoreCreated
from axonal_events.catalog.traces import TraceIngested

__all__ = [
    "CATALOG",
    "DONE_STATUSES",
    "NOTIFIERS",
    "AgentHeartbeat",
    "ApiWriteAudited",
    "ArtifactVersionCreated",
    "Catalog",
    "Comparison",
    "DeletionCompleted",
    "EvalJobDone",
    "EventEntry",
    "HookRequested",
    "HubComponentPushed",
    "MetricCrossed",
    "ModelVersionArchived",
    "ModelVersionCreated",
    "ModelVersionEvaluated",
    "ModelVersionPromoted",
    "NotificationDelivered",
    "NotificationFailed",
    "ProjectCreated",
    "ProjectDeleted",
    "ProjectQuotasChanged",
    "ProjectRetentionChanged",
    "PromptLabelsChanged",
    "PromptVersionCreated",
    "RunDeleted",
    "RunDone",
    "RunStatus",
    "RunStatusChanged",
    "ScoreCreated",
    "TraceDeleted",
    "TraceIngested",
]

CATALOG = Catalog()
for _status in RunStatus:
    CATALOG.register(
        RunStatusChanged,
        f"run.{_status.value}",
        description=f"A run entered the '{_status.value}' status.",
    )
for _model in (
    RunDone,
    MetricCrossed,
    HookRequested,
    NotificationDelivered,
    NotificationFailed,
    ProjectCreated,
    ApiWriteAudited,
    AgentHeartbeat,
    TraceIngested,
    ArtifactVersionCreated,
    ModelVersionCreated,
    ModelVersionPromoted,
    ModelVersionArchived,
    ModelVersionEvaluated,
    HubComponentPushed,
    PromptVersionCreated,
    PromptLabelsChanged,
    ScoreCreated,
    EvalJobDone,
    ProjectDeleted,
    ProjectRetentionChanged,
    ProjectQuotasChanged,
    TraceDeleted,
    RunDeleted,
    DeletionCompleted,
):
    CATALOG.register(_model)
