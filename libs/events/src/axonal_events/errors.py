"""Why a message could not be turned into a known event.

* EventDecodeError        the message can never be processed: dead-letter it
  - NotJSONError          the body is not a JSON object
  - EnvelopeError         not a CloudEvents 1.0 envelope
  - UnknownEventTypeError no model for this type
  - UnknownVersionError   the type is known, this schema version is not
  - DataValidationError   ``data`` does not match the model
"""

from __future__ import annotations

__all__ = [
    "DataValidationError",
    "EnvelopeError",
    "EventDecodeError",
    "NotJSONError",
    "UnknownEventTypeError",
    "UnknownVersionError",
]


class EventDecodeError(ValueError):
    """The message is malformed; retrying will not help."""


class NotJSONError(EventDecodeError):
    pass


class EnvelopeError(EventDecodeError):
    pass


class UnknownEventTypeError(EventDecodeError):
    pass


class UnknownVersionError(EventDecodeError):
    pass


class DataValidationError(EventDecodeError):
    pass
