"""Attempts an earlier life of this agent left running, followed again.

An executor whose processes outlive the agent (a cluster's workloads) gives back what is
left of an attempt (:meth:`~axonal_agent.ports.Executor.adopt`): the attempt is under way
again, in memory as one just taken (it holds the default slots: its command is not kept),
its log goes on where ``logs.txt`` ends, and its end is reported as any attempt's. What it
launched that no open attempt has is then deleted (:meth:`~axonal_agent.ports.Executor.sweep`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from pathlib import Path

import structlog

from axonal_agent.agent import Attempt
from axonal_agent.context import Context
from axonal_agent.domain.resources import run_resources
from axonal_agent.ports import Orphan
from axonal_agent.runs import attempt as attempts
from axonal_agent.runs import cleanup
from axonal_agent.runs.logs import resume_point
from axonal_agent.runs.store import Execution
from axonal_events.commands import ExecuteRun

__all__ = ["adopt", "sweep"]

log = structlog.get_logger(__name__)


def _attempt(execution: Execution) -> Attempt:
    owner, _, project = (execution.project or "/").partition("/")
    command = ExecuteRun(
        run_uuid=execution.run_uuid,
        attempt=execution.attempt,
        owner=owner,
        project=project,
        queue=execution.queue,
        run={},
        ttl_seconds=execution.ttl_seconds,
    )
    return Attempt(command, Path(execution.folder), None)


async def adopt(ctx: Context, execution: Execution) -> bool:
    """Follow ``execution`` again if its executor still has it; ``False``: nothing is left."""
    attempt = _attempt(execution)
    lines, last = await asyncio.to_thread(resume_point, attempt.folder / "logs.txt")
    logs = attempts.log_stream(ctx, attempt, first_seq=lines)
    orphan = Orphan(
        execution.run_uuid, execution.attempt, execution.queue, attempt.outputs_file, last
    )
    try:
        attempt.process = await ctx.executor.adopt(orphan, logs)
    except Exception:  # the cluster cannot tell: the attempt is reconciled as gone
        log.exception("agent.adoption_failed", run_uuid=execution.run_uuid)
    if attempt.process is None:
        await logs.close()
        return False
    agent, key = ctx.agent, attempt.key
    agent.ledger.reserve(key, run_resources({}))
    agent.attempts[key] = attempt
    logs.start()
    agent.tasks[key] = asyncio.create_task(
        cleanup.after(ctx, attempt, attempts.resume(ctx, attempt, logs)), name=f"run-{key}"
    )
    log.info("agent.adopted", run_uuid=execution.run_uuid, attempt=execution.attempt)
    return True


async def sweep(ctx: Context, keep: Collection[tuple[str, int]]) -> None:
    """Delete what the executor launched for attempts other than ``keep``; an executor that
    cannot tell now is swept at the next start."""
    try:
        swept = await ctx.executor.sweep(keep)
    except Exception:
        log.exception("agent.sweep_failed")
        return
    if swept:
        log.warning("agent.swept", workloads=swept)
