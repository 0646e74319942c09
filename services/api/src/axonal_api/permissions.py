"""The permission every route needs: one table, enforced centrally (:mod:`axonal_api.access`).

A route missing here cannot be registered (``build_app`` fails), and a request for one is
refused. Reads need ``viewer``, writes ``member``. API keys, connection secrets, protected
prompt labels, model aliases, retention and quotas need ``admin``; deleting a project, ``owner``.
The project is the path's ``owner/project``, or the API key's for the Langfuse-compatible
``/api/public`` and OTLP routes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from axonal_events.principals import Role

__all__ = ["PERMISSIONS", "Permission", "Scope"]

Scope = Literal["public", "signed_in", "self", "superuser", "project", "org"]


@dataclass(frozen=True, slots=True)
class Permission:
    """Who may call a route: anyone, any caller, a principal about itself (the path's
    ``{name}``; or a superuser), a superuser, or a role in its project or organization.

    ``audited``: its writes go to the audit trail (all but telemetry ingestion).
    """

    scope: Scope
    role: Role = Role.NONE
    audited: bool = True


PUBLIC = Permission("public")
SIGNED_IN = Permission("signed_in")
SELF = Permission("self")
SUPERUSER = Permission("superuser")
VIEW = Permission("project", Role.VIEWER)
EDIT = Permission("project", Role.MEMBER)
INGEST = Permission("project", Role.MEMBER, audited=False)
ADMIN = Permission("project", Role.ADMIN)
OWNER = Permission("project", Role.OWNER)
ORG_VIEW = Permission("org", Role.VIEWER)
ORG_ADMIN = Permission("org", Role.ADMIN)

PERMISSIONS: Final[Mapping[tuple[str, str], Permission]] = {
    ("GET", "/api/public/annotation-queues"): VIEW,
    ("POST", "/api/public/annotation-queues"): EDIT,
    ("GET", "/api/public/annotation-queues/{queue_id}"): VIEW,
    ("DELETE", "/api/public/annotation-queues/{queue_id}/assignments"): EDIT,
    ("POST", "/api/public/annotation-queues/{queue_id}/assignments"): EDIT,
    ("GET", "/api/public/annotation-queues/{queue_id}/items"): VIEW,
    ("POST", "/api/public/annotation-queues/{queue_id}/items"): EDIT,
    ("DELETE", "/api/public/annotation-queues/{queue_id}/items/{item_id}"): EDIT,
    ("GET", "/api/public/annotation-queues/{queue_id}/items/{item_id}"): VIEW,
    ("PATCH", "/api/public/annotation-queues/{queue_id}/items/{item_id}"): EDIT,
    ("GET", "/api/public/dataset-items"): VIEW,
    ("POST", "/api/public/dataset-items"): EDIT,
    ("DELETE", "/api/public/dataset-items/{item_id}"): EDIT,
    ("GET", "/api/public/dataset-items/{item_id}"): VIEW,
    ("GET", "/api/public/dataset-run-items"): VIEW,
    ("POST", "/api/public/dataset-run-items"): EDIT,
    ("GET", "/api/public/datasets"): VIEW,
    ("POST", "/api/public/datasets"): EDIT,
    ("GET", "/api/public/datasets/{name}"): VIEW,
    ("GET", "/api/public/datasets/{name}/runs"): VIEW,
    ("DELETE", "/api/public/datasets/{name}/runs/{run_name}"): EDIT,
    ("GET", "/api/public/datasets/{name}/runs/{run_name}"): VIEW,
    ("GET", "/api/public/experiment-items"): VIEW,
    ("GET", "/api/public/experiments"): VIEW,
    ("GET", "/api/public/health"): PUBLIC,  # Langfuse answers it without a key
    ("POST", "/api/public/ingestion"): INGEST,
    ("GET", "/api/public/llm-connections"): ADMIN,
    ("PUT", "/api/public/llm-connections"): ADMIN,
    ("DELETE", "/api/public/llm-connections/{connection_id}"): ADMIN,
    ("GET", "/api/public/models"): VIEW,
    ("POST", "/api/public/models"): EDIT,
    ("DELETE", "/api/public/models/{model_id}"): EDIT,
    ("GET", "/api/public/models/{model_id}"): VIEW,
    ("GET", "/api/public/observations"): VIEW,
    ("GET", "/api/public/observations/{observation_id}"): VIEW,
    ("POST", "/api/public/otel/v1/traces"): INGEST,
    ("GET", "/api/public/projects"): VIEW,
    ("GET", "/api/public/score-configs"): VIEW,
    ("POST", "/api/public/score-configs"): EDIT,
    ("GET", "/api/public/score-configs/{config_id}"): VIEW,
    ("PATCH", "/api/public/score-configs/{config_id}"): EDIT,
    ("POST", "/api/public/scores"): INGEST,
    ("GET", "/api/public/sessions"): VIEW,
    ("GET", "/api/public/sessions/{session_id}"): VIEW,
    ("GET", "/api/public/traces"): VIEW,
    ("GET", "/api/public/traces/{trace_id}"): VIEW,
    ("GET", "/api/public/v2/datasets"): VIEW,
    ("POST", "/api/public/v2/datasets"): EDIT,
    ("GET", "/api/public/v2/datasets/{name}"): VIEW,
    ("GET", "/api/public/v2/observations"): VIEW,
    ("GET", "/api/public/v2/prompts"): VIEW,
    ("POST", "/api/public/v2/prompts"): EDIT,
    ("DELETE", "/api/public/v2/prompts/{prompt_name}"): EDIT,
    ("GET", "/api/public/v2/prompts/{prompt_name}"): VIEW,
    ("PATCH", "/api/public/v2/prompts/{prompt_name}/versions/{version}"): EDIT,
    ("GET", "/api/public/v2/scores"): VIEW,
    ("GET", "/api/public/v3/scores"): VIEW,
    ("GET", "/api/v1/hub/components"): SIGNED_IN,
    ("POST", "/api/v1/hub/components"): SUPERUSER,
    ("GET", "/api/v1/hub/resolve"): SIGNED_IN,
    ("GET", "/api/v1/projects"): SIGNED_IN,
    ("POST", "/api/v1/projects"): SIGNED_IN,
    ("GET", "/api/v1/projects/{owner}/{project}/api-keys"): ADMIN,
    ("POST", "/api/v1/projects/{owner}/{project}/api-keys"): ADMIN,
    ("DELETE", "/api/v1/projects/{owner}/{project}/api-keys/{public_key}"): ADMIN,
    ("GET", "/api/v1/{owner}/{project}/alert-routes"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/alert-routes"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/alert-routes/{route_id}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/alerts"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/alerts"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/alerts/{rule_id}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/annotation-queues"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/annotation-queues"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/annotation-queues/{queue_id}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/annotation-queues/{queue_id}/items"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/annotation-queues/{queue_id}/items"): EDIT,
    (
        "POST",
        "/api/v1/{owner}/{project}/annotation-queues/{queue_id}/items/{item_id}/complete",
    ): EDIT,
    ("GET", "/api/v1/{owner}/{project}/annotation-queues/{queue_id}/score-configs"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/automations"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/automations"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/automations/{automation_id}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/automations/{automation_id}/firings"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/compare"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/connections"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/connections"): ADMIN,
    ("DELETE", "/api/v1/{owner}/{project}/connections/{name}"): ADMIN,
    ("GET", "/api/v1/{owner}/{project}/connections/{name}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/connections/{name}/deliveries"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/connections/{name}/deliveries/{delivery_id}/replay"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/connections/{name}/replay"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/datasets"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/datasets/{name}/items"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/datasets/{name}/runs"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/datasets/{name}/runs/{run_name}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/evals/jobs"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/evals/jobs/{job_id}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/evals/rules"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/evals/rules"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/evals/rules/{rule}/dataset-runs/{dataset_run_id}"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/evals/rules/{rule}/{verb}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/evals/templates"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/evals/templates"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/events"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/experiments/compare"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/llm-models"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/llm-models"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/llm-models/{model_id}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/models"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/models"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/models/{model}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/gates"): VIEW,
    ("PUT", "/api/v1/{owner}/{project}/models/{model}/gates/{alias}"): ADMIN,
    ("PUT", "/api/v1/{owner}/{project}/models/{model}/protected"): ADMIN,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/requests"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/models/{model}/requests/{request_id}/approve"): ADMIN,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/versions"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/models/{model}/versions"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/versions/{ref}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/versions/{ref}/download"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/versions/{ref}/scores"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/models/{model}/versions/{ref}/scores"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/models/{model}/versions/{version}/archive"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/models/{model}/versions/{version}/lineage"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/models/{model}/versions/{version}/promote"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/prompt-generations/{name}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/prompt-protected-labels"): VIEW,
    ("PUT", "/api/v1/{owner}/{project}/prompt-protected-labels"): ADMIN,
    ("GET", "/api/v1/{owner}/{project}/prompt-versions/{name}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/prompts"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/prompts"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/prompts/{name}"): VIEW,
    ("PATCH", "/api/v1/{owner}/{project}/prompts/{name}/versions/{version}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/runs"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/runs"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/runs/tracked"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/runs/{run_uuid}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}"): VIEW,
    ("PATCH", "/api/v1/{owner}/{project}/runs/{run_uuid}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/artifact-versions"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/artifacts"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/artifacts/{path}"): VIEW,
    ("PUT", "/api/v1/{owner}/{project}/runs/{run_uuid}/artifacts/{path}"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/runs/{run_uuid}/end"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/lineage"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/logs"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/logs/stream"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/metrics"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/runs/{run_uuid}/metrics"): INGEST,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/statuses"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/runs/{run_uuid}/study"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/runs/{run_uuid}/{verb}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/schedules"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/schedules/{run_uuid}/backfill"): EDIT,
    ("POST", "/api/v1/{owner}/{project}/schedules/{run_uuid}/{verb}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/scores"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/sessions"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/sessions/{session_id}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/traces"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/traces/{trace_id}"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/users"): VIEW,
    ("GET", "/api/v1/{owner}/{project}/webhooks"): VIEW,
    ("POST", "/api/v1/{owner}/{project}/webhooks"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/webhooks/{webhook_id}"): EDIT,
    ("GET", "/api/v1/{owner}/{project}/webhooks/{webhook_id}/deliveries"): VIEW,
    (
        "POST",
        "/api/v1/{owner}/{project}/webhooks/{webhook_id}/deliveries/{delivery_id}/replay",
    ): EDIT,
    ("POST", "/api/v1/{owner}/{project}/webhooks/{webhook_id}/replay"): EDIT,
    ("GET", "/healthz"): PUBLIC,
    # deletion and retention
    ("DELETE", "/api/public/traces/{trace_id}"): EDIT,
    ("DELETE", "/api/v1/{owner}/{project}/traces/{trace_id}"): EDIT,
    ("DELETE", "/api/v1/projects/{owner}/{project}"): OWNER,
    ("GET", "/api/v1/projects/{owner}/{project}/retention"): VIEW,
    ("PUT", "/api/v1/projects/{owner}/{project}/retention"): ADMIN,
    # quotas
    ("GET", "/api/v1/projects/{owner}/{project}/quotas"): VIEW,
    ("PUT", "/api/v1/projects/{owner}/{project}/quotas"): ADMIN,
    # access: sign-in, principals and roles
    ("POST", "/api/v1/auth/login"): PUBLIC,
    ("POST", "/api/v1/auth/logout"): PUBLIC,
    ("POST", "/api/v1/auth/tokens"): PUBLIC,
    ("GET", "/api/v1/auth/me"): SIGNED_IN,
    ("GET", "/api/v1/principals"): SUPERUSER,
    ("POST", "/api/v1/principals"): SUPERUSER,
    ("GET", "/api/v1/principals/{name}/tokens"): SELF,
    ("POST", "/api/v1/principals/{name}/tokens"): SELF,
    ("DELETE", "/api/v1/principals/{name}/tokens/{token_id}"): SELF,
    ("GET", "/api/v1/orgs/{org}/members"): ORG_VIEW,
    ("GET", "/api/v1/orgs/{org}/audit"): ORG_ADMIN,
    ("GET", "/api/v1/orgs/{org}/teams"): ORG_VIEW,
    ("POST", "/api/v1/orgs/{org}/teams"): ORG_ADMIN,
    ("PUT", "/api/v1/orgs/{org}/teams/{team}/members/{name}"): ORG_ADMIN,
    ("DELETE", "/api/v1/orgs/{org}/teams/{team}/members/{name}"): ORG_ADMIN,
    ("PUT", "/api/v1/orgs/{org}/teams/{team}/role"): ORG_ADMIN,
    ("PUT", "/api/v1/{owner}/{project}/teams/{team}"): ADMIN,
    ("PUT", "/api/v1/orgs/{org}/members/{name}"): ORG_ADMIN,
    ("GET", "/api/v1/{owner}/{project}/members"): VIEW,
    ("PUT", "/api/v1/{owner}/{project}/members/{name}"): ADMIN,
    ("POST", "/v1/traces"): INGEST,
}
