"""Shared pieces of the Kubernetes executor tests: fixture runs compiled as the scheduler
compiles them, the kinds of workload they make, what the executor created, and the double's
objects of an attempt."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from axonal_agent.domain.kube.target import RUN_UUID_LABEL, workload_name
from axonal_spec import CompileOptions, compile_operation, load
from axonal_testing.kube.double import KubeDouble
from axonal_testing.kube.scenarios import Scenarios, Step
from axonal_testing.kube.watchers import Change
from axonal_testing.waiting import wait_for

# the local executor's tests send it too
from ..control_support import publish_stopping  # noqa: F401, TID252

ROOT = Path(__file__).resolve().parents[4]
FIXTURES = ROOT / "tests" / "fixtures" / "polyaxonfiles"
NS = "axonal-runs"
#: What the API server adds to an object it stores; the rest is what the executor sent.
_SERVER_FIELDS = ("uid", "resourceVersion", "creationTimestamp", "generation")


@dataclass(frozen=True)
class Kind:
    """A kind of workload, made from a fixture: the ``plural`` of its primary object, the
    main container of its main pod (its image), what else its operator does for it to run
    once that pod runs (``runs``), and the objects the executor made besides its Secret."""

    id: str
    fixture: str
    plural: str
    container: str
    image: str
    runs: Callable[[KubeDouble, str], None] = lambda double, name: None
    made: tuple[str, ...] = ()

    def scenarios(self, double: KubeDouble) -> Scenarios:
        return double.scenarios.of(self.plural)

    def deleted(self, name: str) -> list[tuple[str, str, str]]:
        """What the executor deletes at the end: all it made, its primary first."""
        plurals = (self.plural, *self.made, "secrets")
        return [(p, f"{name}-env" if p == "secrets" else name, "Background") for p in plurals]


JOB = Kind("job", "jobs/hello.yaml", "jobs", "main", "busybox:1.36")
SERVICE = Kind(
    "service",
    "services/dashboard.yaml",
    "deployments",
    "main",
    "axonal/dashboard:1",
    made=("services",),
)
PYTORCH_JOB = Kind(
    "pytorchjob",
    "distributed/pytorchjob.yaml",
    "pytorchjobs",
    "pytorch",
    "axonal/torch:2",
    runs=lambda double, name: double.operators.training("pytorchjobs", NS, name, "Running"),
)
RAY_JOB = Kind(
    "rayjob",
    "distributed/raycluster.yaml",
    "rayjobs",
    "ray-head",
    "axonal/ray:2",
    runs=lambda double, name: double.operators.ray_job(NS, name, "Running"),
)


async def started(observed: Any, execute: Any, kind: Kind) -> tuple[str, str]:
    """A run of ``kind`` launched and ``starting``: ``(run uuid, workload)``."""
    run_uuid, name = await launch(execute, kind.fixture)
    await wait_for(lambda: "starting" in observed.statuses(run_uuid), message="starting")
    return run_uuid, name


async def play(
    steps: list[Step], observed: Any, run_uuid: str, name: str, kind: Kind, double: KubeDouble
) -> None:
    """Run the steps; once the main pod runs, what else runs the kind, then wait until the
    agent said the run runs."""
    for step in steps:
        step.run()
        if step.name == "running":
            kind.runs(double, name)
            await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")


def reasons(observed: Any, run_uuid: str) -> list[tuple[str, str | None]]:
    """The statuses reported for the run, with their reasons."""
    return [(r.status.value, r.reason) for r in observed.reports if r.run_uuid == run_uuid]


def pods_left(double: KubeDouble, run_uuid: str, name: str) -> list[str]:
    """The pods of the attempt (a RayJob's submitter's too) still there."""
    selectors = (f"{RUN_UUID_LABEL}={uuid.UUID(run_uuid).hex}", f"job-name={name}")
    return [p["metadata"]["name"] for s in selectors for p in double.pods(NS, s)]


def compiled(relative: str, run_uuid: str) -> dict[str, Any]:
    """A fixture compiled as the scheduler does (``ExecuteRun.run`` is its ``run``)."""
    path = FIXTURES / relative
    options = CompileOptions(uuid=run_uuid, project="vision", owner="acme")
    return dict(compile_operation(load(path), options, origin=path).model_dump(mode="json"))


def command_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """The ``ExecuteRun`` fields the scheduler takes from a compiled operation."""
    termination = doc.get("termination") or {}
    probe = termination.get("probe")
    return {
        "run": doc["run"],
        "timeout_seconds": termination.get("timeout"),
        "probe": probe if isinstance(probe, dict) else {},
    }


async def launch(execute: Any, relative: str, **fields: Any) -> tuple[str, str]:
    """Publish the attempt of a fixture as the scheduler would: ``(run uuid, workload)``."""
    run_uuid = uuid.uuid4().hex
    command = command_fields(compiled(relative, run_uuid)) | fields
    await execute(command.pop("run"), run_uuid=run_uuid, **command)
    return run_uuid, workload_name(run_uuid, 1)


class Created:
    """The objects the executor created (those no controller owns), as it sent them."""

    def __init__(self, double: KubeDouble) -> None:
        self.objects: list[dict[str, Any]] = []
        double.store.subscribe(self._on_change)

    def _on_change(self, change: Change) -> None:
        meta = change.obj["metadata"]
        if (
            change.type == "ADDED"
            and not meta.get("ownerReferences")
            and change.res.plural != "pods"
        ):
            obj = {k: v for k, v in change.obj.items() if k != "status"}
            obj["metadata"] = {k: v for k, v in meta.items() if k not in _SERVER_FIELDS}
            self.objects.append(obj)

    def kinds(self) -> list[str]:
        return [obj["kind"] for obj in self.objects]


def main_container(double: KubeDouble, plural: str, name: str) -> dict[str, Any]:
    """The main container of a Job's or Deployment's pod template."""
    obj = double.get(plural, NS, name)
    assert obj is not None, f"no {plural} {name}"
    return dict(obj["spec"]["template"]["spec"]["containers"][0])


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env", [])}
