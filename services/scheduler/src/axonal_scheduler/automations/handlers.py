"""Consumer: every event of the namespace (durable ``scheduler-events``), for operation hooks
and automation rules.

Every event on the bus (the platform's and those outside systems post) is read once, in
batches (one query reads the rules of every project in a batch). A ``hook.requested`` that is
not a notification starts its operation; each enabled automation rule of the event's project
that matches it fires. All of an event's effects commit in one transaction (see
:mod:`~axonal_scheduler.automations.reactions`), so a redelivered event (or batch) changes
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Permanent
from axonal_db import transaction
from axonal_scheduler.automations import store
from axonal_scheduler.automations.reactions import is_hook, react
from axonal_scheduler.context import Context
from axonal_scheduler.domain.automations import Incoming, matches, parse_event
from axonal_scheduler.runs.engine import Engine

__all__ = ["decode_event", "on_events", "register"]


def decode_event(raw: bytes) -> Incoming:
    try:
        return parse_event(raw)
    except ValueError as exc:
        raise Permanent(str(exc)) from None


async def on_events(ctx: Context, events: Sequence[Incoming]) -> None:
    projects = sorted({e.project for e in events if e.project and "/" in e.project})
    if not projects:
        return
    async with ctx.pool.acquire() as reader:
        rules = await store.enabled_rules(reader, projects)
    for event in events:  # in stream order: a later event sees what an earlier one did
        of_project = rules.get(event.project or "", [])
        fired = [(rule_id, rule) for rule_id, rule in of_project if matches(rule, event)]
        if fired or is_hook(event):
            async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
                await react(engine, event, fired)
            await ctx.publish_committed(engine.tx.events)


def register(ctx: Context) -> None:
    spec = ConsumerSpec(
        durable=f"{ctx.name}-events",
        filter_subjects=[ctx.subjects.events(), ctx.subjects.externals()],
        decode=decode_event,
        batch_size=64,
        ack_wait=60.0,
    )
    ctx.consume_batches(spec, on_events)
