"""Retries of a create with the same ``Idempotency-Key`` get the same run (in memory, bounded)."""

from __future__ import annotations

import uuid
from collections import OrderedDict

from axonal_events import uuid7

__all__ = ["IdempotencyKeys"]


class IdempotencyKeys:
    """Key -> (run uuid, command id); the oldest keys are forgotten past ``size``."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._seen: OrderedDict[str, tuple[str, str]] = OrderedDict()

    def ids_for(self, key: str | None) -> tuple[str, str]:
        """The run uuid and command id for ``key`` (fresh ones for no key or a new key)."""
        if key is None:
            return uuid.uuid4().hex, str(uuid7())
        found = self._seen.get(key)
        if found is None:
            found = (uuid.uuid4().hex, str(uuid7()))
            self._seen[key] = found
            while len(self._seen) > self.size:
                self._seen.popitem(last=False)
        else:
            self._seen.move_to_end(key)
        return found
