"""Pods and objects as the API reports them, for the status mapping tests."""

from datetime import UTC, datetime, timedelta
from typing import Any

from axonal_agent.domain.kube import Observation, observe

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def stamp(seconds_ago: float) -> str:
    return (NOW - timedelta(seconds=seconds_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def condition_list(*items: tuple[str, str] | tuple[str, str, str, str]) -> list[dict[str, Any]]:
    found = []
    for item in items:
        kind, status, *rest = item
        condition = {"type": kind, "status": status}
        if rest:
            condition |= {"reason": rest[0], "message": rest[1]}
        found.append(condition)
    return found


def pod(
    phase: str = "Pending",
    *,
    main: dict[str, Any] | None = None,
    last: dict[str, Any] | None = None,
    init: list[dict[str, Any]] | None = None,
    conditions: list[dict[str, Any]] | None = None,
    age: float = 10,
    memory: str | None = None,
    sidecar: bool = False,
    metadata: dict[str, Any] | None = None,
    **status: Any,
) -> dict[str, Any]:
    """A pod of the attempt: ``main`` is the main container's state; ``metadata`` adds to
    its metadata (labels, a deletionTimestamp...)."""
    container: dict[str, Any] = {"name": "main", "image": "x"}
    if memory:
        container["resources"] = {"limits": {"memory": memory}}
    spec: dict[str, Any] = {"containers": [container]}
    if sidecar:
        spec["initContainers"] = [{"name": "proxy", "image": "envoy", "restartPolicy": "Always"}]
    statuses = [{"name": "main", "state": main or {"waiting": {"reason": "ContainerCreating"}}}]
    if last:
        statuses[0]["lastState"] = last
    return {
        "metadata": {"name": "p", "creationTimestamp": stamp(age), **(metadata or {})},
        "spec": spec,
        "status": {
            "phase": phase,
            "startTime": stamp(age),
            "conditions": conditions or condition_list(("PodScheduled", "True")),
            "containerStatuses": statuses,
            "initContainerStatuses": init or [],
            **status,
        },
    }


RUNNING = pod("Running", main={"running": {"startedAt": stamp(5)}})


def terminated(code: int, reason: str = "Error", message: str | None = None) -> dict[str, Any]:
    ended: dict[str, Any] = {"exitCode": code, "reason": reason}
    if message:
        ended["message"] = message
    return {"terminated": ended}


def job(*conditions: tuple[str, str] | tuple[str, str, str, str]) -> dict[str, Any]:
    return {"kind": "Job", "status": {"conditions": condition_list(*conditions)}}


def look(kind: str, obj: dict[str, Any], *pods: dict[str, Any]) -> Observation:
    return observe(kind, obj, list(pods), now=NOW)
