"""Component hub events (the registry owns the hub)."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["HubComponentPushed"]


class HubComponentPushed(EventData):
    """A component version was pushed to the hub (a new tag, or a tag overwritten with --force)."""

    type_name = "hub.component.pushed"

    owner: str = Field(min_length=1)
    name: str = Field(min_length=1)
    tag: str = Field(min_length=1)
    digest: str = Field(min_length=1, description="sha256 of the pushed content.")
    replaced: str | None = Field(default=None, description="Digest the push overwrote, if any.")

    def subject_id(self) -> str | None:
        return f"{self.owner}/{self.name}:{self.tag}"
