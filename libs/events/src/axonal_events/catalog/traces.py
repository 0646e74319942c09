"""LLM trace events (tracking owns traces)."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["TraceIngested"]


class TraceIngested(EventData):
    """A stored batch changed a trace, its observations or its scores (once per trace per batch).

    Carries what changed, not the data: read the trace with the tracking service's RPCs.
    """

    type_name = "trace.ingested"

    project_id: str = Field(min_length=1)
    trace_id: str = Field(min_length=1)
    trace_changed: bool = Field(description="The trace's own fields changed.")
    observations: int = Field(ge=0, description="Observations of the trace stored or changed.")
    scores: int = Field(ge=0, description="Scores on the trace stored or changed.")

    def subject_id(self) -> str | None:
        return self.trace_id
