"""One attempt of a run, from init to its final report."""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import asyncpg
import structlog
from nats.js import JetStreamContext

from axonal_agent import store
from axonal_agent.domain.command import (
    InvalidRunError,
    build_argv,
    build_env,
    run_context,
    working_dir,
)
from axonal_agent.domain.init_steps import plan_init
from axonal_agent.domain.outcome import Verdict, verdict
from axonal_agent.logs import LogStream
from axonal_agent.ports import Executor, Process, ProcessSpec, SetupError
from axonal_agent.reports import Reporter
from axonal_agent.settings import AgentSettings
from axonal_bus.run_tokens import issue_run_token
from axonal_db import transaction
from axonal_events import RunStatus, Subjects
from axonal_events.commands import ExecuteRun

__all__ = ["Attempt", "AttemptDeps", "read_outputs"]

log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class AttemptDeps:
    """What every attempt of one agent shares."""

    settings: AgentSettings
    executor: Executor
    pool: asyncpg.Pool
    js: JetStreamContext
    subjects: Subjects
    reporter: Reporter
    nats_url: str


def read_outputs(path: Path) -> dict[str, Any]:
    """The JSON object a run logged with ``axonal.tracking.log_outputs`` (empty if none)."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


@dataclass
class Attempt:
    command: ExecuteRun
    folder: Path
    correlation_id: str | None
    deps: AttemptDeps
    process: Process | None = None
    stopping: bool = False
    shutting_down: bool = False
    _stop_task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def project(self) -> str:
        return f"{self.command.owner}/{self.command.project}"

    def request_stop(self) -> None:
        """Stop on request: at once if the process runs, before it starts otherwise."""
        self.stopping = True
        if self.process is not None and self._stop_task is None:
            grace = self.deps.settings.stop_grace_seconds
            self._stop_task = asyncio.create_task(self.process.stop(grace))

    async def _report_final(self, result: Verdict, outputs: dict[str, Any], lines: int) -> None:
        """Close the execution and report how it ended, in one transaction (once)."""
        cmd, status = self.command, RunStatus(result.status)
        async with transaction(self.deps.pool) as conn:
            if not await store.finish(conn, cmd.run_uuid, cmd.attempt, status.value):
                return
            await self.deps.reporter.report(
                conn,
                cmd.run_uuid,
                cmd.attempt,
                status,
                project=self.project,
                correlation_id=self.correlation_id,
                reason=result.reason,
                message=result.message,
                exit_code=result.exit_code,
                outputs=outputs,
                log_lines=lines,
            )

    async def _mark_running(self, pid: int) -> None:
        cmd = self.command
        async with transaction(self.deps.pool) as conn:
            await store.set_running(conn, cmd.run_uuid, cmd.attempt, pid)
            await self.deps.reporter.report(
                conn,
                cmd.run_uuid,
                cmd.attempt,
                RunStatus.RUNNING,
                project=self.project,
                correlation_id=self.correlation_id,
            )

    def _spec(self) -> ProcessSpec:
        cmd, deps = self.command, self.deps
        context = run_context(
            run_uuid=cmd.run_uuid,
            attempt=cmd.attempt,
            project=self.project,
            nats_url=deps.nats_url,
            namespace=deps.subjects.namespace,
            folder=self.folder,
            outputs_file=self.outputs_file,
            api_url=deps.settings.api_url,
            api_token=self._run_token(),
        )
        env = build_env(os.environ, cmd.run, cmd.to_env, context)
        return ProcessSpec(build_argv(cmd.run), env, working_dir(cmd.run, self.folder))

    def _run_token(self) -> str | None:
        settings = self.deps.settings
        if settings.run_token_secret is None:
            return None
        return issue_run_token(
            settings.run_token_secret.get_secret_value(),
            self.command.run_uuid,
            self.project,
            timedelta(seconds=settings.run_token_ttl_seconds),
        )

    @property
    def outputs_file(self) -> Path:
        return self.folder / "outputs.json"

    async def run(self) -> None:
        """Execute and report the final status; never raises, never leaves a process."""
        cmd = self.command
        logs = LogStream(
            self.deps.js, self.deps.subjects, cmd.run_uuid, cmd.attempt, self.folder / "logs.txt"
        )
        logs.start()
        result: Verdict
        try:
            result = await self._execute(logs)
        except (SetupError, InvalidRunError) as exc:
            reason = exc.reason if isinstance(exc, SetupError) else "InvalidSpec"
            logs("agent", f"error: {exc}")
            result = Verdict("failed", reason, str(exc))
        except Exception as exc:
            log.exception("attempt.crashed", run_uuid=cmd.run_uuid)
            logs("agent", f"agent error: {exc}")
            result = Verdict("failed", "AgentError", f"{type(exc).__name__}: {exc}")
            if self.process is not None:  # e.g. the database failed after the start
                await self.process.stop(0)
        await logs.close()
        outputs = read_outputs(self.outputs_file)
        await self._final_report(result, outputs, logs.lines)
        log.info("attempt.done", run_uuid=cmd.run_uuid, status=result.status, reason=result.reason)

    async def _final_report(self, result: Verdict, outputs: dict[str, Any], lines: int) -> None:
        """Report the end, retrying while the database is away (the process is already gone)."""
        failures = 0
        while True:
            try:
                await self._report_final(result, outputs, lines)
                return
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                failures += 1
                log.warning("attempt.report_failed", run_uuid=self.command.run_uuid, error=str(exc))
                await asyncio.sleep(min(30.0, 0.2 * 2**failures))

    def _stopped_early(self) -> Verdict:
        if self.shutting_down:
            return Verdict("failed", "AgentStopped", "the agent shut down before the run started")
        return Verdict("stopped", "Stopped", "stopped before the process started")

    async def _execute(self, logs: LogStream) -> Verdict:
        cmd, deps = self.command, self.deps
        steps = plan_init(cmd.run, self.folder, deps.settings.artifacts_root)
        self._spec()  # an invalid command fails before any init step runs
        await deps.executor.prepare(self.folder, steps, logs)
        if self.stopping:
            return self._stopped_early()
        # After init: the working directory may be a folder it cloned or wrote.
        self.process = await deps.executor.start(self._spec(), logs)
        if self.stopping:
            self.request_stop()
        await self._mark_running(self.process.pid)
        timed_out = False
        try:
            code = await asyncio.wait_for(self.process.wait(), cmd.timeout_seconds)
        except TimeoutError:
            timed_out = True
            logs("agent", f"timeout of {cmd.timeout_seconds:g}s reached: stopping the process")
            await self.process.stop(deps.settings.stop_grace_seconds)
            code = await self.process.wait()
        if self._stop_task is not None:
            await self._stop_task
        if self.shutting_down:
            return Verdict("failed", "AgentStopped", "the agent shut down during the run", code)
        return verdict(
            code,
            stopped=self.stopping and not timed_out,
            timed_out=timed_out,
            timeout=cmd.timeout_seconds,
            last_lines=list(logs.last_lines),
        )
