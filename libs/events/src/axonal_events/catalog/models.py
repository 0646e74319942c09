"""Model registry and artifact version events (the registry owns models, tracking owns
artifact records)."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData

__all__ = [
    "ArtifactVersionCreated",
    "ModelVersionArchived",
    "ModelVersionCreated",
    "ModelVersionEvaluated",
    "ModelVersionPromoted",
]

_PROJECT = r"^[^/\s]+/[^/\s]+$"
_SHA256 = r"^[0-9a-f]{64}$"
_RUN_UUID = r"^[0-9a-f]{32}$"


class ArtifactVersionCreated(EventData):
    """A run logged bytes of an artifact not seen before under that name: a new version.

    The version is the bytes' sha256: the same bytes uploaded again add no version, changed
    bytes add one, and every earlier version stays readable.
    """

    type_name = "artifact.version.created"

    project: str = Field(pattern=_PROJECT)
    run_uuid: str = Field(pattern=_RUN_UUID)
    name: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    step: int | None = None
    sha256: str = Field(pattern=_SHA256)
    size: int = Field(ge=0)
    path: str = Field(min_length=1, description="The artifact store key of the latest upload.")
    is_input: bool = Field(description="Read by the run (a dataset version), not written.")

    def subject_id(self) -> str | None:
        return f"{self.name}@{self.sha256}"


class ModelVersionCreated(EventData):
    """A registered model has a new version, made from a run's logged model artifact."""

    type_name = "model.version.created"

    project: str = Field(pattern=_PROJECT)
    model: str = Field(min_length=1)
    version: int = Field(ge=1)
    run_uuid: str = Field(pattern=_RUN_UUID)
    artifact: str = Field(min_length=1, description="The run's artifact name.")
    sha256: str = Field(pattern=_SHA256)

    def subject_id(self) -> str | None:
        return f"{self.model}/{self.version}"


class ModelVersionPromoted(EventData):
    """An alias (``staging``, ``production``, a custom one) moved to a model version."""

    type_name = "model.version.promoted"

    project: str = Field(pattern=_PROJECT)
    model: str = Field(min_length=1)
    version: int = Field(ge=1)
    alias: str = Field(min_length=1)
    previous_version: int | None = Field(default=None, description="The alias's last holder.")
    run_uuid: str = Field(pattern=_RUN_UUID)
    sha256: str = Field(pattern=_SHA256)
    approved_by: str | None = Field(default=None, description="Who approved a protected move.")

    def subject_id(self) -> str | None:
        return f"{self.model}/{self.version}"


class ModelVersionArchived(EventData):
    """A model version was archived (demoted): it lost every alias it held."""

    type_name = "model.version.archived"

    project: str = Field(pattern=_PROJECT)
    model: str = Field(min_length=1)
    version: int = Field(ge=1)
    aliases: list[str] = Field(description="The aliases it held until then.")

    def subject_id(self) -> str | None:
        return f"{self.model}/{self.version}"


class ModelVersionEvaluated(EventData):
    """An evaluation run recorded scores on a model version (on a dataset version)."""

    type_name = "model.version.evaluated"

    project: str = Field(pattern=_PROJECT)
    model: str = Field(min_length=1)
    version: int = Field(ge=1)
    run_uuid: str = Field(pattern=_RUN_UUID)
    dataset: str | None = Field(default=None, description="The dataset version: name@sha256.")
    scores: dict[str, float]

    def subject_id(self) -> str | None:
        return f"{self.model}/{self.version}"
