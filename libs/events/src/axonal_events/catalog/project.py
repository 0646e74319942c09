"""Project events (identity owns projects)."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["ProjectCreated"]


class ProjectCreated(EventData):
    """A project was created."""

    type_name = "project.created"

    project_id: str = Field(min_length=1)
    owner: str = Field(min_length=1, description="Organisation that owns the project.")
    name: str = Field(min_length=1)
    description: str | None = None

    def subject_id(self) -> str | None:
        return self.project_id
