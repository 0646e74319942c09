"""UUIDv7 identifiers (RFC 9562): time-ordered, unique across processes; and the derived id
of a prompt version."""

from __future__ import annotations

import os
import threading
import time
import uuid

__all__ = ["prompt_version_id", "uuid7"]

_PROMPTS = uuid.UUID("6d1f3b1e-5a0c-4c8e-9a57-2f5b0e7c9d41")
_lock = threading.Lock()
_last_ms = 0
_counter = 0


def uuid7() -> uuid.UUID:
    """A UUIDv7 whose first 48 bits are the Unix time in milliseconds.

    Within one millisecond a 12-bit counter seeded at random keeps ids of this process
    strictly increasing (RFC 9562 §6.2, method 1); the remaining 62 bits are random.
    """
    global _last_ms, _counter  # noqa: PLW0603 - process-wide monotonic state
    with _lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms > _last_ms:
            _last_ms = now_ms
            _counter = int.from_bytes(os.urandom(2)) & 0x7FF
        else:
            _counter += 1
            if _counter > 0xFFF:
                _last_ms += 1
                _counter = 0
        ms, counter = _last_ms, _counter
    rand = int.from_bytes(os.urandom(8)) & 0x3FFF_FFFF_FFFF_FFFF
    value = (ms << 80) | (0x7 << 76) | (counter << 64) | (0b10 << 62) | rand
    return uuid.UUID(int=value)


def prompt_version_id(project_id: str, name: str, version: int) -> str:
    """The id of a prompt version (Langfuse's ``promptId``): derived from what names it, so a
    generation that links ``promptName``/``promptVersion`` carries it without a lookup."""
    return str(uuid.uuid5(_PROMPTS, f"{project_id}\x00{name}\x00{version}"))
