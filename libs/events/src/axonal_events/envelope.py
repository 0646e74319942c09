"""The CloudEvents 1.0 envelope (structured JSON mode) that carries every event."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from axonal_events.base import EventData
from axonal_events.ids import uuid7

__all__ = [
    "TYPE_PREFIX",
    "AnyEnvelope",
    "CloudEvent",
    "EventEnvelope",
    "dataschema_for",
    "new_event",
    "parse_dataschema",
]

TYPE_PREFIX = "axonal."
D = TypeVar("D")
_DATASCHEMA = re.compile(r"^urn:axonal:event:(?P<type>[a-z0-9_.-]+):v(?P<version>[0-9]+)$")


def dataschema_for(event_type: str, version: int) -> str:
    """``urn:axonal:event:run.succeeded:v1``: names the data model and its version."""
    return f"urn:axonal:event:{event_type}:v{version}"


def parse_dataschema(value: str) -> tuple[str, int]:
    """Inverse of :func:`dataschema_for`; raises ``ValueError`` on anything else."""
    match = _DATASCHEMA.match(value)
    if match is None:
        raise ValueError(f"dataschema {value!r} is not urn:axonal:event:<type>:v<version>")
    return match["type"], int(match["version"])


#: The attributes a CloudEvent leaves out when unset.
_OPTIONAL = ("subject", "project", "correlationid", "traceparent")


class CloudEvent(BaseModel, Generic[D]):
    """A CloudEvents 1.0 event; ``data`` is a typed model once decoded.

    Extensions: ``project`` (project the event belongs to), ``correlationid`` (the chain of
    work it is part of) and ``traceparent`` (W3C trace context).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    specversion: Literal["1.0"] = "1.0"
    id: str = Field(default_factory=lambda: str(uuid7()), min_length=1)
    source: str = Field(min_length=1)
    type: str = Field(min_length=1)
    subject: str | None = None
    time: datetime = Field(default_factory=lambda: datetime.now(UTC))
    datacontenttype: Literal["application/json"] = "application/json"
    dataschema: str
    data: D
    project: str | None = None
    correlationid: str | None = None
    traceparent: str | None = None

    @field_validator("time")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("time must carry a timezone")
        return value

    @property
    def event_type(self) -> str:
        """The type without the ``axonal.`` prefix, as the catalog names it."""
        return self.type.removeprefix(TYPE_PREFIX)

    @property
    def schema_version(self) -> int:
        return parse_dataschema(self.dataschema)[1]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; unset optional attributes are left out, as CloudEvents asks."""
        doc = self.model_dump(mode="json", serialize_as_any=True)
        return {key: value for key, value in doc.items() if value is not None}

    def to_json(self) -> bytes:
        """:meth:`to_dict` as compact JSON, serialized in one pass."""
        unset = {key for key in _OPTIONAL if getattr(self, key) is None}
        return self.__pydantic_serializer__.to_json(self, exclude=unset, serialize_as_any=True)


#: The parametrised envelopes, built once: pydantic keeps parametrisations only as long as
#: something holds them, and rebuilding one (its schema included) costs milliseconds.
AnyEnvelope = CloudEvent[dict[str, Any]]
EventEnvelope = CloudEvent[EventData]


def new_event(
    data: EventData,
    *,
    source: str,
    project: str | None = None,
    correlation_id: str | None = None,
    traceparent: str | None = None,
    event_id: str | None = None,
    **extra: Any,
) -> CloudEvent[EventData]:
    """Wrap ``data`` in an envelope with a fresh UUIDv7 id (or ``event_id``)."""
    event_type = data.event_type()
    event_id = event_id or str(uuid7())
    return EventEnvelope(
        id=event_id,
        source=source,
        type=TYPE_PREFIX + event_type,
        subject=data.subject_id(),
        dataschema=dataschema_for(event_type, data.schema_version),
        data=data,
        project=project,
        correlationid=correlation_id or event_id,
        traceparent=traceparent,
        **extra,
    )
