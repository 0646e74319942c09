"""HTTP request and response bodies of the platform api (bus payloads are reused where they fit)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "CreateRun",
    "CreateTrackedRun",
    "EndRunIn",
    "ErrorBody",
    "ProblemOut",
    "RunPatch",
]

Tag = Annotated[str, Field(min_length=1, max_length=100)]


class CreateRun(BaseModel):
    """A polyaxonfile (``content``) or several merged in order (``files``), presets, params."""

    model_config = ConfigDict(extra="forbid")

    content: str | None = Field(default=None, description="One polyaxonfile (YAML or JSON text).")
    files: list[str] = Field(default_factory=list, description="Polyaxonfiles, merged in order.")
    presets: list[str] = Field(default_factory=list, description="Preset texts, applied after.")
    params: dict[str, Any] = Field(default_factory=dict, description="Input values (-P).")
    queue: str | None = Field(default=None, description="Queue to run on (overrides the file).")
    name: str | None = Field(default=None, max_length=256)

    @model_validator(mode="after")
    def _some_file(self) -> CreateRun:
        if self.content is None and not self.files:
            raise ValueError("give the polyaxonfile as `content` or `files`")
        return self

    def texts(self) -> list[str]:
        return ([self.content] if self.content is not None else []) + self.files


class CreateTrackedRun(BaseModel):
    """A run tracked from the SDK; ``uuid`` lets the caller create it idempotently."""

    model_config = ConfigDict(extra="forbid")

    uuid: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]{32}$")
    name: str | None = Field(default=None, max_length=256)
    description: str | None = Field(default=None, max_length=10_000)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    inputs: dict[str, Any] = Field(default_factory=dict)


class RunPatch(BaseModel):
    """Merged into the run: inputs and outputs by name, tags added, progress replaced."""

    model_config = ConfigDict(extra="forbid")

    inputs: dict[str, Any] = Field(default_factory=dict)
    outputs: dict[str, Any] = Field(default_factory=dict)
    tags: list[Tag] = Field(default_factory=list, max_length=100)
    progress: float | None = Field(default=None, ge=0.0, le=1.0)


class EndRunIn(BaseModel):
    """The final status of a run tracked from the SDK."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["succeeded", "failed", "stopped"] = "succeeded"
    message: str | None = Field(default=None, max_length=10_000)


class ProblemOut(BaseModel):
    location: str
    message: str
    hint: str | None = None


class ErrorBody(BaseModel):
    code: str
    message: str
    details: list[dict[str, Any]] | None = None
