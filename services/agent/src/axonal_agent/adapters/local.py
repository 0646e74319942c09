"""The local executor: each attempt is a subprocess of the agent, in its own session.

The container image is NOT used: the container's ``command`` + ``args`` run directly on the
agent's host, with the host's tools (``/bin/sh -c`` forms work as they are). Stopping sends
SIGTERM to the whole process group, then SIGKILL after the grace period, and nothing of the
group is left once an attempt is over. A run's ``container.resources.limits`` hold its
process and what it starts (:mod:`axonal_agent.adapters.limits`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import psutil

from axonal_agent.adapters.limits import ChildLimits, child_limits
from axonal_agent.adapters.service import allocate_ports, probe, wait_ready
from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.init_steps import (
    CopyStep,
    FileStep,
    GitStep,
    InitStep,
    SkippedStep,
    parse_chmod,
)
from axonal_agent.domain.outcome import Cause
from axonal_agent.domain.service import (
    LOCAL_BASE_URL,
    LOCAL_HOST,
    ServiceSpec,
    endpoints,
    service_env,
)
from axonal_agent.ports import LogSink, Orphan, ProcessSpec, SetupError, WaitingSink
from axonal_spec.service_values import fill_service_values

__all__ = ["LocalExecutor", "LocalProcess"]

_LINE_LIMIT = 1 << 20
_DRAIN_SECONDS = 5.0
_GIT_TIMEOUT = 300.0


def _killpg(pgid: int, sig: signal.Signals) -> bool:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


async def _pump(stream: asyncio.StreamReader, name: str, log: LogSink) -> None:
    while True:
        try:
            raw = await stream.readline()
        except ValueError:  # a line longer than the limit: take what is buffered
            raw = await stream.read(_LINE_LIMIT)
        if not raw:
            return
        log(name, raw.decode("utf-8", errors="replace").rstrip("\r\n"))


@dataclass(frozen=True, slots=True)
class Served:
    """What a service process serves: its spec, the host ports given to its declared ones,
    and what to call once they are free again."""

    spec: ServiceSpec
    ports: list[int]
    release: Callable[[Iterable[int]], None]


class LocalProcess:
    """A running subprocess whose stdout and stderr are read line by line (``cores``: those
    it is pinned to, if any; ``served``: a service's ports)."""

    def __init__(
        self,
        proc: asyncio.subprocess.Process,
        log: LogSink,
        cores: tuple[int, ...] = (),
        served: Served | None = None,
    ) -> None:
        self._proc, self.cores, self._served = proc, cores, served
        if proc.stdout is None or proc.stderr is None:
            raise ValueError("the process must have piped stdout and stderr")
        self._readers = [
            asyncio.create_task(_pump(proc.stdout, "stdout", log)),
            asyncio.create_task(_pump(proc.stderr, "stderr", log)),
        ]

    #: The attempt's own timeout applies; an exit code says all there is.
    enforces_timeout = False
    cause: Cause | None = None

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._proc.returncode is None

    @property
    def endpoints(self) -> dict[str, str]:
        served = self._served
        return endpoints(served.spec.ports, served.ports) if served is not None else {}

    async def ready(self, timeout: float) -> bool:
        served = self._served
        if served is None or not served.ports:
            return True
        port, path = served.ports[served.spec.probe_index], served.spec.http_path
        return await wait_ready(lambda: probe(port, path), lambda: self.alive, timeout)

    async def running(self, changed: WaitingSink) -> bool:
        return True

    async def watch(self, changed: WaitingSink) -> None:
        """Nothing to tell: a local process runs until it exits, and its exit says how."""

    async def wait(self) -> int:
        code = await self._proc.wait()
        # Children that outlive the process may hold the pipes: give them a moment, then end them.
        _done, pending = await asyncio.wait(self._readers, timeout=_DRAIN_SECONDS)
        _killpg(self.pid, signal.SIGKILL)
        for task in pending:
            task.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)
        self._release()
        return code

    async def detach(self) -> None:
        """A local process does not outlive its agent: it is ended at once."""
        await self.stop(0)

    async def stop(self, grace: float) -> None:
        if _killpg(self.pid, signal.SIGTERM):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._proc.wait()), grace)
        _killpg(self.pid, signal.SIGKILL)
        await self._proc.wait()
        self._release()

    def _release(self) -> None:
        """The process group is gone: its ports are free for other services."""
        if self._served is not None:
            self._served.release(self._served.ports)


class LocalExecutor:
    """Runs attempts as local processes (see the module docstring)."""

    runs_images = False
    outlives_agent = False

    def __init__(self) -> None:
        self._pinned: list[LocalProcess] = []  # started with a cpu affinity
        self._held: set[int] = set()  # ports of the services under way

    async def prepare(self, folder: Path, steps: Sequence[InitStep], log: LogSink) -> None:
        folder.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 - instant; a thread hop is not
        for step in steps:
            if isinstance(step, FileStep):
                await asyncio.to_thread(_write_file, step)
                log("agent", f"init: wrote {step.target}")
            elif isinstance(step, CopyStep):
                await asyncio.to_thread(_copy, step)
                log("agent", f"init: copied {step.source} to {step.target}")
            elif isinstance(step, GitStep):
                await _clone(step, log)
            elif isinstance(step, SkippedStep):
                log("agent", f"init: {step.kind} skipped ({step.why})")

    async def start(self, spec: ProcessSpec, log: LogSink) -> LocalProcess:
        served = self._serve(spec.service, log)
        if served is not None:
            spec = _filled(spec, served.ports)
        try:
            return await self._start(spec, log, served)
        except BaseException:
            self._held.difference_update(served.ports if served is not None else ())
            raise

    def _serve(self, service: ServiceSpec | None, log: LogSink) -> Served | None:
        """Free host ports for a service's declared ones, held until its process is gone."""
        if service is None:
            return None
        try:
            ports = allocate_ports(len(service.ports), self._held)
        except OSError as exc:
            raise SetupError("StartFailed", f"no free port for the service: {exc}") from None
        self._held.update(ports)
        for declared, local in zip(service.ports, ports, strict=True):
            log("agent", f"service: port {declared} is {LOCAL_HOST}:{local}")
        return Served(service, ports, self._held.difference_update)

    async def _start(self, spec: ProcessSpec, log: LogSink, served: Served | None) -> LocalProcess:
        _check_executable(spec.argv[0], spec.env)
        child: ChildLimits | None = None
        if spec.limits is not None:
            self._pinned = [process for process in self._pinned if process.alive]
            load = Counter(core for process in self._pinned for core in process.cores)
            child, applied = child_limits(spec.limits, load)
            log("agent", applied)
        try:
            proc = await asyncio.create_subprocess_exec(
                *spec.argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=spec.env,
                cwd=spec.cwd,
                start_new_session=True,
                limit=_LINE_LIMIT,
                preexec_fn=child,
            )
        except OSError as exc:
            raise SetupError("StartFailed", f"could not start {spec.argv[0]!r}: {exc}") from None
        except subprocess.SubprocessError as exc:  # the preexec_fn failed in the child
            why = f"could not apply the limits to {spec.argv[0]!r}: {exc}"
            raise SetupError("StartFailed", why) from None
        process = LocalProcess(proc, log, child.cores if child is not None else (), served)
        if process.cores:
            self._pinned.append(process)
        return process

    async def reap(self, pid: int, started_at: datetime | None) -> bool:
        try:
            process = psutil.Process(pid)
            created = process.create_time()
        except psutil.Error:
            return False
        if started_at is not None and abs(created - started_at.timestamp()) > 5:
            return False  # the pid was reused by something else
        _killpg(pid, signal.SIGKILL)
        with contextlib.suppress(psutil.Error):
            process.kill()
        return True

    async def adopt(self, orphan: Orphan, log: LogSink) -> None:
        """A process of an earlier life is not a child of this one: never adopted."""
        return

    async def sweep(self, keep: Collection[tuple[str, int]]) -> int:
        """Nothing outlives the attempts here but what :meth:`reap` ends."""
        return 0


def _filled(spec: ProcessSpec, ports: list[int]) -> ProcessSpec:
    """``spec`` with the service's placeholders filled in and its ports in the env."""
    argv = fill_service_values(spec.argv, ports, LOCAL_BASE_URL)
    env = fill_service_values(spec.env, ports, LOCAL_BASE_URL) | service_env(ports)
    return replace(spec, argv=argv, env=env)


def _check_executable(program: str, env: dict[str, str]) -> None:
    """A command named without a folder must be on the process's ``PATH``."""
    if os.sep not in program and shutil.which(program, path=env.get("PATH")) is None:
        why = f"{program!r} is not installed on the agent's host (no such executable on its PATH)"
        raise SetupError("ExecutableNotFound", why)


def _write_file(step: FileStep) -> None:
    try:
        step.target.parent.mkdir(parents=True, exist_ok=True)
        step.target.write_text(step.content, encoding="utf-8")
        if step.mode:
            step.target.chmod(parse_chmod(step.mode, step.target.stat().st_mode & 0o7777))
    except (OSError, InvalidRunError) as exc:
        raise SetupError("InitFailed", f"init file {step.target}: {exc}") from None


def _copy(step: CopyStep) -> None:
    if not step.source.exists():
        raise SetupError("InitFailed", f"init artifacts: {step.source} does not exist")
    try:
        step.target.parent.mkdir(parents=True, exist_ok=True)
        if step.source.is_dir():
            shutil.copytree(step.source, step.target, dirs_exist_ok=True)
        else:
            shutil.copy2(step.source, step.target)
    except OSError as exc:
        raise SetupError("InitFailed", f"init artifacts: copying {step.source}: {exc}") from None


async def _git(args: list[str], log: LogSink) -> tuple[int, list[str]]:
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    proc = await asyncio.create_subprocess_exec(
        "git",
        *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=env,
        start_new_session=True,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), _GIT_TIMEOUT)
    except TimeoutError:
        _killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        return -1, [f"git {args[0]} took longer than {_GIT_TIMEOUT:g}s"]
    lines = [line for line in out.decode("utf-8", errors="replace").splitlines() if line.strip()]
    for line in lines:
        log("agent", f"git: {line}")
    return proc.returncode or 0, lines


async def _clone(step: GitStep, log: LogSink) -> None:
    if shutil.which("git") is None:
        raise SetupError("GitCloneFailed", "init git: the git command is not installed")
    log("agent", f"init: cloning {step.url}")
    code, lines = await _git(["clone", *step.flags, step.url, str(step.target)], log)
    if code != 0:
        detail = lines[-1] if lines else f"git exited with code {code}"
        raise SetupError("GitCloneFailed", f"could not clone {step.url}: {detail}")
    if step.revision:
        code, lines = await _git(["-C", str(step.target), "checkout", step.revision], log)
        if code != 0:
            detail = lines[-1] if lines else f"git exited with code {code}"
            raise SetupError("GitCloneFailed", f"could not check out {step.revision}: {detail}")
