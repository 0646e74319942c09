"""Stand-ins for the operators behind the custom resources: the Kubeflow training operator,
KubeRay and the Dask operator. On create they make the pods their operator makes, labelled
the same way (so pod watches and log streaming work as against the real operator); the
test then moves each job through its states with :meth:`Operators.training`,
:meth:`Operators.ray_job` and :meth:`Operators.dask_job`.
"""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.defaults import PREPARE, create_pod, owner_reference
from axonal_testing.kube.jobs import controller_of
from axonal_testing.kube.kubelet import Kubelet, set_condition
from axonal_testing.kube.resources import Resource, by_plural
from axonal_testing.kube.store import Store, now, suffix
from axonal_testing.kube.watchers import Change

__all__ = ["TRAINING", "Operators"]

POD, JOB = by_plural("pods"), by_plural("jobs")
RAYJOB, RAYCLUSTER = by_plural("rayjobs"), by_plural("rayclusters")
DASKJOB, DASKCLUSTER = by_plural("daskjobs"), by_plural("daskclusters")

# plural -> the replica specs field (kubeflow/training-operator, kubeflow.org/v1 API).
TRAINING = {
    "tfjobs": "tfReplicaSpecs",
    "pytorchjobs": "pytorchReplicaSpecs",
    "mpijobs": "mpiReplicaSpecs",
    "xgboostjobs": "xgbReplicaSpecs",
    "paddlejobs": "paddleReplicaSpecs",
}
_LEADERS = ("master", "chief", "launcher")


class Operators:
    """Creates operator pods on create; moves custom resources through their states."""

    def __init__(self, store: Store, kubelet: Kubelet) -> None:
        self._store, self._kubelet = store, kubelet
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """Make the pods of a newly created custom resource."""
        if change.type != "ADDED":
            return
        obj, plural = change.obj, change.res.plural
        if plural in TRAINING:
            self._training_pods(change.res, obj)
        elif change.res is RAYCLUSTER:
            self._ray_pods(obj)
        elif change.res is RAYJOB:
            self._ray_cluster(obj)
        elif change.res is DASKCLUSTER:
            self._dask_pods(obj)
        elif change.res is DASKJOB:
            self._dask_cluster(obj)

    def pods(self, res: Resource, namespace: str, name: str) -> list[dict[str, Any]]:
        """The pods a custom resource's operator made for it (directly or via its cluster)."""
        owner = self._store.require(res, namespace, name)
        uids = {owner["metadata"]["uid"]}
        for dep_res, dep in self._store.dependents(owner["metadata"]["uid"]):
            if dep_res is not POD:
                uids.add(dep["metadata"]["uid"])
        for dep_res, dep in list(self._store.dependents(owner["metadata"]["uid"])):
            if dep_res is RAYCLUSTER or dep_res is DASKCLUSTER:
                uids |= {
                    d["metadata"]["uid"]
                    for r, d in self._store.dependents(dep["metadata"]["uid"])
                    if r is JOB
                }
        return self._store.find(
            POD, namespace, lambda p: (controller_of(p) or {}).get("uid") in uids
        )

    def set_status(self, res: Resource, namespace: str, name: str, **fields: Any) -> None:
        """Merge ``fields`` into the object's status."""
        self._store.update(
            res, namespace, name, lambda o: o.setdefault("status", {}).update(fields)
        )

    # the training operator

    def _training_pods(self, res: Resource, job: dict[str, Any]) -> None:
        """Pods ``<job>-<replica type>-<index>`` labelled ``training.kubeflow.org/*``."""
        name = job["metadata"]["name"]
        specs = job.get("spec", {}).get(TRAINING[res.plural]) or {}
        for rtype, spec in specs.items():
            for index in range(int(spec.get("replicas", 1))):
                labels = {
                    "training.kubeflow.org/operator-name": f"{res.kind.lower()}-controller",
                    "training.kubeflow.org/job-name": name,
                    "training.kubeflow.org/replica-type": rtype.lower(),
                    "training.kubeflow.org/replica-index": str(index),
                }
                if rtype.lower() in _LEADERS:
                    labels["training.kubeflow.org/job-role"] = "master"
                pod_name = f"{name}-{rtype.lower()}-{index}"
                create_pod(
                    self._store, res, job, spec.get("template") or {}, name=pod_name, labels=labels
                )
        self._training_condition(res, job["metadata"]["namespace"], name, "Created", "is created.")

    def _training_condition(
        self, res: Resource, namespace: str, name: str, kind: str, text: str
    ) -> None:
        def write(job: dict[str, Any]) -> None:
            status = job.setdefault("status", {})
            conditions = status.setdefault("conditions", [])
            if kind in ("Succeeded", "Failed"):  # a finished job is no longer Running
                for c in conditions:
                    if c["type"] == "Running":
                        set_condition(
                            conditions, "Running", "False", c.get("reason"), c.get("message")
                        )
            set_condition(
                conditions, kind, "True", f"{res.kind}{kind}", f"{res.kind} {name} {text}"
            )
            specs = job.get("spec", {}).get(TRAINING[res.plural]) or {}
            counter = {
                "Created": "",
                "Running": "active",
                "Succeeded": "succeeded",
                "Failed": "failed",
            }[kind]
            status["replicaStatuses"] = {
                rtype: ({counter: int(spec.get("replicas", 1))} if counter else {})
                for rtype, spec in specs.items()
            }
            if kind == "Running":
                status.setdefault("startTime", now())
            if kind == "Succeeded":
                status["completionTime"] = now()

        self._store.update(res, namespace, name, write)

    def training(
        self, plural: str, namespace: str, name: str, state: str, exit_code: int = 1
    ) -> None:
        """Move a training job to ``Running`` (its pods start), ``Succeeded`` (they exit 0)
        or ``Failed`` (they exit ``exit_code``), with the operator's condition and reason
        (``<Kind>Running``, ``<Kind>Succeeded``, ``<Kind>Failed``)."""
        res = by_plural(plural)
        for pod in self.pods(res, namespace, name):
            self._move_pod(pod, state, exit_code)
        text = {
            "Running": "is running.",
            "Succeeded": "successfully completed.",
            "Failed": "has failed.",
        }
        self._training_condition(res, namespace, name, state, text[state])

    def _move_pod(self, pod: dict[str, Any], state: str, exit_code: int) -> None:
        ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        phase = pod.get("status", {}).get("phase")
        if state == "Running" and phase == "Pending":
            if not pod["spec"].get("nodeName"):
                self._kubelet.schedule(ns, name)
            self._kubelet.start(ns, name)
        elif state in ("Succeeded", "Failed", "Complete", "Successful") and phase == "Running":
            self._kubelet.terminate(ns, name, 0 if state != "Failed" else exit_code)

    # KubeRay

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
                self._move_pod(pod, "Running", 0)
            self.set_status(RAYCLUSTER, namespace, cluster_name, state="ready")
            self._submitter(rayjob)
        for pod in self.pods(RAYJOB, namespace, name):
            if pod["metadata"]["labels"].get("job-name") == name:
                self._move_pod(pod, deployment_status, 1)
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

    # the Dask operator

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
                    self._move_pod(pod, "Running", 0)
            self.set_status(DASKCLUSTER, namespace, name, phase="Running")
        for pod in pods:
            runner = pod["metadata"]["labels"]["dask.org/component"] == "job-runner"
            if runner and job_status in ("Running", "Successful", "Failed"):
                self._move_pod(pod, "Running", 0)
                self._move_pod(
                    self._store.require(POD, namespace, pod["metadata"]["name"]), job_status, 1
                )
        fields: dict[str, Any] = {"jobStatus": job_status}
        if job_status == "Running":
            fields["startTime"] = now()
        if job_status in ("Successful", "Failed"):
            fields["endTime"] = now()
        self.set_status(DASKJOB, namespace, name, **fields)
