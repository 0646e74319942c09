"""Consumer of ``trace.ingested`` (durable ``evaluation-experiments``): the traces whose
changed observations an experiment ran are read from tracking and become its run items;
other traces cost nothing here."""

from __future__ import annotations

from axonal_bus.errors import Invalid
from axonal_evaluation.context import Context
from axonal_evaluation.datasets.linking import link_traces
from axonal_events import CloudEvent, EventData
from axonal_events.catalog.traces import TraceIngested

__all__ = ["on_trace_ingested", "register"]


async def on_trace_ingested(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, TraceIngested):
        raise Invalid(f"expected trace.ingested, got {event.type}")
    changed = [t.trace_id for t in event.data.traces if t.experiment_observations > 0]
    if changed:
        await link_traces(ctx, event.data.project_id, changed)


def register(ctx: Context) -> None:
    ctx.consume_events(
        f"{ctx.name}-experiments", ["trace.ingested"], on_trace_ingested, ack_wait=60.0
    )
