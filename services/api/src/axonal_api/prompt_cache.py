"""Prompt reads kept in the api for a few seconds: applications fetch prompts on their request
path, and most fetches ask again for what was just read.

A write of a project's prompts drops every read of that project kept here: at once when the
write goes through this api, and on the registry's ``prompt.*`` events for a write through
another (a composed prompt changes with the prompts it embeds, so a project is dropped whole).
A read that started before a drop is not kept; entries expire after :data:`TTL` seconds
whatever happens, in case an event is missed while NATS reconnects.
"""

from __future__ import annotations

import json
import time

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from axonal_events import Subjects

__all__ = ["SIZE", "TTL", "PromptCache"]

TTL = 10.0
SIZE = 10_000


class PromptCache:
    """Answers by project and request key, each with its expiry."""

    def __init__(self, ttl: float = TTL, size: int = SIZE) -> None:
        self.ttl = ttl
        self.size = size
        self._projects: dict[str, dict[str, tuple[float, bytes]]] = {}
        self._epochs: dict[str, int] = {}
        self._count = 0

    def epoch(self, project_id: str) -> int:
        """Changes on every drop of the project: take it before reading, give it to put."""
        return self._epochs.get(project_id, 0)

    def get(self, project_id: str, key: str) -> bytes | None:
        hit = self._projects.get(project_id, {}).get(key)
        return hit[1] if hit is not None and hit[0] > time.monotonic() else None

    def put(self, project_id: str, key: str, body: bytes, epoch: int) -> None:
        """Keep ``body`` unless the project was dropped since ``epoch`` was taken."""
        if epoch != self.epoch(project_id):
            return
        if self._count >= self.size:
            self._projects.clear()
            self._count = 0
        kept = self._projects.setdefault(project_id, {})
        self._count += key not in kept
        kept[key] = (time.monotonic() + self.ttl, body)

    def drop(self, project_id: str) -> None:
        self._epochs[project_id] = self.epoch(project_id) + 1
        self._count -= len(self._projects.pop(project_id, {}))

    async def on_event(self, msg: Msg) -> None:
        """A ``prompt.*`` event: drop its project (an unreadable one drops everything)."""
        try:
            project_id = json.loads(msg.data)["data"]["project_id"]
        except (ValueError, KeyError, TypeError):
            for known in list(self._projects):
                self.drop(known)
            return
        self.drop(str(project_id))

    async def watch(self, nc: Client, subjects: Subjects) -> Subscription:
        """Drop on every prompt event published on ``nc``."""
        return await nc.subscribe(subjects.events("prompt"), cb=self.on_event)
