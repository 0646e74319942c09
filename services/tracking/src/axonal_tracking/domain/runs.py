"""The runs the service has heard of (from ``run.created``): metric points of other runs wait.

A run never moves to another project and keeps the tags it was created with, so once found it
can be remembered: :class:`KnownRuns` keeps up to ``limit`` of them and then starts afresh.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["KnownRun", "KnownRuns"]


@dataclass(frozen=True, slots=True)
class KnownRun:
    """A run heard of: its project and the tags it was created with."""

    uuid: str
    project: str
    tags: list[str]


class KnownRuns:
    """Runs already found, by uuid: at most ``limit``, forgotten all at once beyond."""

    def __init__(self, limit: int = 100_000) -> None:
        self.limit = limit
        self._runs: dict[str, KnownRun] = {}

    def __len__(self) -> int:
        return len(self._runs)

    def get(self, uuid: str) -> KnownRun | None:
        return self._runs.get(uuid)

    def remember(self, run: KnownRun) -> None:
        if len(self._runs) >= self.limit:
            self._runs.clear()
        self._runs[run.uuid] = run
