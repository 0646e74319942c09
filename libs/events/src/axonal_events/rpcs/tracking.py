"""The tracking service's RPCs: metrics, alert rules, artifacts, LLM traces and scores, LLM
model prices."""

from __future__ import annotations

from axonal_events.artifacts import (
    ArtifactList,
    Lineage,
    ListArtifacts,
    ListArtifactVersions,
    ReadLineage,
)
from axonal_events.llm_models import (
    DeleteModel,
    GetModel,
    ListModels,
    ModelDefinition,
    ModelPage,
    ModelSpec,
)
from axonal_events.metrics import (
    AlertRuleInfo,
    AlertRuleList,
    AlertRuleSpec,
    DeleteAlertRule,
    LatestMetrics,
    ListAlertRules,
    ReadLatest,
    ReadSeries,
    SeriesList,
)
from axonal_events.prompts import PromptGenerationPage, PromptGenerations
from axonal_events.quotas import StorageUsage
from axonal_events.retention import DeleteTraceRequest, DeletionAccepted, ProjectRef
from axonal_events.rpc import Rpc
from axonal_events.trace_reads import (
    GetObservation,
    GetSession,
    GetTrace,
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
    ListUsers,
    ObservationPage,
    ObservationView,
    ScorePage,
    SessionPage,
    SessionWithTraces,
    TraceDetail,
    TracePage,
    UserPage,
)

__all__ = ["Tracking"]


class Tracking:
    """Metrics, alert rules, artifacts, LLM traces and scores, LLM model prices."""

    series = Rpc("tracking", "series", ReadSeries, SeriesList, "Metric series, downsampled.")
    latest = Rpc("tracking", "latest", ReadLatest, LatestMetrics, "Last value of each metric.")
    create_alert = Rpc("tracking", "create_alert", AlertRuleSpec, AlertRuleInfo, "Add a rule.")
    list_alerts = Rpc(
        "tracking", "list_alerts", ListAlertRules, AlertRuleList, "Alert rules of a project."
    )
    delete_alert = Rpc(
        "tracking", "delete_alert", DeleteAlertRule, AlertRuleList, "Remove an alert rule."
    )
    list_artifacts = Rpc(
        "tracking", "list_artifacts", ListArtifacts, ArtifactList, "Artifacts of a run."
    )
    artifact_versions = Rpc(
        "tracking",
        "artifact_versions",
        ListArtifactVersions,
        ArtifactList,
        "Every version of a run's artifact, newest first.",
    )
    lineage = Rpc("tracking", "lineage", ReadLineage, Lineage, "What a run read and wrote.")
    list_traces = Rpc("tracking", "list_traces", ListTraces, TracePage, "Traces, filtered.")
    get_trace = Rpc(
        "tracking", "get_trace", GetTrace, TraceDetail, "A trace with observations and scores."
    )
    list_observations = Rpc(
        "tracking", "list_observations", ListObservations, ObservationPage, "Observations."
    )
    get_observation = Rpc(
        "tracking", "get_observation", GetObservation, ObservationView, "One observation."
    )
    list_scores = Rpc("tracking", "list_scores", ListScores, ScorePage, "Scores, filtered.")
    list_sessions = Rpc("tracking", "list_sessions", ListSessions, SessionPage, "Sessions.")
    get_session = Rpc(
        "tracking", "get_session", GetSession, SessionWithTraces, "A session with its traces."
    )
    list_users = Rpc(
        "tracking", "list_users", ListUsers, UserPage, "Users of traces, with their totals."
    )
    create_model = Rpc(
        "tracking", "create_model", ModelSpec, ModelDefinition, "Define an LLM model's prices."
    )
    list_models = Rpc(
        "tracking", "list_models", ListModels, ModelPage, "LLM model definitions in effect."
    )
    get_model = Rpc("tracking", "get_model", GetModel, ModelDefinition, "One LLM model.")
    prompt_generations = Rpc(
        "tracking",
        "prompt_generations",
        PromptGenerations,
        PromptGenerationPage,
        "Generations that used a prompt, with latency, cost and scores.",
    )
    delete_model = Rpc(
        "tracking", "delete_model", DeleteModel, ModelDefinition, "Remove a project's model."
    )
    delete_trace = Rpc(
        "tracking",
        "delete_trace",
        DeleteTraceRequest,
        DeletionAccepted,
        "Delete a trace with its observations and scores; other services follow.",
    )
    storage_usage = Rpc(
        "tracking",
        "storage_usage",
        ProjectRef,
        StorageUsage,
        "Bytes of artifacts a project stores (its storage quota's use).",
    )
