"""Metric points as ingestion and alerting read them, whichever decoder made them (the fast
msgspec structs or the pydantic contract, see :mod:`axonal_tracking.metrics.wire`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

__all__ = ["Batch", "Point"]


class Point(Protocol):
    """One metric point."""

    @property
    def name(self) -> str: ...
    @property
    def step(self) -> int: ...
    @property
    def value(self) -> float: ...
    @property
    def at(self) -> datetime: ...


class Batch(Protocol):
    """The points of one run."""

    @property
    def run_uuid(self) -> str: ...
    @property
    def points(self) -> Sequence[Point]: ...
