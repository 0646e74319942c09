"""Project naming rules and the event a new project produces."""

from __future__ import annotations

import re

from axonal_events import ProjectCreated, uuid7
from axonal_events.identity import CreateProjectRequest

__all__ = ["InvalidProjectError", "new_project"]

_SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class InvalidProjectError(ValueError):
    """A project request breaks a naming rule."""


def _slug(value: str, what: str) -> str:
    if not _SLUG.match(value):
        raise InvalidProjectError(
            f"{what} {value!r} must start with a lowercase letter or digit and contain only "
            "lowercase letters, digits, '-' and '_'"
        )
    return value


def new_project(request: CreateProjectRequest) -> ProjectCreated:
    """Validate ``request`` and describe the project it creates."""
    return ProjectCreated(
        project_id=str(uuid7()),
        owner=_slug(request.owner, "owner"),
        name=_slug(request.name, "project name"),
        description=request.description,
    )
