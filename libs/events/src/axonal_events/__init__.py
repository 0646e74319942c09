"""The Axonal event contract: CloudEvents envelope, typed events, subjects and streams.

This package imports nothing but pydantic and the standard library.
"""

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
from axonal_events.subjects import DEFAULT_NAMESPACE, Retention, StreamKind, StreamSpec, Subjects

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
