"""Prompt events (the registry owns prompts)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from axonal_events.base import EventData, Payload

__all__ = ["LabelMove", "PromptLabelsChanged", "PromptType", "PromptVersionCreated"]

PromptType = Literal["text", "chat"]


class LabelMove(Payload):
    """A label put on a version, taken from another, or removed."""

    label: str
    from_version: int | None = Field(description="The version that had it; none if new.")
    to_version: int | None = Field(description="The version that has it now; none if gone.")


class PromptVersionCreated(EventData):
    """A prompt version was created (the first one creates the prompt)."""

    type_name = "prompt.version.created"

    project_id: str = Field(min_length=1)
    prompt_id: str = Field(min_length=1, description="The version's id.")
    name: str = Field(min_length=1)
    version: int = Field(ge=1)
    type: PromptType
    labels: list[str] = Field(description="The version's labels, ``latest`` included.")
    commit_message: str | None = None

    def subject_id(self) -> str | None:
        return self.name


class PromptLabelsChanged(EventData):
    """Labels of a prompt moved between its versions (a create, a label update, a delete)."""

    type_name = "prompt.labels.changed"

    project_id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    moves: list[LabelMove] = Field(min_length=1)

    def subject_id(self) -> str | None:
        return self.name
