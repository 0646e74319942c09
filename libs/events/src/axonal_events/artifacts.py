"""Artifacts a run logs, on ``<ns>.ingest.artifacts.<run_uuid>``, and their queries.

The api stores an artifact's bytes in the artifact store, then publishes one
:class:`ArtifactRecord` with ``Nats-Msg-Id`` derived from the run, name, step and sha256, so a
retried upload is recorded once; the tracking service keys records by (run, name, step), so a
re-upload replaces the record instead of adding one.
"""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload

__all__ = [
    "ARTIFACT_NAME_PATTERN",
    "MAX_SUMMARY_BYTES",
    "ArtifactKind",
    "ArtifactList",
    "ArtifactRecord",
    "Lineage",
    "LineageLink",
    "ListArtifactVersions",
    "ListArtifacts",
    "ReadLineage",
    "content_key",
]

#: Names as users write them (``model``, ``eval/roc``, ``weights.pt``), bounded.
ARTIFACT_NAME_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_./:-]{0,199}$"
#: A summary is small JSON (histogram counts, a few curve points), sent in an HTTP header.
MAX_SUMMARY_BYTES = 8192
_RUN_UUID = r"^[0-9a-f]{32}$"


def content_key(project: str, sha256: str) -> str:
    """Where the bytes with digest ``sha256`` of ``project`` (``owner/name``) are stored once:
    the api writes them there, the tracking service deletes them once no artifact names them."""
    return f"{project}/.sha256/{sha256}"


class ArtifactKind(StrEnum):
    FILE = "file"
    DIR = "dir"
    MODEL = "model"
    TEXT = "text"
    IMAGE = "image"
    DATAFRAME = "dataframe"
    HISTOGRAM = "histogram"
    CURVE = "curve"
    CONFUSION = "confusion"
    DATASET = "dataset"


class ArtifactRecord(Payload):
    """One stored artifact of a run: where its bytes are and what they are."""

    run_uuid: str = Field(pattern=_RUN_UUID)
    project: str = Field(pattern=r"^[^/\s]+/[^/\s]+$", description="owner/name of the run.")
    name: str = Field(pattern=ARTIFACT_NAME_PATTERN)
    kind: ArtifactKind
    path: str = Field(min_length=1, max_length=1024, description="The artifact store key.")
    size: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    is_input: bool = Field(default=False, description="Consumed by the run, not produced.")
    step: int | None = Field(default=None, ge=0, le=2**62)
    summary: dict[str, Any] = Field(default_factory=dict, description="Small JSON, by kind.")
    created_at: datetime

    @field_validator("summary")
    @classmethod
    def _small(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(json.dumps(value, separators=(",", ":"))) > MAX_SUMMARY_BYTES:
            raise ValueError(f"the summary must be at most {MAX_SUMMARY_BYTES} bytes of JSON")
        return value


class ListArtifacts(Payload):
    run_uuid: str = Field(pattern=_RUN_UUID)


class ListArtifactVersions(Payload):
    """Every version of one artifact of a run (by name, or by store key), newest first."""

    run_uuid: str = Field(pattern=_RUN_UUID)
    name: str | None = Field(default=None, pattern=ARTIFACT_NAME_PATTERN)
    path: str | None = Field(default=None, min_length=1, max_length=1024)

    @model_validator(mode="after")
    def _one(self) -> ListArtifactVersions:
        if (self.name is None) == (self.path is None):
            raise ValueError("give exactly one of name and path")
        return self


class ArtifactList(Payload):
    artifacts: list[ArtifactRecord]


class ReadLineage(Payload):
    run_uuid: str = Field(pattern=_RUN_UUID)


class LineageLink(Payload):
    """An artifact of the run and the other runs of its project with the same bytes or key."""

    artifact: ArtifactRecord
    produced_by: list[str] = Field(description="Runs that logged it as an output.")
    consumed_by: list[str] = Field(description="Runs that logged it as an input.")


class Lineage(Payload):
    run_uuid: str
    inputs: list[LineageLink]
    outputs: list[LineageLink]
