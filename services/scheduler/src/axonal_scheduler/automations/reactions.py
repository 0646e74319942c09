"""What one event starts: its operation hook, and the runs of the automation rules it matches.

Everything runs in the caller's transaction. The started runs' uuids derive from the event id
and every firing is keyed by (rule, event), so an event seen again changes nothing.
"""

from __future__ import annotations

import structlog

from axonal_events import HookRequested
from axonal_events.automations import AutomationAction, AutomationConfig, FiringOutcome
from axonal_events.commands import RunAction, SubmitRun
from axonal_scheduler.automations import store
from axonal_scheduler.domain.automations import (
    Incoming,
    RuleError,
    firing_run_uuid,
    start_params,
)
from axonal_scheduler.domain.hooks import hook_operation, hook_run_uuid
from axonal_scheduler.runs import actions
from axonal_scheduler.runs.engine import Engine
from axonal_scheduler.runs.submit import submit

__all__ = ["is_hook", "react"]

log = structlog.get_logger(__name__)
_HOOK = HookRequested.type_name


def is_hook(event: Incoming) -> bool:
    """A ``hook.requested`` of the platform, with its project."""
    return not event.external and event.type == _HOOK and bool(event.project)


async def react(engine: Engine, event: Incoming, fired: list[store.Rule]) -> None:
    """Start ``event``'s hook if it is one, then fire each rule of ``fired``."""
    if is_hook(event):
        await _start_hook(engine, event)
    for rule_id, rule in fired:
        await _fire(engine, rule_id, rule, event)


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
        return await store.record_firing(
            engine.conn, rule_id, event.id, event.type, outcome, run, detail
        )

    if rule.action is AutomationAction.RESTART:
        failed = str(event.data.get("run_uuid", ""))
        if await store.started_by(engine.conn, rule_id, failed):
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
