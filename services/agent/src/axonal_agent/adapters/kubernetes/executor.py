"""The Kubernetes executor: each attempt is a workload on the cluster, in its queue's
namespace, built by :func:`~axonal_agent.domain.kube.build_workload` from the compiled run.

``start`` creates the attempt's Secret, then its objects, primary first (an object that
exists already was made by an earlier launch of the same attempt: it is watched as it is),
and writes the builder's notes to the run's log. ``prepare`` only makes the attempt's folder
on the agent's host (logs, outputs): the ``init`` steps run in the pods, as init containers.
``adopt`` re-attaches to the workload an earlier life of the agent left; ``sweep`` deletes
the workloads and Secrets labelled with this agent that no open attempt has.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import structlog
from kubernetes_asyncio.client import ApiClient
from kubernetes_asyncio.client.exceptions import ApiException

from axonal_agent.adapters.kubernetes.client import SECRET, KubeClient, refusal
from axonal_agent.adapters.kubernetes.feeds import TRANSIENT
from axonal_agent.adapters.kubernetes.handle import Timing
from axonal_agent.adapters.kubernetes.launch import (
    PRIMARY_KINDS,
    adopted_handle,
    handle_of,
    kind_of,
    secret_manifest,
    target_of,
)
from axonal_agent.adapters.kubernetes.process import KubeProcess
from axonal_agent.domain.init_steps import InitStep
from axonal_agent.domain.kube import Cluster, Kind, build_workload
from axonal_agent.domain.kube.target import (
    AGENT_LABEL,
    ATTEMPT_LABEL,
    RUN_UUID_LABEL,
    label_value,
    workload_name,
)
from axonal_agent.domain.kube.workload import DASK_AUTOSCALER, SERVICE
from axonal_agent.ports import LogSink, Orphan, ProcessSpec, SetupError

__all__ = ["KubernetesExecutor"]

logger = structlog.get_logger(__name__)

#: What a sweep looks at: every kind the agent creates.
_SWEPT = (*PRIMARY_KINDS, SERVICE, DASK_AUTOSCALER, SECRET)


def _why(error: Exception) -> str:
    if isinstance(error, ApiException):
        return refusal(error)
    return f"{type(error).__name__}: {error}"


class KubernetesExecutor:
    """Runs attempts as workloads of ``cluster`` (see the module docstring); ``connect``
    makes the API client, once, on first use."""

    runs_images = True
    outlives_agent = True

    def __init__(
        self,
        cluster: Cluster,
        *,
        agent: str,
        connect: Callable[[], Awaitable[ApiClient]],
        namespaces: Mapping[str, str] | None = None,
        timing: Timing | None = None,
    ) -> None:
        self.cluster, self.agent = cluster, agent
        self.namespaces = dict(namespaces or {})
        self.timing = timing or Timing()
        self._connect = connect
        self._client: KubeClient | None = None
        self._lock = asyncio.Lock()

    async def client(self) -> KubeClient:
        async with self._lock:
            if self._client is None:
                self._client = KubeClient(await self._connect())
            return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def prepare(self, folder: Path, steps: Sequence[InitStep], log: LogSink) -> None:
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)

    async def start(self, spec: ProcessSpec, log: LogSink) -> KubeProcess:
        launch = spec.launch
        if launch is None:
            raise SetupError("StartFailed", "the Kubernetes executor needs the compiled run")
        cluster = replace(self.cluster, namespace=self._namespace(launch.queue))
        target = target_of(launch, cluster, self.agent)
        workload = build_workload(launch.run, target)  # InvalidRunError: the spec's fault
        for note in workload.notes:
            log("agent", f"kubernetes: {note}")
        client = await self.client()
        secret = secret_manifest(target, launch.context)
        made = [*([secret] if secret is not None else []), *workload.objects]
        done: list[tuple[Kind, str]] = []
        try:
            for obj in made:
                kind, name = kind_of(obj), str(obj["metadata"]["name"])
                _, created = await client.create(kind, target.namespace, obj)
                done.append((kind, name))
                if not created:
                    log("agent", f"kubernetes: {obj['kind']} {name} exists")
        except TRANSIENT as exc:
            with contextlib.suppress(*TRANSIENT):  # what was made goes (else the next sweep)
                for kind, name in reversed(done):
                    await client.delete(kind, target.namespace, name)
            raise SetupError("StartFailed", f"kubernetes refused the run: {_why(exc)}") from None
        where = f"{workload.kind.kind} {target.namespace}/{workload.name}"
        log("agent", f"kubernetes: {where} created; pods {workload.label_selector}")
        process = KubeProcess(
            client,
            handle_of(workload, target.secret),
            log,
            launch.outputs_file,
            self.timing,
            timeout=launch.timeout,
        )
        process.start()
        return process

    async def reap(self, pid: int, started_at: datetime | None) -> bool:
        """No process of this host to end: what is left is adopted or swept."""
        return False

    def _namespace(self, queue: str) -> str:
        return self.namespaces.get(queue) or self.cluster.namespace

    async def adopt(self, orphan: Orphan, log: LogSink) -> KubeProcess | None:
        client = await self.client()
        namespace = self._namespace(orphan.queue)
        name = workload_name(orphan.run_uuid, orphan.attempt)
        hex_uuid = uuid.UUID(orphan.run_uuid).hex
        for kind in PRIMARY_KINDS:
            try:
                found = await client.get(kind, namespace, name)
            except ApiException as exc:
                if exc.status == 403:  # a kind the agent may not use: not one it launched
                    continue
                raise
            labels = ((found or {}).get("metadata") or {}).get("labels") or {}
            if found is None or labels.get(RUN_UUID_LABEL) != hex_uuid:
                continue
            handle = adopted_handle(kind, orphan.run_uuid, orphan.attempt, namespace)
            log("agent", f"kubernetes: the agent restarted; following {kind.kind} {name} again")
            process = KubeProcess(
                client,
                handle,
                log,
                orphan.outputs_file,
                self.timing,
                since=orphan.logged_until,
            )
            process.start()
            return process
        return None

    async def sweep(self, keep: Collection[tuple[str, int]]) -> int:
        client = await self.client()
        kept = {(uuid.UUID(run).hex, str(attempt)) for run, attempt in keep}
        mine = f"{AGENT_LABEL}={label_value(self.agent)}"
        swept = 0
        for namespace in sorted({self.cluster.namespace, *self.namespaces.values()}):
            for kind in _SWEPT:
                try:
                    listing = await client.list(kind, namespace, labels=mine)
                except ApiException as exc:
                    if exc.status in (403, 404):  # not served here, or not ours to see
                        continue
                    raise
                for obj in listing.items:
                    labels = obj["metadata"].get("labels") or {}
                    if (labels.get(RUN_UUID_LABEL), labels.get(ATTEMPT_LABEL)) in kept:
                        continue
                    name = obj["metadata"]["name"]
                    if await client.delete(kind, namespace, name) and kind in PRIMARY_KINDS:
                        swept += 1
                        logger.warning("kube.swept", kind=kind.kind, name=name, namespace=namespace)
        return swept
