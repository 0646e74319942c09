"""What the scheduler, the kubelet and the node controllers write into pods, as test steps.

Phases, conditions and container states follow
https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/: a pod is ``Pending`` until
it is bound to a node and all its containers have started, ``Running`` once they have,
``Succeeded`` when all exited 0 and ``Failed`` when all exited and one did not (the kubelet's
``getPhase``, for ``restartPolicy: Never``). Pod conditions are ``PodScheduled``,
``PodReadyToStartContainers``, ``Initialized``, ``ContainersReady``, ``Ready`` and
``DisruptionTarget``.

A container that exits in a pod whose ``restartPolicy`` restarts it (``Always``, or
``OnFailure`` for a non-zero exit) is restarted in the same pod, which stays ``Running``
(#restart-policy): "Initial crash: Kubernetes attempts an immediate restart", then
"Repeated crashes: ... an exponential backoff delay" during which the container waits in
``CrashLoopBackOff`` (#container-restarts). Its ``lastState`` keeps the ended run, its
``restartCount`` counts the restarts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from axonal_testing.kube.gc import delete
from axonal_testing.kube.logs import LogBook, instance
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.store import Store, now
from axonal_testing.kube.watchers import Change

__all__ = ["Kubelet", "set_condition"]

POD = by_plural("pods")
UNSCHEDULABLE = (
    "0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are "
    "available: 3 No preemption victims found for incoming pod."
)
EVICTED = (
    "The node was low on resource: memory. Threshold quantity: 100Mi, available: 42Mi. "
    "Container {container} was using 3Gi, request is 1Gi, has larger consumption of memory. "
)


def set_condition(
    conditions: list[dict[str, Any]],
    kind: str,
    status: str,
    reason: str | None = None,
    message: str | None = None,
) -> None:
    """Set one condition of a status; ``lastTransitionTime`` moves only when status changes."""
    old = next((c for c in conditions if c["type"] == kind), None)
    new: dict[str, Any] = {"type": kind, "status": status, "lastProbeTime": None}
    new["lastTransitionTime"] = (
        old["lastTransitionTime"] if old is not None and old["status"] == status else now()
    )
    if reason:
        new["reason"] = reason
    if message:
        new["message"] = message
    if old is None:
        conditions.append(new)
    else:
        conditions[conditions.index(old)] = new


def _readiness(
    status: dict[str, Any], *, ready: bool, reason: str = "", message: str | None = None
) -> None:
    conditions = status.setdefault("conditions", [])
    for kind in ("ContainersReady", "Ready"):
        if ready:
            set_condition(conditions, kind, "True")
        else:
            set_condition(conditions, kind, "False", reason, message)


class Kubelet:
    """Drives pods through their lifecycle; also stops pods deleted with a grace period."""

    def __init__(self, store: Store, logs: LogBook) -> None:
        self._store, self._logs = store, logs
        self.lost_nodes: set[str] = set()
        store.subscribe(self.on_change)

    def _write(self, namespace: str, name: str, change: Callable[[dict[str, Any]], None]) -> None:
        self._store.update(POD, namespace, name, change)

    def log(self, namespace: str, name: str, *lines: str, container: str = "") -> None:
        """The container writes lines (the pod's first container unless named)."""
        pod = self._store.require(POD, namespace, name)
        written_by = container or pod["spec"]["containers"][0]["name"]
        run = instance(pod, written_by)
        self._logs.append(pod["metadata"]["uid"], written_by, *lines, instance=run)

    def schedule(self, namespace: str, name: str, node: str = "node-1") -> None:
        """The scheduler binds the pod; the kubelet then reports its containers creating."""

        def bind(pod: dict[str, Any]) -> None:
            pod["spec"]["nodeName"] = node
            set_condition(
                pod.setdefault("status", {}).setdefault("conditions", []), "PodScheduled", "True"
            )

        def creating(pod: dict[str, Any]) -> None:
            status = pod["status"]
            status.update(hostIP="10.0.0.1", startTime=now())
            conditions = status["conditions"]
            set_condition(conditions, "PodReadyToStartContainers", "False")
            set_condition(conditions, "Initialized", "True")
            names = [c["name"] for c in pod["spec"]["containers"]]
            unready = f"containers with unready status: [{' '.join(names)}]"
            _readiness(status, ready=False, reason="ContainersNotReady", message=unready)
            status["containerStatuses"] = [
                _container(c, {"waiting": {"reason": "ContainerCreating"}})
                for c in pod["spec"]["containers"]
            ]

        self._write(namespace, name, bind)
        self._write(namespace, name, creating)

    def unschedulable(self, namespace: str, name: str, message: str = UNSCHEDULABLE) -> None:
        """The scheduler finds no node: ``PodScheduled`` False, reason ``Unschedulable``."""

        def unschedulable(pod: dict[str, Any]) -> None:
            conditions = pod.setdefault("status", {}).setdefault("conditions", [])
            set_condition(conditions, "PodScheduled", "False", "Unschedulable", message)

        self._write(namespace, name, unschedulable)

    def pull_failed(self, namespace: str, name: str, backoff: bool = False) -> None:
        """The image cannot be pulled: waiting ``ErrImagePull``, then ``ImagePullBackOff``."""

        def waiting(pod: dict[str, Any]) -> None:
            for status, spec in zip(
                pod["status"]["containerStatuses"], pod["spec"]["containers"], strict=True
            ):
                image = spec.get("image", "")
                reason, message = (
                    ("ImagePullBackOff", f'Back-off pulling image "{image}"')
                    if backoff
                    else (
                        "ErrImagePull",
                        "rpc error: code = NotFound desc = failed to pull and unpack image "
                        f'"{image}": not found',
                    )
                )
                status["state"] = {"waiting": {"reason": reason, "message": message}}

        self._write(namespace, name, waiting)

    def start(self, namespace: str, name: str) -> None:
        """Every container runs and is ready: phase ``Running``, ``Ready`` True (a container
        that waited out its back-off is restarted; one already running is now ready)."""

        def running(pod: dict[str, Any]) -> None:
            status = pod["status"]
            status.update(phase="Running", podIP="10.244.0.7", podIPs=[{"ip": "10.244.0.7"}])
            set_condition(status["conditions"], "PodReadyToStartContainers", "True")
            for c in status["containerStatuses"]:
                waiting = c["state"].get("waiting") or {}
                if waiting.get("reason") == "CrashLoopBackOff":
                    c["restartCount"] += 1
                if "running" not in c["state"]:
                    c["state"] = {"running": {"startedAt": now()}}
                c.update(ready=True, started=True)
            _readiness(status, ready=True)

        self._write(namespace, name, running)

    def terminate(
        self,
        namespace: str,
        name: str,
        exit_code: int = 0,
        reason: str | None = None,
        container: str | None = None,
        message: str | None = None,
    ) -> None:
        """Containers exit (all, or ``container``); the pod's phase follows
        (``Completed`` for exit 0, ``Error`` otherwise, unless ``reason`` says e.g. OOMKilled),
        unless its ``restartPolicy`` restarts them: then they are restarted in the pod (see
        the module docstring), which stays ``Running``.

        ``message`` is what they wrote to their ``terminationMessagePath``: their
        termination message. Without one, a container that failed and whose
        ``terminationMessagePolicy`` is ``FallbackToLogsOnError`` gets the end of its log,
        "limited to 2048 bytes or 80 lines, whichever is smaller"
        (https://kubernetes.io/docs/tasks/debug/debug-application/determine-reason-pod-failure/#customizing-the-termination-message).
        """
        reason = reason or ("Completed" if exit_code == 0 else "Error")
        pod = self._store.require(POD, namespace, name)
        messages = {
            c["name"]: text
            for c in pod["spec"]["containers"]
            if (text := self._message(pod, c, exit_code, message)) is not None
        }
        restarts = _restarts(pod, exit_code)
        self._write(
            namespace,
            name,
            lambda pod: _terminate(pod, exit_code, reason, container, messages, restarts),
        )
        if restarts:
            self._write(namespace, name, _restart)

    def _message(
        self, pod: dict[str, Any], container: dict[str, Any], exit_code: int, written: str | None
    ) -> str | None:
        if written is not None:
            return written
        if exit_code == 0 or container.get("terminationMessagePolicy") != "FallbackToLogsOnError":
            return None
        uid, name = pod["metadata"]["uid"], container["name"]
        lines = [line.text for line in self._logs.lines(uid, name, instance(pod, name))]
        tail = "\n".join(lines[-80:]).encode()[-2048:].decode("utf-8", errors="ignore")
        return tail or None

    def evict(self, namespace: str, name: str, message: str | None = None) -> None:
        """Node-pressure eviction: phase ``Failed``, ``status.reason`` ``Evicted``, and a
        ``DisruptionTarget`` condition, reason ``TerminationByKubelet``
        (https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/ and
        https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-disruption-conditions)."""

        def evicted(pod: dict[str, Any]) -> None:
            text = message or EVICTED.format(container=pod["spec"]["containers"][0]["name"])
            set_condition(
                pod["status"]["conditions"],
                "DisruptionTarget",
                "True",
                "TerminationByKubelet",
                text,
            )
            _terminate(pod, 137, "Error", None)
            pod["status"].update(phase="Failed", reason="Evicted", message=text)

        self._write(namespace, name, evicted)

    def node_not_ready(self, node: str) -> None:
        """The node stops answering: the node lifecycle controller marks its pods not
        ``Ready``, and nothing else happens to them until the taint manager evicts them, by
        default 300 seconds later (the ``tolerationSeconds`` the DefaultTolerationSeconds
        admission plugin gives every pod for ``node.kubernetes.io/unreachable``,
        https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions)."""
        self.lost_nodes.add(node)
        for pod in self._on(node):
            ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
            self._write(ns, name, lambda p: _readiness(p["status"], ready=False))

    def lose_node(self, node: str) -> None:
        """The node is gone for good; its pods end as the node controllers end them.

        Unless :meth:`node_not_ready` did already, the pods are marked not ``Ready``; the
        taint manager deletes them (``DisruptionTarget``, reason ``DeletionByTaintManager``,
        https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#taint-based-evictions);
        no kubelet stops them, so the pod garbage collector marks them ``Failed`` and removes
        them (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-garbage-collection:
        "PodGC will also mark them as failed if they are in a non-terminal phase").
        """
        if node not in self.lost_nodes:
            self.node_not_ready(node)
        for pod in self._on(node):
            ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
            self._write(
                ns,
                name,
                lambda p: set_condition(
                    p["status"]["conditions"],
                    "DisruptionTarget",
                    "True",
                    "DeletionByTaintManager",
                    "Taint manager: deleting due to NoExecute taint",
                ),
            )
            delete(self._store, POD, ns, name, "Background")
            if self._store.get(POD, ns, name) is not None:
                self._write(ns, name, _gc_failed)

    def _on(self, node: str) -> list[dict[str, Any]]:
        return self._store.find(POD, None, lambda p: p.get("spec", {}).get("nodeName") == node)

    def on_change(self, change: Change) -> None:
        """Wake log followers; stop a pod deleted with a grace period, on a live node."""
        if change.res is not POD:
            return
        self._logs.poke()
        meta = change.obj["metadata"]
        pod = self._store.get(POD, meta["namespace"], meta["name"])  # the change may be stale
        if pod is None or pod["metadata"]["uid"] != meta["uid"]:
            return
        meta, spec = pod["metadata"], pod.get("spec", {})
        if not meta.get("deletionGracePeriodSeconds"):
            return
        if spec.get("nodeName") in self.lost_nodes:
            return

        def stopped(p: dict[str, Any]) -> None:
            if p["status"].get("phase") not in ("Succeeded", "Failed"):
                _terminate(p, 143, "Error", None)
            p["metadata"]["deletionGracePeriodSeconds"] = 0

        self._write(meta["namespace"], meta["name"], stopped)


def _container(spec: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": spec["name"],
        "image": spec.get("image", ""),
        "imageID": "",
        "ready": False,
        "started": False,
        "restartCount": 0,
        "state": state,
        "lastState": {},
    }


def _restarts(pod: dict[str, Any], exit_code: int) -> bool:
    """Whether the pod's ``restartPolicy`` (``Always`` by default) restarts a container that
    exited with ``exit_code``."""
    policy = pod["spec"].get("restartPolicy", "Always")
    return policy == "Always" or (policy == "OnFailure" and exit_code != 0)


def _restart(pod: dict[str, Any]) -> None:
    """The kubelet restarts the containers that ended: at once after a first crash (no
    readiness probe: ready at once), else after a back-off, waiting in
    ``CrashLoopBackOff`` (the kubelet's message) until :meth:`Kubelet.start`."""
    meta, status = pod["metadata"], pod["status"]
    probes = {c["name"]: "readinessProbe" in c for c in pod["spec"]["containers"]}
    for c in status["containerStatuses"]:
        if "terminated" not in c["state"]:
            continue
        c["lastState"] = c["state"]
        if c["restartCount"] == 0:
            c["restartCount"] = 1
            c["state"] = {"running": {"startedAt": now()}}
            c.update(started=True, ready=not probes[c["name"]])
            continue
        delay = min(300, 10 * 2 ** (c["restartCount"] - 1))
        where = f"{meta['name']}_{meta['namespace']}({meta['uid']})"
        text = f"back-off {delay}s restarting failed container={c['name']} pod={where}"
        c["state"] = {"waiting": {"reason": "CrashLoopBackOff", "message": text}}
    if all(c["ready"] for c in status["containerStatuses"]):
        _readiness(status, ready=True)


def _terminate(
    pod: dict[str, Any],
    exit_code: int,
    reason: str,
    container: str | None,
    messages: dict[str, str] | None = None,
    restarts: bool = False,
) -> None:
    status = pod.setdefault("status", {})
    if "containerStatuses" not in status:
        status["containerStatuses"] = [
            _container(c, {"waiting": {"reason": "ContainerCreating"}})
            for c in pod["spec"]["containers"]
        ]
    for c in status["containerStatuses"]:
        if container in (None, c["name"]) and "terminated" not in c["state"]:
            started = c["state"].get("running", {}).get("startedAt", now())
            c["state"] = {
                "terminated": {
                    "exitCode": exit_code,
                    "reason": reason,
                    "startedAt": started,
                    "finishedAt": now(),
                    "containerID": f"containerd://{pod['metadata']['uid']}-{c['name']}-"
                    f"{c['restartCount']}",
                }
            }
            if (messages or {}).get(c["name"]) is not None:
                c["state"]["terminated"]["message"] = (messages or {})[c["name"]]
            c.update(ready=False, started=False)
    states = [c["state"] for c in status["containerStatuses"]]
    if restarts:
        names = " ".join(c["name"] for c in status["containerStatuses"] if not c["ready"])
        unready = f"containers with unready status: [{names}]"
        _readiness(status, ready=False, reason="ContainersNotReady", message=unready)
    elif all("terminated" in s for s in states):
        ok = all(s["terminated"]["exitCode"] == 0 for s in states)
        status["phase"] = "Succeeded" if ok else "Failed"
        set_condition(status.setdefault("conditions", []), "PodReadyToStartContainers", "False")
        _readiness(status, ready=False, reason="PodCompleted")


def _gc_failed(pod: dict[str, Any]) -> None:
    if pod["status"].get("phase") not in ("Succeeded", "Failed"):
        pod["status"]["phase"] = "Failed"
    pod["metadata"]["deletionGracePeriodSeconds"] = 0
