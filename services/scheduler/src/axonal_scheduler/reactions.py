"""What the scheduler does when events arrive: operation hooks and automation rules.

Every event on the bus (the platform's and those outside systems post) is read once by the
``scheduler-events`` consumer, in batches (one query reads the rules of every project in a
batch). A ``hook.requested`` that is not a notification starts its operation; each enabled
automation rule of the event's project that matches it fires. All of an event's effects commit
in one transaction; the started runs' uuids derive from the event id and every firing is
keyed by (rule, event), so a redelivered event (or batch) changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import structlog

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import transaction
from axonal_events import HookRequested
from axonal_events.automations import AutomationAction, AutomationConfig, FiringOutcome
from axonal_events.commands import RunAction, SubmitRun
from axonal_scheduler import actions, automations_store
from axonal_scheduler.domain.automations import (
    Incoming,
    RuleError,
    firing_run_uuid,
    matches,
    parse_event,
    start_params,
)
from axonal_scheduler.domain.hooks import hook_operation, hook_run_uuid
from axonal_scheduler.engine import Engine
from axonal_scheduler.lifecycle import Tx
from axonal_scheduler.settings import SchedulerSettings
from axonal_scheduler.submit import submit

__all__ = ["register"]

log = structlog.get_logger(__name__)
_HOOK = HookRequested.type_name


def _decode(raw: bytes) -> Incoming:
    try:
        return parse_event(raw)
    except ValueError as exc:
        raise Permanent(str(exc)) from None


def _is_hook(event: Incoming) -> bool:
    return not event.external and event.type == _HOOK and bool(event.project)


def _split(project: str) -> tuple[str, str]:
    owner, _, name = project.partition("/")
    return owner, name


async def _start_hook(engine: Engine, event: Incoming) -> None:
    hook = HookRequested.model_validate(event.data)
    if hook.notifier is not None:
        return  # the notifications service delivers it
    owner, project = _split(hook.project)
    text = hook_operation(hook.hub_ref, hook.params, hook.queue)
    cmd = SubmitRun(run_uuid=hook_run_uuid(event.id), owner=owner, project=project, files=[text])
    await submit(engine, cmd)
    log.info("hook.started", parent=hook.run_uuid, hub_ref=hook.hub_ref, run=cmd.run_uuid)


async def _fire(engine: Engine, rule_id: str, rule: AutomationConfig, event: Incoming) -> None:
    async def record(outcome: FiringOutcome, run: str | None, detail: str | None = None) -> bool:
        return await automations_store.record_firing(
            engine.conn, rule_id, event.id, event.type, outcome, run, detail
        )

    if rule.action is AutomationAction.RESTART:
        failed = str(event.data.get("run_uuid", ""))
        if await automations_store.started_by(engine.conn, rule_id, failed):
            await record(FiringOutcome.SKIPPED, failed, "restarted once already")
        elif event.data.get("pipeline_uuid"):
            await record(FiringOutcome.SKIPPED, failed, "an op of a pipeline: restart the pipeline")
        else:
            copy = firing_run_uuid(rule_id, event.id)
            if await record(FiringOutcome.RESTARTED, copy, f"restart of {failed}"):
                await actions.act(
                    engine, RunAction(verb="restart", run_uuid=failed, new_run_uuid=copy)
                )
        return
    try:
        params = start_params(rule, event)
    except RuleError as exc:
        await record(FiringOutcome.FAILED, None, str(exc))
        return
    run_uuid = firing_run_uuid(rule_id, event.id)
    if not await record(FiringOutcome.STARTED, run_uuid):
        return
    owner, project = _split(event.project or "")
    text = rule.polyaxonfile or hook_operation(str(rule.hub_ref), {})
    cmd = SubmitRun(
        run_uuid=run_uuid,
        owner=owner,
        project=project,
        files=[text],
        params=params,
        queue=rule.queue,
    )
    await submit(engine, cmd)
    log.info("automation.fired", rule=rule.name, on=event.id, run=run_uuid)


def register(ctx: ServiceContext, settings: SchedulerSettings) -> None:
    """Consume every event of the namespace, in batches, for hooks and automation rules."""
    source = f"/axonal/{ctx.name}"

    async def react(event: Incoming, fired: list[automations_store.Rule]) -> None:
        async with transaction(ctx.pool) as conn:
            engine = Engine(Tx(conn, ctx.subjects, source), settings)
            if _is_hook(event):
                await _start_hook(engine, event)
            for rule_id, rule in fired:
                await _fire(engine, rule_id, rule, event)

    async def on_batch(events: Sequence[Incoming]) -> None:
        projects = sorted({e.project for e in events if e.project and "/" in e.project})
        if not projects:
            return
        async with ctx.pool.acquire() as conn:
            rules = await automations_store.enabled_rules(conn, projects)
        for event in events:  # in stream order: a later event sees what an earlier one did
            of_project = rules.get(event.project or "", [])
            fired = [(rule_id, rule) for rule_id, rule in of_project if matches(rule, event)]
            if fired or _is_hook(event):
                await react(event, fired)

    spec: ConsumerSpec[Incoming] = ConsumerSpec(
        durable=f"{ctx.name}-events",
        filter_subjects=[ctx.subjects.events(), ctx.subjects.externals()],
        decode=_decode,
        batch_size=64,
        ack_wait=60.0,
    )
    ctx.consume_batches(spec, on_batch)
