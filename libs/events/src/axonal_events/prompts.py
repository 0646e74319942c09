"""Prompts: named, versioned text or chat templates with labels (the registry owns them).

Langfuse's prompt management model: each create makes the next version of a name; a label
(``production``, ``staging``...) points at one version of a name at a time; ``latest`` is kept
on the newest version by the registry. A text prompt may embed another text prompt with
``@@@langfusePrompt:name=NAME|version=N@@@`` or ``...|label=L@@@``, resolved on read.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, model_validator

from axonal_events.base import Payload
from axonal_events.catalog.prompts import LabelMove, PromptType
from axonal_events.trace_reads import PageMeta

__all__ = [
    "LATEST",
    "PRODUCTION",
    "ChatMessage",
    "CreatePrompt",
    "DeletePrompt",
    "DeletedPrompt",
    "GenerationScore",
    "GetPrompt",
    "GetPromptVersions",
    "LabelMove",
    "ListPrompts",
    "PlaceholderMessage",
    "PromptGeneration",
    "PromptGenerationPage",
    "PromptGenerations",
    "PromptMeta",
    "PromptMetaPage",
    "PromptType",
    "PromptVersion",
    "PromptVersionList",
    "PromptVersionUsage",
    "ProtectedLabels",
    "ProtectedLabelsOf",
    "SetPromptLabels",
]

LATEST = "latest"
PRODUCTION = "production"

_LABEL = re.compile(r"^[a-z0-9_\-.]+$")


def _labels(labels: list[str]) -> list[str]:
    for label in labels:
        if not _LABEL.match(label):
            raise ValueError(f"label {label!r} must be lowercase letters, digits, '_', '-' or '.'")
    return list(dict.fromkeys(labels))


def _name(name: str) -> str:
    if "|" in name:
        raise ValueError("a prompt name cannot contain '|'")
    if name != name.strip() or name.startswith("/") or name.endswith("/") or "//" in name:
        raise ValueError("a prompt name has no surrounding spaces, no empty folder")
    return name


Label = Annotated[str, Field(min_length=1, max_length=36)]
Labels = Annotated[list[Label], AfterValidator(_labels)]
PromptName = Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_name)]


class ChatMessage(Payload):
    role: str = Field(min_length=1)
    content: str
    type: Literal["chatmessage"] | None = None


class PlaceholderMessage(Payload):
    """A placeholder for a list of messages given at compile time."""

    type: Literal["placeholder"]
    name: str = Field(min_length=1)


class CreatePrompt(Payload):
    """The next version of prompt ``name`` (its first when the name is new)."""

    project_id: str = Field(min_length=1)
    project: str | None = Field(default=None, description="owner/name, for the events.")
    name: PromptName
    type: PromptType = "text"
    prompt: str | list[ChatMessage | PlaceholderMessage]
    config: dict[str, Any] = Field(default_factory=dict)
    labels: Labels = Field(default_factory=list)
    tags: list[str] | None = Field(default=None, description="None keeps the previous tags.")
    commit_message: str | None = Field(default=None, max_length=500)
    created_by: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> CreatePrompt:
        if self.type == "text" and not isinstance(self.prompt, str):
            raise ValueError("prompt: a text prompt is a string")
        if self.type == "chat" and isinstance(self.prompt, str):
            raise ValueError("prompt: a chat prompt is a list of messages")
        if LATEST in self.labels:
            raise ValueError("labels: 'latest' is always on the newest version")
        return self


class PromptVersion(Payload):
    """One version of a prompt, as stored (or with its references resolved)."""

    id: str
    project_id: str
    name: str
    version: int
    type: PromptType
    prompt: Any = Field(description="A string, or a list of chat messages and placeholders.")
    config: dict[str, Any] = Field(default_factory=dict)
    labels: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    commit_message: str | None = None
    created_by: str | None = None
    created_at: datetime
    updated_at: datetime
    resolution_graph: dict[str, Any] | None = Field(
        default=None, description="The prompts it embeds, when resolved and it embeds any."
    )


class GetPrompt(Payload):
    """One version by ``version``, else by ``label`` (``production`` when neither)."""

    project_id: str
    name: str = Field(min_length=1)
    version: int | None = Field(default=None, ge=1)
    label: str | None = None
    resolve: bool = Field(default=True, description="Replace embedded prompt references.")

    @model_validator(mode="after")
    def _one(self) -> GetPrompt:
        if self.version is not None and self.label is not None:
            raise ValueError("give version or label, not both")
        return self


class GetPromptVersions(Payload):
    project_id: str
    name: str = Field(min_length=1)


class PromptVersionList(Payload):
    versions: list[PromptVersion] = Field(description="Newest first, unresolved.")


class ListPrompts(Payload):
    project_id: str
    name: str | None = None
    label: str | None = None
    tag: str | None = None
    version: int | None = None
    from_updated_at: datetime | None = None
    to_updated_at: datetime | None = None
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=10, ge=1, le=100)


class PromptMeta(Payload):
    """A prompt name with its versions and labels (among the versions the filters keep)."""

    name: str
    type: PromptType
    versions: list[int]
    labels: list[str]
    tags: list[str]
    last_updated_at: datetime
    last_config: dict[str, Any] = Field(default_factory=dict)


class PromptMetaPage(Payload):
    data: list[PromptMeta]
    meta: PageMeta


class SetPromptLabels(Payload):
    """Add ``new_labels`` to a version, taking them from the versions that had them."""

    project_id: str
    project: str | None = None
    name: str = Field(min_length=1)
    version: int = Field(ge=1)
    new_labels: Labels

    @model_validator(mode="after")
    def _not_latest(self) -> SetPromptLabels:
        if LATEST in self.new_labels:
            raise ValueError("new_labels: 'latest' is always on the newest version")
        return self


class DeletePrompt(Payload):
    """Every version of a prompt, or the one with ``version`` or ``label``."""

    project_id: str
    project: str | None = None
    name: str = Field(min_length=1)
    version: int | None = Field(default=None, ge=1)
    label: str | None = None

    @model_validator(mode="after")
    def _one(self) -> DeletePrompt:
        if self.version is not None and self.label is not None:
            raise ValueError("give version or label, not both")
        return self


class DeletedPrompt(Payload):
    name: str
    versions: list[int]


class ProtectedLabelsOf(Payload):
    project_id: str


class ProtectedLabels(Payload):
    """Labels only project admins may set or remove (enforced with governance)."""

    project_id: str
    labels: Labels


class PromptGenerations(Payload):
    """The generations that linked a prompt (``promptName``/``promptVersion``), newest first."""

    project_id: str
    name: str = Field(min_length=1)
    version: int | None = Field(default=None, ge=1, description="One version; all if none.")
    page: int = Field(default=1, ge=1)
    limit: int = Field(default=50, ge=1, le=200)


class GenerationScore(Payload):
    name: str
    value: float | None = None
    string_value: str | None = None


class PromptGeneration(Payload):
    """A generation that used the prompt, with its latency, cost and scores."""

    id: str
    trace_id: str
    name: str | None = None
    prompt_version: int
    model: str | None = None
    start_time: datetime
    latency: float | None = Field(default=None, description="Seconds; none while open.")
    total_cost: float = 0.0
    scores: list[GenerationScore] = Field(
        default_factory=list, description="On the generation, or on its trace as a whole."
    )


class PromptVersionUsage(Payload):
    """What a version's generations measured."""

    version: int
    generations: int
    latency_p50: float | None = Field(default=None, description="Seconds.")
    latency_p99: float | None = Field(default=None, description="Seconds.")
    total_cost: float = 0.0
    scores: dict[str, float] = Field(
        default_factory=dict, description="The mean of each numeric or boolean score."
    )


class PromptGenerationPage(Payload):
    data: list[PromptGeneration]
    meta: PageMeta
    versions: list[PromptVersionUsage] = Field(description="Each version's figures, newest first.")
