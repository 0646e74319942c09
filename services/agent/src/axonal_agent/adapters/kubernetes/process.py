"""One attempt on Kubernetes, as the agent's :class:`~axonal_agent.ports.Process`.

The :class:`~axonal_agent.adapters.kubernetes.observer.Observer` says how it is doing. Until
it runs, each change of why it waits is told (``starting``; ``unschedulable`` when no node
can take a pod; ``warning`` when a container cannot start as it is, or its pod failed and is
replaced). Once it runs, each time it stops running as it should is told (a service with no
replica available: ``warning`` with why, or ``unschedulable``) and when it runs again
(``running``), once that lasted ``settle`` seconds (a pod's watch and its Deployment's may
tell one change in two steps). Once it ends, the logs
of its containers are drained, a success's termination message (the outputs the run logged
to ``AXONAL_RUN_OUTPUTS_FILE``, the main container's ``/dev/termination-log``) is written to
the attempt's outputs file, and its objects are deleted (Background) but for a workload that
succeeded and stays for its logs until its ``ttlSecondsAfterFinished`` (a Job, a Kubeflow
job, a RayJob): nothing of a failed or stopped attempt goes on running or retrying. A
workload someone else deleted fails the attempt (``Deleted``); one its stop deleted ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from axonal_agent.adapters.kubernetes.client import POD, KubeClient
from axonal_agent.adapters.kubernetes.feeds import TRANSIENT
from axonal_agent.adapters.kubernetes.handle import Handle, Timing
from axonal_agent.adapters.kubernetes.logs import PodLogs
from axonal_agent.adapters.kubernetes.observer import Observer
from axonal_agent.domain.kube import Kind, Observation
from axonal_agent.domain.outcome import Cause
from axonal_agent.ports import LogSink, Waiting, WaitingSink
from axonal_bus.aio import cancel_and_wait

__all__ = ["KubeProcess"]

_FINAL = ("succeeded", "failed")
_DRAIN_SECONDS = 5.0
#: Why an attempt waits that is wrong with it (and may clear up): a container that cannot
#: start as it is, a pod that failed and is replaced, a restarted container.
_WARNINGS = frozenset(
    {
        "ErrImagePull",
        "ImagePullBackOff",
        "CreateContainerConfigError",
        "CreateContainerError",
        "RunContainerError",
        "CrashLoopBackOff",
        "OOMKilled",
        "ExitCode",
        "InitFailed",
        "Evicted",
        "NodeLost",
        "Preempted",
        "Disrupted",
    }
)


def _waiting(observation: Observation) -> Waiting:
    reason, message = observation.reason, observation.message
    if reason == "Unschedulable":
        return Waiting("unschedulable", reason, message)
    if reason in _WARNINGS:
        return Waiting("warning", reason, message)
    return Waiting("starting", reason, message)


def _outputs(pods: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON objects the main containers that exited 0 left as termination messages
    (the first pod's, by name, win on a clash: a master's over its workers')."""
    merged: dict[str, Any] = {}
    for pod in sorted(pods, key=lambda p: str(p["metadata"]["name"]), reverse=True):
        main = ((pod.get("spec") or {}).get("containers") or [{}])[0].get("name")
        for status in (pod.get("status") or {}).get("containerStatuses") or []:
            ended = (status.get("state") or {}).get("terminated") or {}
            if status.get("name") != main or ended.get("exitCode") != 0:
                continue
            with contextlib.suppress(ValueError):
                value = json.loads(ended.get("message") or "")
                if isinstance(value, dict):
                    merged.update(value)
    return merged


class KubeProcess:
    """An attempt's workload, watched until it ends (see the module docstring)."""

    pid = None

    def __init__(
        self,
        client: KubeClient,
        handle: Handle,
        sink: LogSink,
        outputs_file: Path,
        timing: Timing,
        *,
        timeout: float | None = None,
        since: datetime | None = None,
    ) -> None:
        self._client, self.handle = client, handle
        self._outputs_file, self._timeout = outputs_file, timeout
        self._logs = PodLogs(
            client, handle.namespace, sink, workload=handle.name, spread=handle.spread, since=since
        )
        self.observer = Observer(client, handle, self._logs, timing, self._wake)
        self._settle = timing.settle
        self._seen = asyncio.Event()  # replaced at each change: wakes the waiters
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    @property
    def observation(self) -> Observation | None:
        return self.observer.observation

    @property
    def endpoints(self) -> dict[str, str]:
        return dict(self.handle.endpoints)

    @property
    def enforces_timeout(self) -> bool:
        return self.handle.enforces_timeout

    @property
    def cause(self) -> Cause | None:
        seen = self.observation
        if self.observer.gone and not self._stopping:
            return Cause("Deleted", f"the {self.handle.kind.kind} {self.handle.name} was deleted")
        if seen is None or seen.phase != "failed":
            return None
        if seen.reason == "DeadlineExceeded" and self._timeout is not None:
            return Cause("Timeout", f"the run exceeded its timeout of {self._timeout:g}s")
        return Cause(seen.reason or "Failed", seen.message)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"kube-{self.handle.name}")

    def _wake(self) -> None:
        self._seen.set()
        self._seen = asyncio.Event()

    async def _until(self, tell: Callable[[Observation], Awaitable[None]] | None = None) -> bool:
        """Wait until it runs (``True``) or ended (``False``), telling ``tell`` each look."""
        while True:
            seen, wake = self.observation, self._seen
            if seen is not None and seen.phase == "running":
                return True
            if self._task is None or self._task.done() or (seen and seen.phase in _FINAL):
                return False
            if seen is not None and tell is not None:
                await tell(seen)
            await wake.wait()

    async def running(self, changed: WaitingSink) -> bool:
        told: list[tuple[str, str | None]] = []

        async def tell(seen: Observation) -> None:
            waiting = _waiting(seen)
            if told[-1:] != [(waiting.status, waiting.reason)]:
                told.append((waiting.status, waiting.reason))
                await changed(waiting)

        return await self._until(tell)

    async def ready(self, timeout: float) -> bool:
        return await asyncio.wait_for(self._until(), timeout)

    async def watch(self, changed: WaitingSink) -> None:
        told = Waiting("running")
        while True:
            wake, doing = self._seen, self._doing()
            if doing is None:
                return
            if (doing.status, doing.reason) == (told.status, told.reason):
                await wake.wait()
                continue
            await asyncio.sleep(self._settle)  # a later look may say better why
            doing = self._doing()
            if doing is not None and (doing.status, doing.reason) != (told.status, told.reason):
                told = doing
                await changed(doing)

    def _doing(self) -> Waiting | None:
        """How it does once it ran: ``running``, else why not (``None``: it ended, or is
        being stopped)."""
        seen = self.observation
        if self._stopping or self._task is None or self._task.done():
            return None
        if seen is None or seen.phase in _FINAL:
            return None
        if seen.phase == "running":
            return Waiting("running")
        if seen.reason == "Unschedulable":
            return Waiting("unschedulable", seen.reason, seen.message)
        return Waiting("warning", seen.reason, seen.message)

    async def wait(self) -> int | None:
        task = self._task
        if task is not None:
            await asyncio.wait([task])
            if not task.cancelled():  # detached: it runs on
                task.result()
        seen = self.observation
        if seen is None:
            return None
        return 0 if seen.phase == "succeeded" else seen.exit_code

    async def stop(self, grace: float) -> None:
        """Delete the workload (Background), its pods within ``grace`` and its Secret;
        returns once its watching ended (at most ``grace`` + 30 seconds)."""
        self._stopping = True
        handle = self.handle
        with contextlib.suppress(*TRANSIENT):
            await self._delete(handle.objects)
            for selector in handle.pods:  # the garbage collector would give them their own
                listing = await self._client.list(POD, handle.namespace, labels=selector)
                pods = [(POD, str(pod["metadata"]["name"])) for pod in listing.items]
                await self._delete(pods, max(0, math.ceil(grace)))
        if self._task is not None:
            await asyncio.wait([self._task], timeout=grace + 30)

    async def detach(self) -> None:
        """Stop watching it and following its logs; it runs on, for the agent's next life."""
        if self._task is not None:
            await cancel_and_wait([self._task])
        await self._logs.drain(0)

    async def _delete(self, objects: Iterable[tuple[Kind, str]], grace: int | None = None) -> None:
        for kind, name in objects:
            await self._client.delete(kind, self.handle.namespace, name, grace)

    async def _run(self) -> None:
        try:
            await self.observer.run()
            await self._finish()
        finally:
            self._wake()  # the waiters see it ended

    async def _finish(self) -> None:
        """Drain the logs, keep a success's outputs, delete what is not kept."""
        handle, seen = self.handle, self.observation
        succeeded = seen is not None and seen.phase == "succeeded"
        with contextlib.suppress(*TRANSIENT):  # the pods as they are now, whichever watch lagged
            fresh = [
                pod
                for selector in handle.pods
                for pod in (await self._client.list(POD, handle.namespace, labels=selector)).items
            ]
            self._logs.follow(fresh)
            outputs = _outputs(fresh) if succeeded else {}
            if outputs:
                text = json.dumps(outputs, indent=2, sort_keys=True)
                await asyncio.to_thread(self._outputs_file.write_text, text, "utf-8")
        await self._logs.drain(_DRAIN_SECONDS)
        primary = self.observer.primary.objects.get(handle.name)
        keep = succeeded and not self._stopping and _keeps(primary)
        with contextlib.suppress(*TRANSIENT):
            await self._delete(handle.objects[1:] if keep else handle.objects)


def _keeps(primary: dict[str, Any] | None) -> bool:
    """A primary with a ``ttlSecondsAfterFinished`` stays for its logs (a Job, a Kubeflow
    job's ``runPolicy``, a RayJob); anything else goes when the attempt ends."""
    if primary is None:
        return False
    spec = primary.get("spec") or {}
    return "ttlSecondsAfterFinished" in spec or "ttlSecondsAfterFinished" in (
        spec.get("runPolicy") or {}
    )
