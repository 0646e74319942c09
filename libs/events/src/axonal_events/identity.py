"""RPC payloads of the identity service."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from axonal_events.base import Payload

__all__ = ["CreateProjectRequest", "ListProjectsRequest", "Project", "ProjectList"]


class CreateProjectRequest(Payload):
    owner: str = Field(min_length=1, max_length=64, description="Organisation slug.")
    name: str = Field(min_length=1, max_length=64, description="Project slug, unique per owner.")
    description: str | None = Field(default=None, max_length=2000)
    creator: str | None = Field(
        default=None, description="The principal creating it: owner of a new organization."
    )


class Project(Payload):
    id: str
    owner: str
    name: str
    description: str | None = None
    created_at: datetime


class ListProjectsRequest(Payload):
    owner: str | None = None


class ProjectList(Payload):
    projects: list[Project]
