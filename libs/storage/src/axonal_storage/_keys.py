"""Artifact key rules shared by every backend.

A key is a relative, ``/``-separated path such as ``runs/42/model.pt``. The rules are the
intersection of what S3 and a POSIX filesystem accept, so an artifact can move between
backends unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._errors import InvalidKeyError

__all__ = ("MAX_KEY_BYTES", "MAX_SEGMENT_BYTES", "validate_key", "validate_prefix")

MAX_KEY_BYTES = 1024  # S3 limit on the UTF-8 encoded key
MAX_SEGMENT_BYTES = 255  # NAME_MAX on common filesystems


def validate_key(key: str) -> str:
    """Return ``key`` unchanged if it is valid, else raise `InvalidKeyError` with the reason."""
    reason = _key_problem(key)
    if reason is not None:
        raise InvalidKeyError(key, reason)
    return key


def validate_prefix(prefix: str) -> str:
    """Validate a listing prefix: empty, or a key optionally ending with ``/``."""
    if prefix:
        body = prefix.removesuffix("/")
        reason = _key_problem(body) if body else "a prefix cannot be just '/'"
        if reason is not None:
            raise InvalidKeyError(prefix, reason)
    return prefix


def _key_problem(key: str) -> str | None:
    return next(_key_problems(key), None)


def _key_problems(key: str) -> Iterator[str]:
    """Yield what is wrong with ``key``, most basic problem first."""
    if not key:
        yield "a key cannot be empty"
    if key.startswith("/"):
        yield "a key must be relative (no leading '/')"
    if key.endswith("/"):
        yield "a key cannot end with '/'"
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in key):
        yield "a key cannot contain control characters"
    if len(key.encode()) > MAX_KEY_BYTES:
        yield f"a key cannot exceed {MAX_KEY_BYTES} bytes in UTF-8"
    for segment in key.split("/"):
        if not segment and key:
            yield "a key cannot contain empty segments ('//')"
        if segment in {".", ".."}:
            yield f"a key cannot contain {segment!r} segments"
        if len(segment.encode()) > MAX_SEGMENT_BYTES:
            yield f"a key segment cannot exceed {MAX_SEGMENT_BYTES} bytes in UTF-8"
