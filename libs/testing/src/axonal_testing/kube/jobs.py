"""A minimal Job controller: it makes the Job's pod and turns pod outcomes into Job status.

https://kubernetes.io/docs/concepts/workloads/controllers/job/: the controller creates pods
from ``spec.template`` (with the ``batch.kubernetes.io/job-tracking`` finalizer, removed once
it has counted the pod, #job-tracking-with-finalizers), counts ``succeeded`` and ``failed``
pods (a pod deleted before it finished counts as failed), replaces a failed pod while
``failed <= backoffLimit`` (#pod-backoff-failure-policy), and ends with the conditions of
#terminal-job-conditions: ``SuccessCriteriaMet`` then ``Complete`` (reason
``CompletionsReached``), or ``FailureTarget`` then ``Failed`` (reason
``BackoffLimitExceeded``); the terminal condition comes once no pod is still terminating.
"""

from __future__ import annotations

import copy
from typing import Any

from axonal_testing.kube.defaults import create_pod
from axonal_testing.kube.gc import delete
from axonal_testing.kube.kubelet import set_condition
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.store import Store, now
from axonal_testing.kube.watchers import Change

__all__ = ["JOB_TRACKING", "JobController", "controller_of"]

JOB, POD = by_plural("jobs"), by_plural("pods")
JOB_TRACKING = "batch.kubernetes.io/job-tracking"
TERMINAL = ("Succeeded", "Failed")


def controller_of(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The ownerReference with ``controller: true``, if any."""
    refs = obj["metadata"].get("ownerReferences") or []
    return next((r for r in refs if r.get("controller")), None)


def _ready(pod: dict[str, Any]) -> bool:
    conditions = pod.get("status", {}).get("conditions") or []
    return any(c["type"] == "Ready" and c["status"] == "True" for c in conditions)


def _true(status: dict[str, Any], kind: str) -> bool:
    return any(c["type"] == kind and c["status"] == "True" for c in status.get("conditions", []))


class JobController:
    """Reconciles a Job whenever it or one of its pods changes."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._counted: dict[str, dict[str, str]] = {}  # job uid -> pod uid -> outcome
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """React to a Job or one of its pods."""
        meta = change.obj["metadata"]
        if change.res is JOB and change.type != "DELETED":
            self.reconcile(meta["namespace"], meta["name"])
        elif change.res is POD:
            ref = controller_of(change.obj)
            if ref is not None and ref["kind"] == "Job":
                if change.type != "DELETED":
                    self._release(change.obj)
                self.reconcile(meta["namespace"], ref["name"])

    def pods(self, namespace: str, job: dict[str, Any]) -> list[dict[str, Any]]:
        """The pods this Job controls."""
        uid = job["metadata"]["uid"]
        return self._store.find(
            POD, namespace, lambda p: (controller_of(p) or {}).get("uid") == uid
        )

    def current_pod(self, namespace: str, name: str) -> str:
        """The name of the Job's current pod (the one still running, else the last one)."""
        job = self._store.require(JOB, namespace, name)
        pods = self.pods(namespace, job)
        live = [p for p in pods if p["status"].get("phase") not in TERMINAL]
        if not (live or pods):
            raise LookupError(f"job {namespace}/{name} has no pod")
        return str((live or pods)[-1]["metadata"]["name"])

    def _release(self, pod: dict[str, Any]) -> None:
        """Count a finished or deleted pod, then remove its tracking finalizer."""
        meta, phase = pod["metadata"], pod.get("status", {}).get("phase")
        if phase not in TERMINAL and not meta.get("deletionTimestamp"):
            return
        ref = controller_of(pod) or {}
        outcome = "succeeded" if phase == "Succeeded" else "failed"
        self._counted.setdefault(ref.get("uid", ""), {}).setdefault(meta["uid"], outcome)
        current = self._store.get(POD, meta["namespace"], meta["name"])  # the change may be stale
        if current is None or current["metadata"]["uid"] != meta["uid"]:
            return
        if JOB_TRACKING in (current["metadata"].get("finalizers") or []):

            def drop(p: dict[str, Any]) -> None:
                p["metadata"]["finalizers"].remove(JOB_TRACKING)

            self._store.update(POD, meta["namespace"], meta["name"], drop)

    def reconcile(self, namespace: str, name: str) -> None:
        """Make pods, count outcomes and set the Job's status and conditions."""
        job = self._store.get(JOB, namespace, name)
        if job is None:
            return
        pods = self.pods(namespace, job)
        for pod in pods:
            self._release(pod)
        counted = self._counted.get(job["metadata"]["uid"], {})
        outcomes = list(counted.values())
        live = [p for p in pods if p["metadata"]["uid"] not in counted]
        terminating = [
            p
            for p in pods
            if p["metadata"].get("deletionTimestamp") and p["status"].get("phase") not in TERMINAL
        ]
        status = copy.deepcopy(job.get("status") or {})
        finished = _true(status, "Complete") or _true(status, "Failed")
        deleting = bool(job["metadata"].get("deletionTimestamp"))
        if not finished and not deleting:
            self._progress(job, status, live, outcomes)
            live = [p for p in self.pods(namespace, job) if p["metadata"]["uid"] not in counted]
        if not finished and not live and not terminating:
            self._finish(status)
        status.update(
            active=len(live),
            ready=sum(_ready(p) for p in live),
            succeeded=outcomes.count("succeeded"),
            failed=outcomes.count("failed"),
            terminating=len(terminating),
            uncountedTerminatedPods={},
        )
        # zero counts and no conditions are omitted; ready and terminating are not
        kept = ("ready", "terminating", "uncountedTerminatedPods")
        status = {k: v for k, v in status.items() if v or k in kept}
        if status != (job.get("status") or {}):
            self._store.update(JOB, namespace, name, lambda j: j.update(status=status))

    def _progress(
        self,
        job: dict[str, Any],
        status: dict[str, Any],
        live: list[dict[str, Any]],
        outcomes: list[str],
    ) -> None:
        spec, conditions = job["spec"], status.setdefault("conditions", [])
        status.setdefault("startTime", now())
        if outcomes.count("succeeded") >= spec["completions"]:
            message = "Reached expected number of succeeded pods"
            set_condition(conditions, "SuccessCriteriaMet", "True", "CompletionsReached", message)
        elif outcomes.count("failed") > spec["backoffLimit"]:
            message = "Job has reached the specified backoff limit"
            set_condition(conditions, "FailureTarget", "True", "BackoffLimitExceeded", message)
            for pod in live:  # the controller stops what is still running
                m = pod["metadata"]
                delete(self._store, POD, m["namespace"], m["name"], "Background")
        elif not spec.get("suspend") and len(live) < spec["parallelism"]:
            for _ in range(spec["parallelism"] - len(live)):
                create_pod(self._store, JOB, job, spec["template"], finalizers=(JOB_TRACKING,))

    @staticmethod
    def _finish(status: dict[str, Any]) -> None:
        conditions = status.get("conditions") or []
        for target, terminal in (("SuccessCriteriaMet", "Complete"), ("FailureTarget", "Failed")):
            reached = next((c for c in conditions if c["type"] == target), None)
            if reached is not None:
                set_condition(conditions, terminal, "True", reached["reason"], reached["message"])
                if terminal == "Complete":
                    status["completionTime"] = now()
