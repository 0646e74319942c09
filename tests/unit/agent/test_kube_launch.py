"""The Kubernetes executor's pure pieces: an attempt's target, Secret and handle, why it
waits, its outputs, what stays, the settings it is built from, where a log goes on."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from axonal_agent.adapters.kubernetes.config import cluster_of
from axonal_agent.adapters.kubernetes.launch import (
    adopted_handle,
    handle_of,
    secret_manifest,
    target_of,
)
from axonal_agent.adapters.kubernetes.process import _keeps, _outputs, _waiting
from axonal_agent.domain.kube import Cluster, Observation, build_workload
from axonal_agent.domain.kube.target import SourceRef
from axonal_agent.domain.kube.workload import RAY_JOB
from axonal_agent.ports import Launch, Waiting
from axonal_agent.runs.logs import resume_point
from axonal_agent.settings import AgentSettings

RUN = "0123456789abcdef0123456789abcdef"
NAME = f"plx-{RUN}-2"
CONTEXT = {
    "AXONAL_RUN_UUID": RUN,
    "AXONAL_NATS_URL": "nats://run:pw@nats:4222",
    "AXONAL_API_TOKEN": "a-token",
    "AXONAL_RUN_ARTIFACTS_PATH": "/var/lib/axonal/runs/x/2",
    "AXONAL_RUN_OUTPUTS_FILE": "/var/lib/axonal/runs/x/2/outputs.json",
}


def launch(run: dict | None = None, **fields) -> Launch:
    values = {
        "run_uuid": RUN,
        "attempt": 2,
        "project": "acme/vision",
        "queue": "default",
        "run": run or {"kind": "job", "container": {"image": "busybox", "command": ["true"]}},
        "context": CONTEXT,
        "folder": Path("/runs"),
        "outputs_file": Path("/runs/outputs.json"),
        "to_env": {"EPOCHS": "3", "AXONAL_RUN_UUID": "not this one"},
    }
    return Launch(**(values | fields))


def test_the_target_keeps_sensitive_values_for_its_secret_and_points_outputs_to_the_pod():
    target = target_of(launch(), Cluster("runs"), "agent-1")

    assert target.env == {
        "EPOCHS": "3",
        "AXONAL_RUN_UUID": RUN,  # the context wins over a toEnv param
        "AXONAL_RUN_ARTIFACTS_PATH": "/plx-context/artifacts",
        "AXONAL_RUN_OUTPUTS_FILE": "/dev/termination-log",
    }
    assert (target.secret, target.secret_keys) == (
        f"{NAME}-env",
        ("AXONAL_API_TOKEN", "AXONAL_NATS_URL"),
    )
    secret = secret_manifest(target, CONTEXT)
    assert secret is not None
    assert secret["metadata"]["labels"] == target.labels
    assert secret["stringData"] == {
        "AXONAL_API_TOKEN": "a-token",
        "AXONAL_NATS_URL": "nats://run:pw@nats:4222",
    }


def test_without_sensitive_values_there_is_no_secret():
    context = {k: v for k, v in CONTEXT.items() if k not in ("AXONAL_API_TOKEN", "AXONAL_NATS_URL")}
    target = target_of(launch(context=context), Cluster("runs"), "agent-1")
    assert target.secret is None
    assert secret_manifest(target, context) is None


def test_handles_watch_the_attempts_pods_and_delete_its_objects():
    service = {"kind": "service", "ports": [8888], "container": {"image": "jupyter"}}
    target = target_of(launch(service), Cluster("runs"), "agent-1")
    handle = handle_of(build_workload(service, target), target.secret)

    assert [(kind.kind, name) for kind, name in handle.objects] == [
        ("Deployment", NAME),
        ("Service", NAME),
        ("Secret", f"{NAME}-env"),
    ]
    assert handle.pods == (f"axonal.dev/run-uuid={RUN},axonal.dev/attempt=2",)
    assert handle.endpoints == {"8888": f"http://{NAME}.runs.svc:8888/"}
    assert not handle.spread
    ray = adopted_handle(RAY_JOB, RUN, 2, "runs")
    assert [kind.kind for kind, _ in ray.objects] == ["RayJob", "Secret"]
    assert ray.pods[1] == f"job-name={NAME}"  # KubeRay's submitter, which prints the entrypoint's
    assert ray.spread


@pytest.mark.parametrize(
    ("reason", "status"),
    [
        (None, "starting"),
        ("ContainerCreating", "starting"),
        ("Unschedulable", "unschedulable"),
        ("ImagePullBackOff", "warning"),
        ("CreateContainerConfigError", "warning"),
    ],
)
def test_why_an_attempt_waits(reason, status):
    assert _waiting(Observation("pending", reason, "why")) == Waiting(status, reason, "why")


def _pod(name: str, code: int, message: str) -> dict:
    ended = {"terminated": {"exitCode": code, "message": message}}
    return {
        "metadata": {"name": name},
        "spec": {"containers": [{"name": "main"}, {"name": "sidecar"}]},
        "status": {
            "containerStatuses": [
                {
                    "name": "sidecar",
                    "state": {"terminated": {"exitCode": 0, "message": '{"x": 1}'}},
                },
                {"name": "main", "state": ended},
            ]
        },
    }


def test_outputs_are_the_main_containers_json_termination_messages_the_first_pod_first():
    pods = [
        _pod("j-worker-0", 0, '{"loss": 0.2, "rank": 1}'),
        _pod("j-master-0", 0, '{"loss": 0.1}'),
        _pod("j-worker-1", 1, '{"loss": 9}'),
        _pod("j-worker-2", 0, "not json"),
    ]
    assert _outputs(pods) == {"loss": 0.1, "rank": 1}


def test_only_what_has_a_ttl_stays():
    assert _keeps({"spec": {"ttlSecondsAfterFinished": 60}})
    assert _keeps({"spec": {"runPolicy": {"ttlSecondsAfterFinished": 60}}})
    assert not _keeps({"spec": {"replicas": 1}})
    assert not _keeps(None)


def test_the_kubernetes_settings_make_the_cluster(monkeypatch):
    monkeypatch.setenv("AXONAL_AGENT_EXECUTOR", "kubernetes")
    monkeypatch.setenv("AXONAL_AGENT_KUBE_NAMESPACE", "runs")
    monkeypatch.setenv("AXONAL_AGENT_KUBE_NAMESPACES", '{"gpu": "gpu-runs"}')
    monkeypatch.setenv("AXONAL_AGENT_KUBE_NODE_SELECTOR", '{"pool": "runs"}')
    monkeypatch.setenv(
        "AXONAL_AGENT_KUBE_CONNECTIONS",
        '{"repo": {"kind": "git", "schema": {"url": "https://git.example.com/a.git"},'
        ' "secret": {"name": "git-token", "items": ["TOKEN"]}}}',
    )
    settings = AgentSettings()
    cluster = cluster_of(settings)

    assert settings.executor == "kubernetes"
    assert settings.kube_namespaces == {"gpu": "gpu-runs"}
    assert (cluster.namespace, dict(cluster.node_selector)) == ("runs", {"pool": "runs"})
    repo = cluster.connections["repo"]
    assert (repo.kind, dict(repo.schema)) == ("git", {"url": "https://git.example.com/a.git"})
    assert repo.secret == SourceRef("git-token", ("TOKEN",))


def test_a_log_goes_on_after_its_last_line(tmp_path):
    file = tmp_path / "logs.txt"
    assert resume_point(file) == (0, None)
    file.write_text(
        "2026-03-01T12:00:00.250000+00:00 stdout one\n"
        "2026-03-01T12:00:01.500000+00:00 agent two words\n"
    )
    assert resume_point(file) == (2, datetime(2026, 3, 1, 12, 0, 1, 500000, tzinfo=UTC))
