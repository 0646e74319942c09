"""The Axonal event contract: CloudEvents envelope, typed events, subjects and streams.

This package imports nothing but pydantic and the standard library.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from axonal_events.base import EventData, Payload
    from axonal_events.catalog import (
        CATALOG,
        DONE_STATUSES,
        NOTIFIERS,
        AgentHeartbeat,
        Catalog,
        Comparison,
        EventEntry,
        HookRequested,
        HubComponentPushed,
        MetricCrossed,
        NotificationDelivered,
        NotificationFailed,
        ProjectCreated,
        RunDone,
        RunStatus,
        RunStatusChanged,
    )
    from axonal_events.envelope import CloudEvent, dataschema_for, new_event, parse_dataschema
    from axonal_events.errors import (
        DataValidationError,
        EnvelopeError,
        EventDecodeError,
        NotJSONError,
        UnknownEventTypeError,
        UnknownVersionError,
    )
    from axonal_events.ids import uuid7
    from axonal_events.rpc import ErrorCode, PingReply, PingRequest, Rpc, RpcError, RpcOk
    from axonal_events.subjects import (
        DEFAULT_NAMESPACE,
        Retention,
        StreamKind,
        StreamSpec,
        Subjects,
    )

# Imported on first use: a client that needs one module (the CLI's answer models) does not
# build every event model of the catalog.
_HOMES = {
    "AgentHeartbeat": "catalog",
    "CATALOG": "catalog",
    "Catalog": "catalog",
    "CloudEvent": "envelope",
    "Comparison": "catalog",
    "DEFAULT_NAMESPACE": "subjects",
    "DONE_STATUSES": "catalog",
    "DataValidationError": "errors",
    "EnvelopeError": "errors",
    "ErrorCode": "rpc",
    "EventData": "base",
    "EventDecodeError": "errors",
    "EventEntry": "catalog",
    "HookRequested": "catalog",
    "HubComponentPushed": "catalog",
    "MetricCrossed": "catalog",
    "NOTIFIERS": "catalog",
    "NotJSONError": "errors",
    "NotificationDelivered": "catalog",
    "NotificationFailed": "catalog",
    "Payload": "base",
    "PingReply": "rpc",
    "PingRequest": "rpc",
    "ProjectCreated": "catalog",
    "Retention": "subjects",
    "Rpc": "rpc",
    "RpcError": "rpc",
    "RpcOk": "rpc",
    "RunDone": "catalog",
    "RunStatus": "catalog",
    "RunStatusChanged": "catalog",
    "StreamKind": "subjects",
    "StreamSpec": "subjects",
    "Subjects": "subjects",
    "UnknownEventTypeError": "errors",
    "UnknownVersionError": "errors",
    "dataschema_for": "envelope",
    "new_event": "envelope",
    "parse_dataschema": "envelope",
    "uuid7": "ids",
}

__all__ = (
    "CATALOG",
    "DEFAULT_NAMESPACE",
    "DONE_STATUSES",
    "NOTIFIERS",
    "AgentHeartbeat",
    "Catalog",
    "CloudEvent",
    "Comparison",
    "DataValidationError",
    "EnvelopeError",
    "ErrorCode",
    "EventData",
    "EventDecodeError",
    "EventEntry",
    "HookRequested",
    "HubComponentPushed",
    "MetricCrossed",
    "NotJSONError",
    "NotificationDelivered",
    "NotificationFailed",
    "Payload",
    "PingReply",
    "PingRequest",
    "ProjectCreated",
    "Retention",
    "Rpc",
    "RpcError",
    "RpcOk",
    "RunDone",
    "RunStatus",
    "RunStatusChanged",
    "StreamKind",
    "StreamSpec",
    "Subjects",
    "UnknownEventTypeError",
    "UnknownVersionError",
    "dataschema_for",
    "new_event",
    "parse_dataschema",
    "uuid7",
)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'axonal_events' has no attribute {name!r}")
    value = getattr(import_module(f"axonal_events.{home}"), name)
    globals()[name] = value  # once: later lookups do not come here
    return value
