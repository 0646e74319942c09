"""Shared pieces of the Kubernetes builder tests: a cluster, a target, compiled fixtures and
the pod specs of a workload."""

from pathlib import Path
from typing import Any

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube import (
    Cluster,
    Connection,
    SourceRef,
    Target,
    Workload,
    build_workload,
)
from axonal_spec import CompileOptions, Resolvers, compile_operation, load
from axonal_spec.hub import MappedUrlResolver
from axonal_testing.k8s_schemas import validate_manifest

ROOT = Path(__file__).resolve().parents[4]
FIXTURES = ROOT / "tests" / "fixtures" / "polyaxonfiles"
RUN_UUID = "0123456789abcdef0123456789abcdef"
NAME = f"plx-{RUN_UUID}-2"

#: Params for the fixtures whose inputs are required.
PARAMS: dict[str, dict[str, Any]] = {
    "jobs/env-vars.yaml": {"greeting": "hi"},
    "jobs/greet.yaml": {"greeting": "hi"},
    "jobs/inline-script.yaml": {"greeting": "hi"},
    "jobs/tracking.yaml": {"label": "x"},
    "jobs/typed.yaml": {"epochs": 2},
}

CATALOG = {
    "fixtures-store": Connection(
        "fixtures-store",
        "s3",
        schema={"bucket": "s3://fixtures"},
        secret=SourceRef("store-credentials"),
        env={"AWS_REGION": "eu-west-1"},
    ),
    "repo": Connection(
        "repo",
        "git",
        schema={"url": "https://git.example.com/acme/models.git"},
        secret=SourceRef("git-credentials", items=("GIT_TOKEN",)),
    ),
    "data": Connection(
        "data",
        "volume_claim",
        secret=SourceRef("data-keys", items=("key.json",), mount_path="/keys"),
        config_map=SourceRef("data-config", mount_path="/etc/data"),
    ),
}

CLUSTER = Cluster(
    namespace="axonal-runs",
    service_account="axonal-run",
    image_pull_secrets=("registry",),
    node_selector={"pool": "runs"},
    artifacts_claim="axonal-artifacts",
    store_claim="axonal-store",
    connections=CATALOG,
    default_image="axonal/python:3.12",
    ttl_seconds_after_finished=600,
)


def target(**changes: Any) -> Target:
    fields: dict[str, Any] = {
        "cluster": CLUSTER,
        "run_uuid": RUN_UUID,
        "attempt": 2,
        "agent": "k8s-agent",
        "project": "vision",
        "env": {"AXONAL_RUN_UUID": RUN_UUID, "AXONAL_PROJECT": "vision"},
        "secret": f"{NAME}-env",
        "timeout_seconds": 90.5,
    }
    return Target(**{**fields, **changes})


def compiled(relative: str) -> dict[str, Any]:
    """A fixture compiled as the scheduler does (its ``ExecuteRun.run`` is ``["run"]``)."""
    path = FIXTURES / relative
    options = CompileOptions(
        params=PARAMS.get(relative, {}),
        uuid=RUN_UUID,
        project="vision",
        owner="acme",
        resolvers=Resolvers(
            urls=MappedUrlResolver({"https://hub.axonal.invalid/fixtures/": FIXTURES})
        ),
    )
    return dict(compile_operation(load(path), options, origin=path).model_dump(mode="json"))


def pod_specs(workload: Workload) -> dict[str, dict[str, Any]]:
    """Every pod template of the workload's objects, by where it is, as ``{metadata, spec}``."""
    found: dict[str, dict[str, Any]] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("spec"), dict) and "containers" in value["spec"]:
                found[path.strip(".")] = value
                return
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}.{index}")

    for obj in workload.objects:
        walk(obj.get("spec"), obj["kind"])
    return found


def strings(value: Any) -> list[str]:
    """Every string in ``value``, at any depth."""
    if isinstance(value, dict):
        return [s for item in value.values() for s in strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return [value] if isinstance(value, str) else []


def env_of(container: dict[str, Any]) -> dict[str, Any]:
    return {
        entry["name"]: entry.get("value", entry.get("valueFrom"))
        for entry in container.get("env", [])
    }


def job_of(**section: Any) -> dict[str, Any]:
    """The validated Job of a job run with ``section``'s fields."""
    run = {"kind": "job", "container": {"image": "python:3.12", "command": ["python"]}}
    run.update(section)
    job = build_workload(run, target()).primary
    validate_manifest(job)
    return job


def pod_of(**section: Any) -> dict[str, Any]:
    return job_of(**section)["spec"]["template"]


def refusal(**section: Any) -> str:
    """The message a job run with ``section``'s fields is refused with."""
    run = {"kind": "job", "container": {"image": "python:3.12", "command": ["python"]}}
    with pytest.raises(InvalidRunError) as caught:
        build_workload({**run, **section}, target())
    return str(caught.value)
