"""KubeRay's stand-in (ray.io/v1 RayJob, RayCluster): a RayJob gets a RayCluster
``<rayjob>-raycluster-<suffix>`` and, once running, a submitter Job named after it
(container ``ray-job-submitter``); a RayCluster gets a head pod and its worker groups' pods,
labelled ``ray.io/cluster``, ``ray.io/node-type`` and ``ray.io/group`` (ray-project/kuberay).
A RayJob's status has ``jobDeploymentStatus`` and ``jobStatus``.

A Ray pod that ended (``Succeeded`` or ``Failed``: evicted, say) is deleted, and a pod that
is gone is made again while its RayCluster stands (``raycluster_controller.go``
``shouldDeletePod``: "KubeRay will delete the Pod and create new Pods in the next
reconciliation"); a container that crashed is the kubelet's to restart (the pods restart
``Always`` unless their template says otherwise)."""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.custom import Operator
from axonal_testing.kube.defaults import PREPARE, create_pod, owner_reference
from axonal_testing.kube.gc import delete
from axonal_testing.kube.jobs import controller_of
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.store import Store, now, suffix
from axonal_testing.kube.watchers import Change

__all__ = ["KubeRay"]

JOB, RAYJOB, RAYCLUSTER = by_plural("jobs"), by_plural("rayjobs"), by_plural("rayclusters")
POD = by_plural("pods")


class KubeRay(Operator):
    """Makes a RayJob's cluster and a RayCluster's pods; :meth:`ray_job` moves a RayJob on."""

    def subscribe(self, store: Store) -> None:
        """Watch for new RayJobs and RayClusters."""
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """Make the cluster of a new RayJob, the pods of a new RayCluster; replace its pods
        that ended."""
        if change.type == "ADDED" and change.res is RAYJOB:
            self._ray_cluster(change.obj)
        elif change.type == "ADDED" and change.res is RAYCLUSTER:
            self._ray_pods(change.obj)
        elif change.res is POD and (controller_of(change.obj) or {}).get("kind") == "RayCluster":
            self._replace(change)

    def _replace(self, change: Change) -> None:
        """Delete a Ray pod that ended; make a gone one again."""
        meta = change.obj["metadata"]
        ns, cluster_name = meta["namespace"], meta["labels"]["ray.io/cluster"]
        cluster = self._store.get(RAYCLUSTER, ns, cluster_name)
        if cluster is None or cluster["metadata"].get("deletionTimestamp"):
            return
        if change.type == "DELETED":
            labels = meta["labels"]
            group_name, node_type, _, group = next(
                g for g in self._groups(cluster) if g[0] == labels["ray.io/group"]
            )
            self._ray_pod(cluster, group_name, node_type, group)
            return
        pod = self._store.get(POD, ns, meta["name"]) or {"metadata": {}, "status": {}}
        ended = pod["status"].get("phase") in ("Succeeded", "Failed")
        if ended and not pod["metadata"].get("deletionTimestamp"):
            delete(self._store, POD, ns, meta["name"], "Background")

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
        for group_name, node_type, replicas, group in self._groups(cluster):
            for _ in range(replicas):
                self._ray_pod(cluster, group_name, node_type, group)

    @staticmethod
    def _groups(cluster: dict[str, Any]) -> list[tuple[str, str, int, dict[str, Any]]]:
        """``(group name, node type, replicas, group spec)``: the head's, then the workers'."""
        spec = cluster.get("spec") or {}
        groups = [("headgroup", "head", 1, spec.get("headGroupSpec") or {})]
        for group in spec.get("workerGroupSpecs") or []:
            groups.append(
                (group.get("groupName", "workers"), "worker", int(group.get("replicas", 1)), group)
            )
        return groups

    def _ray_pod(
        self, cluster: dict[str, Any], group_name: str, node_type: str, group: dict[str, Any]
    ) -> None:
        """One pod of a group: ``<cluster>-head-<suffix>``, or
        ``<cluster>-<group>-worker-<suffix>``."""
        name = cluster["metadata"]["name"]
        labels = {
            "ray.io/cluster": name,
            "ray.io/node-type": node_type,
            "ray.io/group": group_name,
            "ray.io/is-ray-node": "yes",
            "app.kubernetes.io/created-by": "kuberay-operator",
        }
        prefix = f"{name}-head-" if node_type == "head" else f"{name}-{group_name}-worker-"
        template = group.get("template") or {}
        create_pod(
            self._store, RAYCLUSTER, cluster, template, name=prefix + suffix(), labels=labels
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
