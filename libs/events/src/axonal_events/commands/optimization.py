"""Commands of adaptive searches: the scheduler hands a sweep to the optimization service,
which answers with its trials (``scheduler.add_trials``)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from axonal_events.base import EventData, Payload

__all__ = ["AddTrials", "OptimizeSweep", "Trial"]


class OptimizeSweep(EventData):
    """Run the adaptive search of sweep ``sweep_uuid``: ``search_space`` is its compiled
    matrix (``compiled.matrix.search_space``, the file's spelling)."""

    type_name: ClassVar[str] = "optimization.start"

    sweep_uuid: str = Field(min_length=32, max_length=36)
    owner: str = Field(min_length=1)
    project: str = Field(min_length=1)
    name: str | None = None
    search_space: dict[str, Any]

    def subject_id(self) -> str | None:
        return self.sweep_uuid


class Trial(Payload):
    """One suggested configuration: the run to create and its params."""

    uuid: str = Field(min_length=32, max_length=36, description="Derived from sweep and index.")
    index: int = Field(ge=0, description="The trial's number in the study.")
    params: dict[str, Any]


class AddTrials(EventData):
    """The next trials of an adaptive sweep. ``done``: none will follow, and the sweep ends
    once its trials have, with ``outputs`` (the best trial); ``failed``: the search cannot
    go on (the reason), and the sweep fails."""

    type_name: ClassVar[str] = "scheduler.add_trials"

    sweep_uuid: str = Field(min_length=32, max_length=36)
    trials: list[Trial] = Field(default_factory=list)
    done: bool = False
    outputs: dict[str, Any] = Field(default_factory=dict)
    failed: str | None = None

    def subject_id(self) -> str | None:
        return self.sweep_uuid
