"""Every RPC of the platform, one class per service that answers it.

Servers register a handler per descriptor (``ctx.serve(Scheduler.get_run, get_run)``) and
callers name the same descriptor (``gateway.call(Scheduler.get_run, GetRun(...))``), so
mypy checks that both sides agree on the request and the reply. :data:`ALL_RPCS` lists them
for the AsyncAPI document. ``ping``, answered by every service, is described apart
(:class:`~axonal_events.rpc.PingRequest`).
"""

from __future__ import annotations

from typing import Any

from axonal_events.api_keys import (
    ApiKeyCreated,
    ApiKeyInfo,
    ApiKeyList,
    CreateApiKeyRequest,
    ListApiKeysRequest,
    RevokeApiKeyRequest,
    VerifyApiKeyRequest,
)
from axonal_events.artifacts import ArtifactList, Lineage, ListArtifacts, ReadLineage
from axonal_events.automations import (
    AutomationInfo,
    AutomationList,
    AutomationSpec,
    DeleteAutomation,
    FiringList,
    ListAutomations,
    ListFirings,
)
from axonal_events.connections import (
    AlertRouteInfo,
    AlertRouteList,
    AlertRouteSpec,
    ConnectionDeliveries,
    ConnectionInfo,
    ConnectionList,
    ConnectionRef,
    ConnectionSpec,
    DeleteAlertRoute,
    ListAlertRoutes,
    ListConnections,
    ReplayConnection,
)
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
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
from axonal_events.prompts import (
    CreatePrompt,
    DeletedPrompt,
    DeletePrompt,
    GetPrompt,
    GetPromptVersions,
    ListPrompts,
    PromptGenerationPage,
    PromptGenerations,
    PromptMetaPage,
    PromptVersion,
    PromptVersionList,
    ProtectedLabels,
    ProtectedLabelsOf,
    SetPromptLabels,
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
from axonal_events.webhooks import (
    DeleteWebhook,
    DeliveryList,
    ListDeliveries,
    ListWebhooks,
    ReplayDeliveries,
    ReplayResult,
    WebhookInfo,
    WebhookList,
    WebhookSpec,
)

__all__ = ["ALL_RPCS", "Identity", "Notifications", "Registry", "Scheduler", "Tracking"]


class Identity:
    """Projects and their API keys."""

    create_project = Rpc(
        "identity", "create_project", CreateProjectRequest, Project, "Create a project."
    )
    list_projects = Rpc(
        "identity", "list_projects", ListProjectsRequest, ProjectList, "Projects of an owner."
    )
    create_api_key = Rpc(
        "identity",
        "create_api_key",
        CreateApiKeyRequest,
        ApiKeyCreated,
        "A new key pair; the secret is returned only here.",
    )
    verify_api_key = Rpc(
        "identity", "verify_api_key", VerifyApiKeyRequest, ApiKeyInfo, "The project of a key."
    )
    list_api_keys = Rpc(
        "identity", "list_api_keys", ListApiKeysRequest, ApiKeyList, "Keys of a project."
    )
    revoke_api_key = Rpc(
        "identity", "revoke_api_key", RevokeApiKeyRequest, ApiKeyList, "Revoke a key."
    )


class Scheduler:
    """Runs (read, tracked from the SDK), their logs, and automation rules."""

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


class Notifications:
    """Webhook subscriptions, connections, alert routes, their deliveries and replays."""

    create_webhook = Rpc(
        "notifications", "create_webhook", WebhookSpec, WebhookInfo, "Subscribe a URL."
    )
    list_webhooks = Rpc(
        "notifications", "list_webhooks", ListWebhooks, WebhookList, "Subscriptions."
    )
    delete_webhook = Rpc(
        "notifications", "delete_webhook", DeleteWebhook, WebhookList, "Unsubscribe a URL."
    )
    deliveries = Rpc(
        "notifications", "deliveries", ListDeliveries, DeliveryList, "A webhook's deliveries."
    )
    replay = Rpc(
        "notifications", "replay", ReplayDeliveries, ReplayResult, "Deliver dead ones again."
    )
    create_connection = Rpc(
        "notifications", "create_connection", ConnectionSpec, ConnectionInfo, "Add a target."
    )
    list_connections = Rpc(
        "notifications", "list_connections", ListConnections, ConnectionList, "Targets."
    )
    get_connection = Rpc(
        "notifications", "get_connection", ConnectionRef, ConnectionInfo, "One target."
    )
    delete_connection = Rpc(
        "notifications", "delete_connection", ConnectionRef, ConnectionList, "Remove a target."
    )
    connection_deliveries = Rpc(
        "notifications",
        "connection_deliveries",
        ConnectionDeliveries,
        DeliveryList,
        "A connection's deliveries.",
    )
    replay_connection = Rpc(
        "notifications",
        "replay_connection",
        ReplayConnection,
        ReplayResult,
        "Deliver a connection's dead deliveries again.",
    )
    create_alert_route = Rpc(
        "notifications", "create_alert_route", AlertRouteSpec, AlertRouteInfo, "Route alerts."
    )
    list_alert_routes = Rpc(
        "notifications", "list_alert_routes", ListAlertRoutes, AlertRouteList, "Alert routes."
    )
    delete_alert_route = Rpc(
        "notifications", "delete_alert_route", DeleteAlertRoute, AlertRouteList, "Remove one."
    )


class Registry:
    """Prompts with their versions and labels."""

    create_prompt = Rpc(
        "registry", "create_prompt", CreatePrompt, PromptVersion, "The next version of a prompt."
    )
    get_prompt = Rpc(
        "registry", "get_prompt", GetPrompt, PromptVersion, "A version by number or label."
    )
    prompt_versions = Rpc(
        "registry", "prompt_versions", GetPromptVersions, PromptVersionList, "All versions."
    )
    list_prompts = Rpc(
        "registry", "list_prompts", ListPrompts, PromptMetaPage, "Prompt names, filtered."
    )
    set_prompt_labels = Rpc(
        "registry", "set_prompt_labels", SetPromptLabels, PromptVersion, "Move labels."
    )
    delete_prompt = Rpc(
        "registry", "delete_prompt", DeletePrompt, DeletedPrompt, "Delete versions."
    )
    protected_labels = Rpc(
        "registry",
        "protected_labels",
        ProtectedLabelsOf,
        ProtectedLabels,
        "A project's protected labels.",
    )
    set_protected_labels = Rpc(
        "registry",
        "set_protected_labels",
        ProtectedLabels,
        ProtectedLabels,
        "Replace a project's protected labels.",
    )


def _declared(*groups: type) -> tuple[Rpc[Any, Any], ...]:
    return tuple(
        value for group in groups for value in vars(group).values() if isinstance(value, Rpc)
    )


#: Every RPC above, in declaration order.
ALL_RPCS = _declared(Identity, Scheduler, Tracking, Notifications, Registry)
