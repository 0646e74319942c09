"""One error hierarchy for everything that crosses the bus.

* AxonalError
  + Retryable            try again later: nak with a growing delay, dead-letter after the limit
    - Unavailable        a dependency is down (RPC code ``unavailable``)
  + Permanent            retrying cannot help: dead-letter at once (RPC code ``invalid``)
    - Rejected           refused with an :class:`~axonal_events.ErrorCode` the caller acts on
      - Invalid          ``invalid``: the request cannot be served as it is
      - NotFound         ``not_found``
      - Conflict         ``conflict``
      - Forbidden        ``forbidden``
  + RpcError             a request/reply call failed
    - RpcTimeoutError    nobody answered in time
    - NoRespondersError  no service listens on the subject
    - RemoteError        the service answered with an error reply (its ``code``)

Handlers raise the subclass that says why; the RPC layer sends its code, and the api maps
codes to HTTP statuses. Nobody reads the message text to decide anything.
"""

from __future__ import annotations

from typing import ClassVar

from axonal_events import ErrorCode

__all__ = [
    "AxonalError",
    "Conflict",
    "Forbidden",
    "Invalid",
    "NoRespondersError",
    "NotFound",
    "Permanent",
    "Rejected",
    "RemoteError",
    "Retryable",
    "RpcError",
    "RpcTimeoutError",
    "Unavailable",
]


class AxonalError(Exception):
    """Base of every error raised on purpose by Axonal code."""


class Retryable(AxonalError):
    """A transient failure (a dependency is down, a lock is held): deliver again later."""


class Unavailable(Retryable):
    """A dependency the work needs is down."""


class Permanent(AxonalError):
    """The message can never be processed as it is: send it to the dead-letter stream."""


class Rejected(Permanent):
    """Refused for a reason the caller can act on; ``code`` says which."""

    code: ClassVar[ErrorCode] = ErrorCode.INVALID


class Invalid(Rejected):
    code = ErrorCode.INVALID


class NotFound(Rejected):
    code = ErrorCode.NOT_FOUND


class Conflict(Rejected):
    code = ErrorCode.CONFLICT


class Forbidden(Rejected):
    code = ErrorCode.FORBIDDEN


class RpcError(AxonalError):
    """A request/reply call did not produce a result."""


class RpcTimeoutError(RpcError):
    pass


class NoRespondersError(RpcError):
    pass


class RemoteError(RpcError):
    """The remote side answered with an error reply."""

    def __init__(self, subject: str, code: ErrorCode, message: str) -> None:
        super().__init__(f"{subject} answered {code}: {message}")
        self.subject = subject
        self.code = code
        self.remote_message = message
