"""KubeRay's stand-in (ray.io/v1 RayJob, RayCluster): a RayJob gets a RayCluster
``<rayjob>-raycluster-<suffix>`` and, once running, a submitter Job named after it
(container ``ray-job-submitter``); a RayCluster gets a head pod and its worker groups' pods,
labelled ``ray.io/cluster``, ``ray.io/node-type`` and ``ray.io/group`` (ray-project/kuberay).
A RayJob's status has ``jobDeploymentStatus`` and ``jobStatus``."""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.custom import Operator
from axonal_testing.kube.defaults import PREPARE, create_pod, owner_reference
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.store import Store, now, suffix
from axonal_testing.kube.watchers import Change

__all__ = ["KubeRay"]

JOB, RAYJOB, RAYCLUSTER = by_plural("jobs"), by_plural("rayjobs"), by_plural("rayclusters")


class KubeRay(Operator):
    """Makes a RayJob's cluster and a RayCluster's pods; :meth:`ray_job` moves a RayJob on."""

    def subscribe(self, store: Store) -> None:
        """Watch for new RayJobs and RayClusters."""
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """Make the cluster of a new RayJob, the pods of a new RayCluster."""
        if change.type == "ADDED" and change.res is RAYJOB:
            self._ray_cluster(change.obj)
        elif change.type == "ADDED" and change.res is RAYCLUSTER:
            self._ray_pods(change.obj)

    def _ray_cluster(self, rayjob: dict[str, Any]) -> None:
        """A RayJob's RayCluster ``<rayjob>-raycluster-<suffix>`` (KubeRay's name for it)."""
        meta = rayjob["metadata"]
        body = {
            "metadata": {
                "name": f"{meta['name']}-raycluster-{suffix()}",
                "labels": {
                    "ray.io/originated-from-crd": "RayJob",
                    "ray.io/originated-from-cr-name": meta["name"],
                },
                "ownerReferences": [owner_reference(RAYJOB, rayjob)],
            },
            "spec": rayjob.get("spec", {}).get("rayClusterSpec") or {},
        }
        cluster = self._store.create(RAYCLUSTER, meta["namespace"], body)
        self.set_status(
            RAYJOB,
            meta["namespace"],
            meta["name"],
            jobDeploymentStatus="Initializing",
            jobId=f"{meta['name']}-{suffix()}",
            rayClusterName=cluster["metadata"]["name"],
            startTime=now(),
        )

    def _ray_pods(self, cluster: dict[str, Any]) -> None:
        """A head pod and the worker groups' pods, labelled ``ray.io/cluster``,
        ``ray.io/node-type`` and ``ray.io/group``."""
        name, spec = cluster["metadata"]["name"], cluster.get("spec") or {}
        groups = [("headgroup", "head", 1, spec.get("headGroupSpec") or {})]
        for group in spec.get("workerGroupSpecs") or []:
            groups.append(
                (group.get("groupName", "workers"), "worker", int(group.get("replicas", 1)), group)
            )
        for group_name, node_type, replicas, group in groups:
            labels = {
                "ray.io/cluster": name,
                "ray.io/node-type": node_type,
                "ray.io/group": group_name,
                "ray.io/is-ray-node": "yes",
                "app.kubernetes.io/created-by": "kuberay-operator",
            }
            prefix = f"{name}-head-" if node_type == "head" else f"{name}-{group_name}-worker-"
            for _ in range(replicas):
                template = group.get("template") or {}
                create_pod(
                    self._store,
                    RAYCLUSTER,
                    cluster,
                    template,
                    name=prefix + suffix(),
                    labels=labels,
                )

    def ray_job(
        self, namespace: str, name: str, deployment_status: str, job_status: str | None = None
    ) -> None:
        """Move a RayJob: ``Running`` (cluster pods start, the submitter Job is created and
        runs; jobStatus RUNNING), ``Complete`` (SUCCEEDED) or ``Failed`` (FAILED)."""
        rayjob = self._store.require(RAYJOB, namespace, name)
        cluster_name = rayjob["status"]["rayClusterName"]
        if deployment_status == "Running":
            for pod in self.pods(RAYJOB, namespace, name):
                self.move_pod(pod, "Running", 0)
            self.set_status(RAYCLUSTER, namespace, cluster_name, state="ready")
            self._submitter(rayjob)
        for pod in self.pods(RAYJOB, namespace, name):
            if pod["metadata"]["labels"].get("job-name") == name:
                self.move_pod(pod, deployment_status, 1)
        default = {"Running": "RUNNING", "Complete": "SUCCEEDED", "Failed": "FAILED"}.get(
            deployment_status
        )
        fields: dict[str, Any] = {"jobDeploymentStatus": deployment_status}
        if job_status or default:
            fields["jobStatus"] = job_status or default
        if deployment_status in ("Complete", "Failed"):
            fields["endTime"] = now()
        self.set_status(RAYJOB, namespace, name, **fields)

    def _submitter(self, rayjob: dict[str, Any]) -> None:
        """KubeRay's submitter: a Job named after the RayJob, container ``ray-job-submitter``."""
        meta = rayjob["metadata"]
        if self._store.get(JOB, meta["namespace"], meta["name"]) is not None:
            return
        head = (rayjob.get("spec", {}).get("rayClusterSpec") or {}).get("headGroupSpec") or {}
        containers = (head.get("template") or {}).get("spec", {}).get("containers") or [{}]
        command = [
            "ray",
            "job",
            "submit",
            "--",
            *(rayjob.get("spec", {}).get("entrypoint") or "").split(),
        ]
        container = {
            "name": "ray-job-submitter",
            "image": containers[0].get("image", "rayproject/ray"),
            "command": command,
        }
        body = {
            "metadata": {
                "name": meta["name"],
                "ownerReferences": [owner_reference(RAYJOB, rayjob)],
            },
            "spec": {
                "backoffLimit": 2,
                "template": {"spec": {"restartPolicy": "Never", "containers": [container]}},
            },
        }
        self._store.create(JOB, meta["namespace"], body, lambda j: PREPARE["jobs"](JOB, j))
