"""The Kubernetes API double: a store, its controllers, and an HTTP server on a free port."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from axonal_testing.kube.gc import Deletion, GarbageCollector
from axonal_testing.kube.jobs import JobController
from axonal_testing.kube.kubelet import Kubelet
from axonal_testing.kube.logs import LogBook
from axonal_testing.kube.operators import Operators
from axonal_testing.kube.replicas import ReplicaControllers
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.scenarios import Scenarios, Step, main_pod
from axonal_testing.kube.selectors import label_matcher
from axonal_testing.kube.server import build_app
from axonal_testing.kube.store import Store

if TYPE_CHECKING:
    from kubernetes_asyncio.client import ApiClient

__all__ = ["KubeDouble"]

POD, JOB = by_plural("pods"), by_plural("jobs")


class KubeDouble:
    """A test double of the Kubernetes API server, with stand-ins for its controllers.

    ``url`` is where it serves once :meth:`start` ran. The scripting API:

    - ``kubelet``: pod steps (``schedule``, ``unschedulable``, ``pull_failed``, ``start``,
      ``terminate``, ``evict``, ``node_not_ready``, ``lose_node``);
    - ``scenarios``: the scripted sequences of a Job's pod (``scenarios.of(plural)``: of
      another kind's main pod), replayed with :meth:`play`;
    - ``operators``: the custom resources' operators (``training``, ``ray_job``,
      ``dask_job``, ``set_status``, ``pods``);
    - :meth:`log` appends container log lines, :meth:`patch_status` changes a status,
      :meth:`compact` forgets the watch history (410 Gone after), :meth:`bookmark` sends
      BOOKMARK events, :meth:`outage` takes the server away for a while, ``deletions``
      records every DELETE and its propagation policy.
    """

    def __init__(self) -> None:
        self.store = Store()
        self.logs = LogBook()
        self.deletions: list[Deletion] = []
        GarbageCollector(self.store)
        self.kubelet = Kubelet(self.store, self.logs)
        self.jobs = JobController(self.store)
        ReplicaControllers(self.store)
        self.operators = Operators(self.store, self.kubelet)
        self.scenarios = Scenarios(self.kubelet, self.store)
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Serve on ``host`` at ``port`` (0: a free one); ``url`` says where."""
        self._runner = web.AppRunner(
            build_app(self.store, self.logs, self.deletions), access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound_host, bound_port = self._runner.addresses[0][:2]
        self.url = f"http://{bound_host}:{bound_port}"

    @contextlib.asynccontextmanager
    async def outage(self) -> AsyncIterator[None]:
        """The API server is away inside the block: its watches and log streams are cut,
        nothing answers; then it serves again at the same ``url``. The store and the
        controllers go on (script changes meanwhile: clients see them only by listing or
        watching again)."""
        if self._runner is None:
            raise RuntimeError("the double is not serving")
        host, port = self._runner.addresses[0][:2]
        self.store.close()
        await self._runner.cleanup()
        self._runner = None
        try:
            yield
        finally:
            await self.start(host, port)

    async def stop(self) -> None:
        """End every watch and log stream, then stop serving."""
        self.store.close()
        self.logs.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def api_client(self) -> ApiClient:
        """A ``kubernetes_asyncio`` client for this double (use it with ``async with``)."""
        from kubernetes_asyncio.client import ApiClient, Configuration  # noqa: PLC0415

        return ApiClient(configuration=Configuration(host=self.url))

    # reading state

    @property
    def revision(self) -> int:
        """The last resourceVersion given out."""
        return self.store.revision

    def get(self, plural: str, namespace: str, name: str) -> dict[str, Any] | None:
        """An object as stored, or ``None``."""
        return self.store.get(by_plural(plural), namespace, name)

    def pods(self, namespace: str, label_selector: str = "") -> list[dict[str, Any]]:
        """The pods of a namespace matching a label selector."""
        return self.store.find(POD, namespace, label_matcher(label_selector))

    def job_pod(self, namespace: str, job: str) -> str:
        """The name of the Job's current pod (the one still running, else the last one)."""
        return self.jobs.current_pod(namespace, job)

    def main_pod(self, plural: str, namespace: str, name: str) -> str:
        """The name of a workload's main pod (:func:`~axonal_testing.kube.scenarios.main_pod`):
        a Deployment's current replica, a training job's master, a RayJob's head..."""
        return main_pod(self.store, plural, namespace, name)

    # scripting

    def log(self, namespace: str, pod: str, *lines: str, container: str = "") -> None:
        """Append lines to a container's log (the pod's first container by default)."""
        self.kubelet.log(namespace, pod, *lines, container=container)

    def patch_status(self, plural: str, namespace: str, name: str, **fields: Any) -> dict[str, Any]:
        """Merge ``fields`` into an object's status (the one way to change a status). The
        Job, Deployment and ReplicaSet stand-ins recompute the statuses they own, as their
        controllers would: drive those through ``kubelet`` and ``scenarios`` instead."""
        return self.store.update(
            by_plural(plural), namespace, name, lambda o: o.setdefault("status", {}).update(fields)
        )

    def compact(self, revision: int | None = None) -> None:
        """Forget the change history up to ``revision`` (default: all of it)."""
        self.store.compact(revision)

    def bookmark(self) -> None:
        """Send a BOOKMARK to the watches that allow them."""
        self.store.bookmark()

    async def play(self, steps: Iterable[Step], pause: float = 0.0) -> None:
        """Run scripted steps in order, ``pause`` seconds apart, so watchers see each one."""
        for step in steps:
            step.run()
            await asyncio.sleep(pause)
