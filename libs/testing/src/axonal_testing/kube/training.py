"""The Kubeflow training operator's stand-in (kubeflow.org/v1 TFJob, PyTorchJob, MPIJob,
XGBoostJob, PaddleJob): pods ``<job>-<replica type>-<index>`` labelled
``training.kubeflow.org/{job-name,replica-type,replica-index,job-role}``, and the job
conditions ``Created``, ``Running``, ``Succeeded``/``Failed`` with reasons ``<Kind><Type>``
(kubeflow/training-operator, ``pkg/controller.v1/common``)."""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.custom import Operator
from axonal_testing.kube.defaults import create_pod
from axonal_testing.kube.kubelet import set_condition
from axonal_testing.kube.resources import Resource, by_plural
from axonal_testing.kube.store import Store, now
from axonal_testing.kube.watchers import Change

__all__ = ["TRAINING", "TrainingOperator"]

# plural -> the replica specs field
TRAINING = {
    "tfjobs": "tfReplicaSpecs",
    "pytorchjobs": "pytorchReplicaSpecs",
    "mpijobs": "mpiReplicaSpecs",
    "xgboostjobs": "xgbReplicaSpecs",
    "paddlejobs": "paddleReplicaSpecs",
}
_LEADERS = ("master", "chief", "launcher")


class TrainingOperator(Operator):
    """Makes a training job's pods on create; :meth:`training` moves it on."""

    def subscribe(self, store: Store) -> None:
        """Watch for new training jobs."""
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """Make the pods of a new training job."""
        if change.type == "ADDED" and change.res.plural in TRAINING:
            self._training_pods(change.res, change.obj)

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
            self.move_pod(pod, state, exit_code)
        text = {
            "Running": "is running.",
            "Succeeded": "successfully completed.",
            "Failed": "has failed.",
        }
        self._training_condition(res, namespace, name, state, text[state])
