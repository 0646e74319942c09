"""Consumers: ``cmd.optimization.start`` (durable ``optimization-sweeps``) starts a sweep's
study; ``run.done`` (durable ``optimization-trials``) records each trial's result and
suggests the next trials, ends the study of a sweep that ended first, or brings an iterative
search's tuner run's suggestions. In the background, the pruning watch
(:mod:`~axonal_optimization.studies.pruning`)."""

from __future__ import annotations

from functools import partial

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Invalid
from axonal_events import CloudEvent, EventData, StreamKind
from axonal_events.catalog.registry import Catalog
from axonal_events.catalog.run import RunDone
from axonal_events.commands import OptimizeSweep
from axonal_optimization.context import Context
from axonal_optimization.studies import pruning, search, tuners

__all__ = ["SWEEP_COMMANDS", "on_run_done", "on_start", "register"]

SWEEP_COMMANDS = Catalog()
SWEEP_COMMANDS.register(OptimizeSweep)


def _sweeps(ctx: Context) -> str:
    return f"{ctx.name}-sweeps"


def _trials(ctx: Context) -> str:
    return f"{ctx.name}-trials"


async def on_start(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, OptimizeSweep):
        raise Invalid(f"expected optimization.start, got {event.type}")
    await search.start(ctx, event.data)


async def on_run_done(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, RunDone):
        raise Invalid(f"expected run.done, got {event.type}")
    if event.data.pipeline_uuid:
        await search.trial_done(ctx, event.data)
    elif event.data.kind == "matrix":
        await search.sweep_ended(ctx, event.data)
        await tuners.sweep_ended(ctx, event.data)
    else:
        await tuners.tuner_done(ctx, event.data)


def register(ctx: Context) -> None:
    spec = ConsumerSpec(
        durable=_sweeps(ctx),
        filter_subjects=[ctx.subjects.command(ctx.name, "start")],
        decode=SWEEP_COMMANDS.decode,
        stream=StreamKind.COMMANDS,
        ack_wait=60.0,
    )
    ctx.consume(spec, on_start)
    ctx.consume_events(_trials(ctx), ["run.done"], on_run_done, ack_wait=60.0)
    ctx.on_startup(partial(pruning.start_watching, ctx))
    ctx.on_shutdown(partial(pruning.stop_watching, ctx))
