"""The catalog: which data model (and schema version) stands behind each event type."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from axonal_events.base import EventData
from axonal_events.envelope import AnyEnvelope, CloudEvent, EventEnvelope, parse_dataschema
from axonal_events.errors import (
    DataValidationError,
    EnvelopeError,
    NotJSONError,
    UnknownEventTypeError,
    UnknownVersionError,
)

__all__ = ["Catalog", "EventEntry"]


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(root)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {err['msg']}{more}"


@dataclass(frozen=True, slots=True)
class EventEntry:
    event_type: str
    version: int
    model: type[EventData]
    description: str


class Catalog:
    """Event types registered by the contract modules, and the decoder that uses them."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, int], EventEntry] = {}

    def register(self, model: type[EventData], *event_types: str, description: str = "") -> None:
        """Register ``model`` for ``event_types`` (default: ``model.type_name``)."""
        doc = description or (model.__doc__ or "").strip().splitlines()[0]
        for event_type in event_types or (model.type_name,):
            key = (event_type, model.schema_version)
            if key in self._entries:
                raise ValueError(
                    f"event type {event_type} v{model.schema_version} registered twice"
                )
            self._entries[key] = EventEntry(event_type, model.schema_version, model, doc)

    def __iter__(self) -> Iterator[EventEntry]:
        return iter(sorted(self._entries.values(), key=lambda e: (e.event_type, e.version)))

    def __contains__(self, event_type: object) -> bool:
        return any(key[0] == event_type for key in self._entries)

    def model_for(self, event_type: str, version: int) -> type[EventData]:
        entry = self._entries.get((event_type, version))
        if entry is not None:
            return entry.model
        if event_type in self:
            known = sorted(v for t, v in self._entries if t == event_type)
            raise UnknownVersionError(
                f"{event_type} has no schema version {version} (known: {known})"
            )
        raise UnknownEventTypeError(f"unknown event type {event_type!r}")

    def decode(self, raw: bytes | str) -> CloudEvent[EventData]:
        """Parse a structured CloudEvent and validate its ``data`` against the catalog."""
        try:
            doc: Any = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise NotJSONError(f"body is not JSON: {exc}") from None
        if not isinstance(doc, dict):
            raise NotJSONError(f"body is JSON {type(doc).__name__}, not an object")
        try:
            envelope = AnyEnvelope.model_validate(doc)
            event_type, version = parse_dataschema(envelope.dataschema)
        except ValidationError as exc:
            raise EnvelopeError(f"not a CloudEvents 1.0 envelope: {_first_error(exc)}") from None
        except ValueError as exc:
            raise EnvelopeError(str(exc)) from None
        if event_type != envelope.event_type:
            raise EnvelopeError(f"type {envelope.type} disagrees with {envelope.dataschema}")
        model = self.model_for(event_type, version)
        try:
            data = model.model_validate(envelope.data)
        except ValidationError as exc:
            raise DataValidationError(
                f"{event_type} v{version} data: {_first_error(exc)}"
            ) from None
        if data.event_type() != event_type:
            raise DataValidationError(f"data describes {data.event_type()}, envelope {event_type}")
        return EventEnvelope.model_construct(
            **{**envelope.model_dump(), "data": data}, _fields_set=envelope.model_fields_set
        )
