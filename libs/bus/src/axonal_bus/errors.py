"""One error hierarchy for everything that crosses the bus.

* AxonalError
  + Retryable            try again later: nak with a growing delay, dead-letter after the limit
  + Permanent            retrying cannot help: dead-letter at once
  + RpcError             a request/reply call failed
    - RpcTimeoutError    nobody answered in time
    - NoRespondersError  no service listens on the subject
    - RemoteError        the service answered with an error reply
"""

from __future__ import annotations

__all__ = [
    "AxonalError",
    "NoRespondersError",
    "Permanent",
    "RemoteError",
    "Retryable",
    "RpcError",
    "RpcTimeoutError",
]


class AxonalError(Exception):
    """Base of every error raised on purpose by Axonal code."""


class Retryable(AxonalError):
    """A transient failure (a dependency is down, a lock is held): deliver again later."""


class Permanent(AxonalError):
    """The message can never be processed as it is: send it to the dead-letter stream."""


class RpcError(AxonalError):
    """A request/reply call did not produce a result."""


class RpcTimeoutError(RpcError):
    pass


class NoRespondersError(RpcError):
    pass


class RemoteError(RpcError):
    """The remote side answered with an error reply."""

    def __init__(self, subject: str, code: str, message: str) -> None:
        super().__init__(f"{subject} answered {code}: {message}")
        self.subject = subject
        self.code = code
        self.remote_message = message
