"""LLM trace events (tracking owns traces)."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData, Payload

__all__ = ["MAX_TRACES_PER_EVENT", "IngestedTrace", "TraceIngested"]

#: A batch that changed more traces is announced in several events.
MAX_TRACES_PER_EVENT = 1000


class IngestedTrace(Payload):
    """What a stored batch changed of one trace."""

    trace_id: str = Field(min_length=1)
    trace_changed: bool = Field(description="The trace's own fields changed.")
    observations: int = Field(ge=0, description="Observations of the trace stored or changed.")
    scores: int = Field(ge=0, description="Scores on the trace stored or changed.")
    experiment_observations: int = Field(
        default=0,
        ge=0,
        description="Of those observations, the ones an experiment ran (a dataset run's item).",
    )


class TraceIngested(EventData):
    """A stored batch changed traces: one event per batch, listing each trace it changed.

    A trace is listed when the batch changed its own fields, its observations or its scores;
    a batch of more than :data:`MAX_TRACES_PER_EVENT` traces is announced in several events.
    Carries what changed, not the data: read the traces with the tracking service's RPCs. One
    event per batch, not per trace: at thousands of spans a second, every consumer of all
    events would otherwise read a thousand of these a second.
    """

    type_name = "trace.ingested"

    project_id: str = Field(min_length=1)
    traces: list[IngestedTrace] = Field(min_length=1, max_length=MAX_TRACES_PER_EVENT)
