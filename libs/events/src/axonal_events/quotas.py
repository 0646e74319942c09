"""Quota payloads: a project's limits, owned by the identity service next to the project.

A limit left unset (``None``) is the platform's default, set by the operator on the service
that enforces it: the api enforces the ingest rates and the storage
(``AXONAL_API_DEFAULT_SPANS_PER_SECOND``, ``..._POINTS_PER_SECOND``, ``..._STORAGE_BYTES``), the
scheduler the concurrent runs (``AXONAL_SCHEDULER_DEFAULT_PROJECT_CONCURRENCY``). The identity
service announces every change (``project.quotas.changed``).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.retention import ProjectRef

__all__ = ["ProjectQuotas", "QuotaLimits", "SetQuotasRequest", "StorageUsage"]


class QuotaLimits(Payload):
    """A project's limits; ``None``: the platform's default for that limit."""

    concurrent_runs: int | None = Field(
        default=None, ge=0, le=1_000_000, description="Runs of the project active at once."
    )
    spans_per_second: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Trace spans and observations ingested per second (bursts of one second).",
    )
    points_per_second: int | None = Field(
        default=None,
        ge=1,
        le=100_000_000,
        description="Metric points ingested per second (bursts of one second).",
    )
    storage_bytes: int | None = Field(
        default=None, ge=0, le=2**62, description="Bytes of artifacts the project may store."
    )


class SetQuotasRequest(ProjectRef):
    quotas: QuotaLimits


class ProjectQuotas(Payload):
    project_id: str
    owner: str
    name: str
    quotas: QuotaLimits
    updated_at: datetime | None = None


class StorageUsage(Payload):
    """Bytes of artifacts a project stores (each distinct content once)."""

    project: str = Field(description="``owner/name``.")
    bytes: int = Field(ge=0)
