"""One attempt of a run, from its init steps to its final report.

:func:`run` prepares the folder (the executor carries out the ``init`` steps, after a
``starting`` report when there are any), starts the process, reports why it waits until it
runs and ``running`` (a service: ``starting``, then ``running`` with its URLs once it
answers), then each time it stops running as it should and runs again (``warning``...,
``running``: a service whose replica is replaced), waits for the exit (or the timeout, or a
stop) and reports how it ended, with the outputs the run logged and its line count.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import sys
from collections.abc import Awaitable
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import asyncpg
import structlog

from axonal_agent.agent import Attempt
from axonal_agent.context import Context
from axonal_agent.domain.command import (
    InvalidRunError,
    build_argv,
    build_env,
    localize,
    run_context,
    working_dir,
)
from axonal_agent.domain.init_steps import plan_init
from axonal_agent.domain.outcome import Verdict, verdict
from axonal_agent.domain.resources import run_limits
from axonal_agent.domain.service import service_spec
from axonal_agent.ports import Launch, Process, ProcessSpec, SetupError, Waiting
from axonal_agent.runs import store
from axonal_agent.runs.logs import LogStream
from axonal_agent.runs.reports import report_directly
from axonal_bus.aio import cancel_and_wait
from axonal_bus.broker import jetstream
from axonal_bus.run_tokens import issue_run_token
from axonal_db import transaction
from axonal_events import RunStatus

__all__ = ["log_stream", "read_outputs", "resume", "run"]

log = structlog.get_logger(__name__)


def read_outputs(path: Path) -> dict[str, Any]:
    """The JSON object a run logged with ``axonal.tracking.log_outputs`` (empty if none)."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def log_stream(ctx: Context, attempt: Attempt, first_seq: int = 0) -> LogStream:
    """The attempt's log stream (``first_seq``: lines it had before the agent restarted)."""
    cmd, file = attempt.command, attempt.folder / "logs.txt"
    js = jetstream(ctx.broker)
    return LogStream(js, ctx.subjects, cmd.run_uuid, cmd.attempt, file, first_seq=first_seq)


async def run(ctx: Context, attempt: Attempt) -> None:
    """Execute and report the final status; never raises, never leaves a process (but one
    the agent leaves running for its next life as it stops, unreported)."""
    logs = log_stream(ctx, attempt)
    logs.start()
    await _conclude(ctx, attempt, logs, _execute(ctx, attempt, logs))


async def resume(ctx: Context, attempt: Attempt, logs: LogStream) -> None:
    """Follow an attempt adopted after a restart (its process given, ``logs`` started) to
    its end and report it, as :func:`run` does."""
    await _conclude(ctx, attempt, logs, _ended(ctx, attempt, logs))


async def _ended(ctx: Context, attempt: Attempt, logs: LogStream) -> Verdict:
    process = attempt.process
    if process is None:
        raise ValueError("an adopted attempt has its process")
    code = await process.wait()
    return await _verdict(ctx, attempt, logs, code, timed_out=False)


async def _conclude(
    ctx: Context, attempt: Attempt, logs: LogStream, execution: Awaitable[Verdict]
) -> None:
    """Await the attempt's verdict, then close its logs and report it."""
    cmd = attempt.command
    result: Verdict
    try:
        result = await execution
    except (SetupError, InvalidRunError) as exc:
        reason = exc.reason if isinstance(exc, SetupError) else "InvalidSpec"
        logs("agent", f"error: {exc}")
        result = Verdict("failed", reason, str(exc))
    except Exception as exc:
        log.exception("attempt.crashed", run_uuid=cmd.run_uuid)
        logs("agent", f"agent error: {exc}")
        result = Verdict("failed", "AgentError", f"{type(exc).__name__}: {exc}")
        if attempt.process is not None:  # e.g. the database failed after the start
            await attempt.process.stop(0)
    await logs.close()
    if attempt.detached:  # left running as the agent stops: its next life adopts it
        log.info("attempt.left", run_uuid=cmd.run_uuid)
        return
    outputs = read_outputs(attempt.outputs_file)
    await _final_report(ctx, attempt, result, outputs, logs.lines)
    log.info("attempt.done", run_uuid=cmd.run_uuid, status=result.status, reason=result.reason)


async def _execute(ctx: Context, attempt: Attempt, logs: LogStream) -> Verdict:
    cmd, settings, executor = attempt.command, ctx.settings, ctx.executor
    # A cluster runs the init steps in the pods; here they are the agent's to carry out.
    steps = (
        [] if executor.runs_images else plan_init(cmd.run, attempt.folder, settings.artifacts_root)
    )
    _spec(ctx, attempt)  # an invalid command fails before any init step runs
    if steps:  # init steps take time: say so (without any, ``running`` follows at once)
        await _mark(ctx, attempt, RunStatus.STARTING)
    await executor.prepare(attempt.folder, steps, logs)
    if attempt.stopping:
        return _stopped_early(attempt)
    # After init: the working directory may be a folder it cloned or wrote.
    spec = _spec(ctx, attempt)
    process = attempt.process = await executor.start(spec, logs)
    clock = asyncio.get_running_loop().time
    started = clock()
    if attempt.stopping:
        attempt.request_stop(settings.stop_grace_seconds)
    # An executor that ends the run at its timeout itself (a Job's deadline) is left to.
    limit = None if process.enforces_timeout else cmd.timeout_seconds
    timed_out = False
    if spec.service is None:
        try:
            if await asyncio.wait_for(process.running(partial(_waiting, ctx, attempt)), limit):
                await _mark(ctx, attempt, RunStatus.RUNNING, process)
        except TimeoutError:
            timed_out = True
    elif (never := await _serve(ctx, attempt, process, logs)) is not None:
        return never
    watching = asyncio.create_task(process.watch(partial(_waiting, ctx, attempt)))
    code: int | None = None
    try:
        if not timed_out:  # the time it took to run (a service: to answer) counts
            left = None if limit is None else max(0.0, limit - (clock() - started))
            try:
                code = await asyncio.wait_for(process.wait(), left)
            except TimeoutError:
                timed_out = True
        if timed_out:
            logs("agent", f"timeout of {cmd.timeout_seconds:g}s reached: stopping the process")
            await process.stop(settings.stop_grace_seconds)
            code = await process.wait()
    except BaseException:
        await cancel_and_wait([watching])
        raise
    await watching  # it ended with the process: what it told comes before the end
    memory = spec.limits.memory if spec.limits is not None else None
    return await _verdict(ctx, attempt, logs, code, timed_out=timed_out, memory_limit=memory)


async def _verdict(
    ctx: Context,
    attempt: Attempt,
    logs: LogStream,
    code: int | None,
    *,
    timed_out: bool,
    memory_limit: int | None = None,
) -> Verdict:
    """How the attempt's process ended (once a stop under way is over)."""
    if attempt.stop_task is not None:
        await attempt.stop_task
    if attempt.shutting_down:
        return Verdict("failed", "AgentStopped", "the agent shut down during the run", code)
    return verdict(
        code,
        stopped=attempt.stopping and not timed_out,
        timed_out=timed_out,
        timeout=attempt.command.timeout_seconds,
        last_lines=list(logs.last_lines),
        memory_limit=memory_limit,
        cause=attempt.process.cause if attempt.process is not None else None,
    )


async def _serve(
    ctx: Context, attempt: Attempt, process: Process, logs: LogStream
) -> Verdict | None:
    """A service is ``starting`` until it answers (saying why it waits, as a job does),
    then ``running`` with its URLs; one that does not answer in time is stopped and fails
    (its verdict); ``None`` otherwise."""
    await _mark(ctx, attempt, RunStatus.STARTING, process)
    bound = ctx.settings.service_ready_seconds
    if attempt.command.timeout_seconds is not None:
        bound = min(bound, attempt.command.timeout_seconds)
    told = [Waiting("starting")]

    async def waiting(now: Waiting) -> None:
        if (now.status, now.reason) != (told[-1].status, told[-1].reason):
            told.append(now)
            await _waiting(ctx, attempt, now)

    async def answers() -> bool:
        return await process.running(waiting) and await process.ready(bound)

    try:
        answered = await asyncio.wait_for(answers(), bound)
    except TimeoutError:
        urls = ", ".join(process.endpoints.values())
        why = f"the service did not answer within {bound:g}s (at {urls})"
        logs("agent", f"{why}: stopping the process")
        await process.stop(ctx.settings.stop_grace_seconds)
        return Verdict("failed", "ServiceNotReady", why, await process.wait())
    if answered:  # else the process ended first: its exit says how
        logs("agent", f"service ready: {', '.join(process.endpoints.values())}")
        await _mark(ctx, attempt, RunStatus.RUNNING, endpoints=process.endpoints)
    return None


async def _waiting(ctx: Context, attempt: Attempt, waiting: Waiting) -> None:
    """A started attempt that does not run yet says why (``starting``, ``unschedulable``,
    ``warning``, with the executor's reason)."""
    status = RunStatus(waiting.status)
    await _mark(ctx, attempt, status, reason=waiting.reason, message=waiting.message)


def _stopped_early(attempt: Attempt) -> Verdict:
    if attempt.shutting_down:
        return Verdict("failed", "AgentStopped", "the agent shut down before the run started")
    return Verdict("stopped", "Stopped", "stopped before the process started")


def _spec(ctx: Context, attempt: Attempt) -> ProcessSpec:
    cmd = attempt.command
    context = run_context(
        run_uuid=cmd.run_uuid,
        attempt=cmd.attempt,
        project=attempt.project,
        nats_url=ctx.settings.runs_nats_url,
        namespace=ctx.subjects.namespace,
        folder=attempt.folder,
        outputs_file=attempt.outputs_file,
        api_url=ctx.settings.api_url,
        api_token=_run_token(ctx, attempt),
    )
    if ctx.executor.runs_images:  # the run's images run as they are
        launch = _launch(attempt, context)
        return ProcessSpec(
            [], {}, attempt.folder, service=service_spec(cmd.run, cmd.probe), launch=launch
        )
    tools = str(Path(sys.executable).parent)
    env = build_env(os.environ, cmd.run, cmd.to_env, context, tools=tools)
    env = {k: localize(v, attempt.folder, cmd.run_uuid) for k, v in env.items()}
    cwd = working_dir(cmd.run, attempt.folder)
    argv = _docker_build(cmd.build, cwd, env) if cmd.build is not None else build_argv(cmd.run)
    argv = [localize(arg, attempt.folder, cmd.run_uuid) for arg in argv]
    service = service_spec(cmd.run, cmd.probe)
    return ProcessSpec(argv, env, cwd, run_limits(cmd.run), service)  # limits read at intake


def _launch(attempt: Attempt, context: dict[str, str]) -> Launch:
    cmd = attempt.command
    return Launch(
        run_uuid=cmd.run_uuid,
        attempt=cmd.attempt,
        project=attempt.project,
        queue=cmd.queue,
        run=cmd.run,
        context=context,
        folder=attempt.folder,
        outputs_file=attempt.outputs_file,
        to_env=cmd.to_env,
        timeout=cmd.timeout_seconds,
        probe=cmd.probe,
    )


def _docker_build(build: dict[str, Any], cwd: Path, env: dict[str, str]) -> list[str]:
    """A builder run on this host: ``docker build`` then ``docker push`` of its destination
    (kaniko needs a cluster); without a Docker engine it fails with why."""
    docker = shutil.which("docker", path=env.get("PATH"))
    host = env.get("DOCKER_HOST") or "unix:///var/run/docker.sock"
    socket = host.removeprefix("unix://") if host.startswith("unix://") else None
    missing = "`docker` is not on its PATH" if docker is None else None
    if missing is None and socket is not None and not Path(socket).exists():
        missing = f"no Docker engine listens at {socket}"
    if docker is None or missing is not None:
        why = (
            f"building an image needs a Docker engine on the agent's host ({missing}) or "
            "the Kubernetes executor, where the kaniko component runs"
        )
        raise SetupError("BuildUnavailable", why)
    context = str(build.get("context") or cwd)
    image = shlex.quote(str(build["destination"]))
    dockerfile = shlex.quote(str(Path(context) / "Dockerfile"))
    script = f"{docker} build -t {image} -f {dockerfile} {shlex.quote(context)} && "
    return ["/bin/sh", "-c", script + f"{docker} push {image}"]


def _run_token(ctx: Context, attempt: Attempt) -> str | None:
    settings = ctx.settings
    if settings.run_token_secret is None:
        return None
    return issue_run_token(
        settings.run_token_secret.get_secret_value(),
        attempt.command.run_uuid,
        attempt.project,
        timedelta(seconds=settings.run_token_ttl_seconds),
    )


async def _mark(
    ctx: Context,
    attempt: Attempt,
    status: RunStatus,
    process: Process | None = None,
    **fields: Any,
) -> None:
    """Report ``starting`` or ``running`` (with the started ``process`` kept first, for a
    restart: the report alone needs no transaction, and a restart in between reconciles the
    attempt either way); ``fields``: the report's ``reason``, ``message``, a service's
    ``endpoints``."""
    cmd = attempt.command
    async with ctx.pool.acquire() as conn:
        if process is not None:
            await store.set_running(conn, cmd.run_uuid, cmd.attempt, process.pid)
        events = await report_directly(
            ctx,
            conn,
            cmd.run_uuid,
            cmd.attempt,
            status,
            project=attempt.project,
            correlation_id=attempt.correlation_id,
            **fields,
        )
    await ctx.publish_committed(events)


async def _final_report(
    ctx: Context, attempt: Attempt, result: Verdict, outputs: dict[str, Any], lines: int
) -> None:
    """Report the end, retrying while the database is away (the process is already gone)."""
    failures = 0
    while True:
        try:
            await _report_final(ctx, attempt, result, outputs, lines)
            return
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            failures += 1
            log.warning("attempt.report_failed", run_uuid=attempt.command.run_uuid, error=str(exc))
            await asyncio.sleep(min(30.0, 0.2 * 2**failures))


async def _report_final(
    ctx: Context, attempt: Attempt, result: Verdict, outputs: dict[str, Any], lines: int
) -> None:
    """Close the execution and report how it ended, in one transaction (once)."""
    cmd, status = attempt.command, RunStatus(result.status)
    async with transaction(ctx.pool) as conn:
        if not await store.finish(conn, cmd.run_uuid, cmd.attempt, status.value):
            return
        events = await report_directly(
            ctx,
            conn,
            cmd.run_uuid,
            cmd.attempt,
            status,
            project=attempt.project,
            correlation_id=attempt.correlation_id,
            reason=result.reason,
            message=result.message,
            exit_code=result.exit_code,
            outputs=outputs,
            log_lines=lines,
        )
    await ctx.publish_committed(events)
