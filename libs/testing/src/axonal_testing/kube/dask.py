"""The Dask operator's stand-in (kubernetes.dask.org/v1 DaskJob, DaskCluster): a DaskJob
gets a DaskCluster of its name and a runner pod ``<job>-runner``; a DaskCluster gets a
scheduler pod and the default worker group's pods (made directly, without a
DaskWorkerGroup), labelled ``dask.org/cluster-name`` and ``dask.org/component``
(dask/dask-kubernetes). A DaskJob's ``status.jobStatus`` goes JobCreated, ClusterCreated,
Running, Successful or Failed."""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.custom import Operator
from axonal_testing.kube.defaults import create_pod, owner_reference
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.store import Store, now, suffix
from axonal_testing.kube.watchers import Change

__all__ = ["DaskOperator"]

POD, DASKJOB, DASKCLUSTER = by_plural("pods"), by_plural("daskjobs"), by_plural("daskclusters")


class DaskOperator(Operator):
    """Makes a DaskJob's cluster and runner, a DaskCluster's pods; :meth:`dask_job` moves
    a DaskJob on."""

    def subscribe(self, store: Store) -> None:
        """Watch for new DaskJobs and DaskClusters."""
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """Make the cluster and runner of a new DaskJob, the pods of a new DaskCluster."""
        if change.type == "ADDED" and change.res is DASKJOB:
            self._dask_cluster(change.obj)
        elif change.type == "ADDED" and change.res is DASKCLUSTER:
            self._dask_pods(change.obj)

    def _dask_cluster(self, daskjob: dict[str, Any]) -> None:
        """A DaskJob's DaskCluster (same name) and its runner pod ``<job>-runner``."""
        meta = daskjob["metadata"]
        spec = daskjob.get("spec") or {}
        body = {
            "metadata": {
                "name": meta["name"],
                "ownerReferences": [owner_reference(DASKJOB, daskjob)],
            },
            "spec": spec.get("cluster", {}).get("spec") or {},
        }
        self._store.create(DASKCLUSTER, meta["namespace"], body)
        labels = {"dask.org/cluster-name": meta["name"], "dask.org/component": "job-runner"}
        runner = create_pod(
            self._store,
            DASKJOB,
            daskjob,
            spec.get("job") or {},
            name=f"{meta['name']}-runner",
            labels=labels,
        )
        self.set_status(
            DASKJOB,
            meta["namespace"],
            meta["name"],
            jobStatus="JobCreated",
            clusterName=meta["name"],
            jobRunnerPodName=runner["metadata"]["name"],
        )

    def _dask_pods(self, cluster: dict[str, Any]) -> None:
        """The scheduler pod and the default worker group's pods, labelled ``dask.org/*``."""
        name, spec = cluster["metadata"]["name"], cluster.get("spec") or {}
        base = {"dask.org/cluster-name": name}
        scheduler = spec.get("scheduler") or {}
        create_pod(
            self._store,
            DASKCLUSTER,
            cluster,
            scheduler,
            name=f"{name}-scheduler",
            labels={**base, "dask.org/component": "scheduler"},
        )
        worker = spec.get("worker") or {}
        labels = {**base, "dask.org/component": "worker", "dask.org/workergroup-name": "default"}
        for _ in range(int(worker.get("replicas", 1))):
            create_pod(
                self._store,
                DASKCLUSTER,
                cluster,
                worker,
                name=f"{name}-default-worker-{suffix()}",
                labels=labels,
            )
        self.set_status(DASKCLUSTER, cluster["metadata"]["namespace"], name, phase="Created")

    def dask_job(self, namespace: str, name: str, job_status: str) -> None:
        """Move a DaskJob: ``ClusterCreated`` (cluster pods start), ``Running`` (the runner
        starts), ``Successful`` (it exits 0) or ``Failed`` (it exits 1)."""
        pods = self.pods(DASKJOB, namespace, name)
        if job_status == "ClusterCreated":
            for pod in pods:
                if pod["metadata"]["labels"]["dask.org/component"] != "job-runner":
                    self.move_pod(pod, "Running", 0)
            self.set_status(DASKCLUSTER, namespace, name, phase="Running")
        for pod in pods:
            runner = pod["metadata"]["labels"]["dask.org/component"] == "job-runner"
            if runner and job_status in ("Running", "Successful", "Failed"):
                self.move_pod(pod, "Running", 0)
                self.move_pod(
                    self._store.require(POD, namespace, pod["metadata"]["name"]), job_status, 1
                )
        fields: dict[str, Any] = {"jobStatus": job_status}
        if job_status == "Running":
            fields["startTime"] = now()
        if job_status in ("Successful", "Failed"):
            fields["endTime"] = now()
        self.set_status(DASKJOB, namespace, name, **fields)
