"""Base model of every event, command and RPC payload."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict

__all__ = ["EventData", "Payload"]


class Payload(BaseModel):
    """Strict, immutable wire model: unknown fields are a schema error, not silently kept."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class EventData(Payload):
    """The ``data`` of one event type.

    ``type_name`` is the event type without the ``axonal.`` prefix (``run.succeeded``) and
    ``schema_version`` its version; a breaking change adds a new version next to the old one.
    Models that stand for several types (one per run status) override :meth:`event_type`.
    """

    type_name: ClassVar[str] = ""
    schema_version: ClassVar[int] = 1

    def event_type(self) -> str:
        return self.type_name

    def subject_id(self) -> str | None:
        """The aggregate the event is about (CloudEvents ``subject``), when there is one."""
        return None
