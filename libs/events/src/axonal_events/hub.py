"""RPC payloads of the component hub (the registry service owns it)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from axonal_events.base import Payload

__all__ = [
    "ComponentList",
    "HubComponent",
    "HubComponentInfo",
    "ListComponents",
    "PushComponent",
    "ResolveComponent",
]

_PART = r"^[A-Za-z0-9][-A-Za-z0-9_.]{0,63}$"


class PushComponent(Payload):
    """Publish ``owner/name:tag`` with the polyaxonfile ``content`` (YAML or JSON text)."""

    owner: str = Field(pattern=_PART, description="Organisation that owns the component.")
    name: str = Field(pattern=_PART, description="Component name, unique per owner.")
    tag: str = Field(pattern=_PART, description="Version tag; `latest` follows the newest push.")
    content: str = Field(min_length=1, max_length=262_144, description="The polyaxonfile.")
    force: bool = Field(default=False, description="Overwrite a tag that has other content.")


class HubComponentInfo(Payload):
    """One version of a component, without its content."""

    owner: str
    name: str
    tag: str
    builtin: bool = Field(description="Shipped with the platform: read-only.")
    digest: str = Field(description="sha256 of the content.")
    description: str | None = None
    inputs: list[str] = Field(default_factory=list, description="Names of the inputs.")
    outputs: list[str] = Field(default_factory=list, description="Names of the outputs.")
    latest: bool = Field(default=False, description="The newest push of the component.")
    pushed_at: datetime


class HubComponent(HubComponentInfo):
    """One version of a component with its polyaxonfile."""

    content: str
    created: bool = Field(default=False, description="This push stored new content.")


class ListComponents(Payload):
    owner: str | None = Field(default=None, description="Only this owner's components.")
    name: str | None = Field(default=None, description="Only the versions of this component.")


class ComponentList(Payload):
    components: list[HubComponentInfo]


class ResolveComponent(Payload):
    """What a ``hubRef`` names: ``[owner/]name[:tag]``."""

    ref: str = Field(min_length=1, max_length=200)
