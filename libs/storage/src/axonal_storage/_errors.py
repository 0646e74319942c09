"""Errors raised by artifact stores.

* StorageError
  + ArtifactNotFoundError   no object under the key (also a ``LookupError``)
  + InvalidKeyError         the key or prefix is not allowed (also a ``ValueError``)
  + InvalidStoreURLError    ``open_store`` cannot parse the URL (also a ``ValueError``)
  + StorageBackendError     the disk or the S3 service failed; the cause is chained
"""

from __future__ import annotations

__all__ = (
    "ArtifactNotFoundError",
    "InvalidKeyError",
    "InvalidStoreURLError",
    "StorageBackendError",
    "StorageError",
)


class StorageError(Exception):
    """Base class of every artifact store error."""


class ArtifactNotFoundError(StorageError, LookupError):
    """No object exists under ``key``."""

    def __init__(self, key: str) -> None:
        super().__init__(f"artifact not found: {key!r}")
        self.key = key


class InvalidKeyError(StorageError, ValueError):
    """``key`` is not a valid artifact key; ``reason`` says why."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(f"invalid artifact key {key!r}: {reason}")
        self.key = key
        self.reason = reason


class InvalidStoreURLError(StorageError, ValueError):
    """``url`` does not name a supported artifact store."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"invalid store URL {url!r}: {reason}")
        self.url = url
        self.reason = reason


class StorageBackendError(StorageError):
    """The backend (filesystem or S3) failed; the original error is ``__cause__``."""
