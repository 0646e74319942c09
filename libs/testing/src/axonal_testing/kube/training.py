"""The Kubeflow training operator's stand-in (kubeflow.org/v1 TFJob, PyTorchJob, MPIJob,
XGBoostJob, PaddleJob): pods ``<job>-<replica type>-<index>`` labelled
``training.kubeflow.org/{job-name,replica-type,replica-index,job-role}``, and the job
conditions ``Created``, ``Running``, ``Succeeded``/``Failed`` with reasons ``<Kind><Type>``
(kubeflow/training-operator v1.9, ``pkg/controller.v1/common``).

A pod gets its replica spec's ``restartPolicy`` (``ExitCode`` as ``Never``; each kind's
default when unset: ``pkg/core/pod.go`` ``SetRestartPolicy``, ``pkg/apis/kubeflow.org/v1``
``*DefaultRestartPolicy``). A replica pod that fails, restarting ``Never``, fails its job
(``common/job.go`` ``ReconcileJobs``): with a ``runPolicy.backoffLimit`` the job "has failed
because it has reached the specified backoff limit" and every pod of the job is deleted,
failed ones included, whatever the ``cleanPodPolicy`` (the deletion comes before the
``Failed`` condition it checks: kubeflow/trainer#3419); without one, the kind's
``UpdateJobStatus`` says how many replicas failed and ``cleanPodPolicy`` applies (``Running``,
the default: the pods still pending or running are deleted).
"""

from __future__ import annotations

import copy
from typing import Any

from axonal_testing.kube.custom import Operator
from axonal_testing.kube.defaults import create_pod
from axonal_testing.kube.gc import delete
from axonal_testing.kube.jobs import controller_of
from axonal_testing.kube.kubelet import set_condition
from axonal_testing.kube.resources import Resource, by_kind, by_plural
from axonal_testing.kube.store import Store, now
from axonal_testing.kube.watchers import Change

__all__ = ["TRAINING", "TrainingOperator"]

POD = by_plural("pods")
# plural -> the replica specs field
TRAINING = {
    "tfjobs": "tfReplicaSpecs",
    "pytorchjobs": "pytorchReplicaSpecs",
    "mpijobs": "mpiReplicaSpecs",
    "xgboostjobs": "xgbReplicaSpecs",
    "paddlejobs": "paddleReplicaSpecs",
}
#: plural -> the replicas' restart policy when their spec sets none.
_RESTART = {
    "tfjobs": "Never",
    "pytorchjobs": "OnFailure",
    "mpijobs": "Never",
    "xgboostjobs": "Never",
    "paddlejobs": "OnFailure",
}
_LEADERS = ("master", "chief", "launcher")


def _finished(job: dict[str, Any]) -> bool:
    conditions = (job.get("status") or {}).get("conditions") or []
    done = ("Succeeded", "Failed")
    return any(c["type"] in done and c["status"] == "True" for c in conditions)


class TrainingOperator(Operator):
    """Makes a training job's pods on create, fails it when a replica fails;
    :meth:`training` moves it on."""

    def subscribe(self, store: Store) -> None:
        """Watch for new training jobs and their pods."""
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """Make the pods of a new training job; fail the job of a replica that failed."""
        if change.type == "ADDED" and change.res.plural in TRAINING:
            self._training_pods(change.res, change.obj)
        elif change.res is POD and change.type != "DELETED":
            self._replica_failed(change.obj)

    def _training_pods(self, res: Resource, job: dict[str, Any]) -> None:
        """Pods ``<job>-<replica type>-<index>`` labelled ``training.kubeflow.org/*``."""
        name = job["metadata"]["name"]
        specs = job.get("spec", {}).get(TRAINING[res.plural]) or {}
        for rtype, spec in specs.items():
            template = copy.deepcopy(spec.get("template") or {})
            policy = spec.get("restartPolicy") or _RESTART[res.plural]
            template.setdefault("spec", {})["restartPolicy"] = (
                "Never" if policy == "ExitCode" else policy
            )
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
                create_pod(self._store, res, job, template, name=pod_name, labels=labels)
        self._training_condition(res, job["metadata"]["namespace"], name, "Created", "is created.")

    def _replica_failed(self, changed: dict[str, Any]) -> None:
        """A replica pod that failed, restarting ``Never``, fails its job (module docstring)."""
        meta = changed["metadata"]
        pod = self._store.get(POD, meta["namespace"], meta["name"]) or changed
        ref = controller_of(pod) or {}
        res = by_kind(ref.get("apiVersion", ""), ref.get("kind", ""))
        if res is None or res.plural not in TRAINING or pod["status"].get("phase") != "Failed":
            return
        job = self._store.get(res, meta["namespace"], ref["name"])
        if job is None or job["metadata"].get("deletionTimestamp") or _finished(job):
            return
        if pod["spec"].get("restartPolicy") != "Never":
            return
        name, run_policy = ref["name"], job.get("spec", {}).get("runPolicy") or {}
        pods = self.pods(res, meta["namespace"], name)
        if run_policy.get("backoffLimit") is not None:
            text = f"Job {name} has failed because it has reached the specified backoff limit"
            doomed = pods
        else:
            rtype = pod["metadata"]["labels"]["training.kubeflow.org/replica-type"]
            failed = sum(
                p["status"].get("phase") == "Failed"
                and p["metadata"]["labels"]["training.kubeflow.org/replica-type"] == rtype
                for p in pods
            )
            replica = next(k for k in job["spec"][TRAINING[res.plural]] if k.lower() == rtype)
            text = f"{res.kind} {name} is failed because {failed} {replica} replica(s) failed."
            clean = run_policy.get("cleanPodPolicy") or "Running"
            live = ("Pending", "Running")
            doomed = [p for p in pods if clean == "All" or p["status"].get("phase") in live]
            doomed = [] if clean == "None" else doomed
        for doomed_pod in doomed:
            m = doomed_pod["metadata"]
            if self._store.get(POD, m["namespace"], m["name"]) is not None:
                delete(self._store, POD, m["namespace"], m["name"], "Background")
        self._fail(res, meta["namespace"], name, text)

    def _fail(self, res: Resource, namespace: str, name: str, text: str) -> None:
        def write(job: dict[str, Any]) -> None:
            status = job.setdefault("status", {})
            conditions = status.setdefault("conditions", [])
            for c in conditions:
                if c["type"] == "Running":
                    set_condition(conditions, "Running", "False", c.get("reason"), c.get("message"))
            set_condition(conditions, "Failed", "True", f"{res.kind}Failed", text)
            status.setdefault("completionTime", now())

        self._store.update(res, namespace, name, write)

    def _training_condition(
        self, res: Resource, namespace: str, name: str, kind: str, text: str
    ) -> None:
        def write(job: dict[str, Any]) -> None:
            status = job.setdefault("status", {})
            conditions = status.setdefault("conditions", [])
            if kind == "Succeeded":  # a finished job is no longer Running
                for c in conditions:
                    if c["type"] == "Running":
                        set_condition(
                            conditions, "Running", "False", c.get("reason"), c.get("message")
                        )
            set_condition(
                conditions, kind, "True", f"{res.kind}{kind}", f"{res.kind} {name} {text}"
            )
            specs = job.get("spec", {}).get(TRAINING[res.plural]) or {}
            counter = {"Created": "", "Running": "active", "Succeeded": "succeeded"}[kind]
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
        """Move a training job to ``Running`` (its pods start) or ``Succeeded`` (they exit
        0), with the operator's condition and reason (``<Kind>Running``,
        ``<Kind>Succeeded``); ``Failed``: its leader (else first) pod's containers exit
        ``exit_code``, and the operator reacts as to any replica that fails."""
        res = by_plural(plural)
        pods = self.pods(res, namespace, name)
        if state == "Failed":
            leaders = [
                p for p in pods if "training.kubeflow.org/job-role" in p["metadata"]["labels"]
            ]
            self.move_pod((leaders or pods)[0], state, exit_code)
            return
        for pod in pods:
            self.move_pod(pod, state, exit_code)
        text = {"Running": "is running.", "Succeeded": "successfully completed."}
        self._training_condition(res, namespace, name, state, text[state])
