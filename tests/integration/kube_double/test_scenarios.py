"""The scripted sequences of a Job's pod, as the executor sees them through watches."""

from __future__ import annotations

import asyncio
from typing import Any

from kubernetes_asyncio import watch
from kubernetes_asyncio.client import ApiClient, BatchV1Api, CoreV1Api

from axonal_testing.kube.double import KubeDouble
from axonal_testing.kube.scenarios import Step

from .conftest import NS, job_manifest

JOB = "step-a"


async def _replay(api: ApiClient, double: KubeDouble, steps: list[Step]) -> dict[str, list[Any]]:
    """Create the Job, replay ``steps`` while watching its pods and itself; the events seen."""
    created = await BatchV1Api(api).create_namespaced_job(NS, job_manifest(JOB))
    seen: dict[str, list[Any]] = {"pods": [], "jobs": []}

    async def watching(kind: str, lister, **selector: str) -> None:
        async with watch.Watch() as w:
            stream = w.stream(
                lister,
                NS,
                resource_version=created.metadata.resource_version,
                timeout_seconds=1,
                **selector,
            )
            async for event in stream:
                seen[kind].append((event["type"], event["object"]))

    both = asyncio.gather(
        watching("pods", CoreV1Api(api).list_namespaced_pod, label_selector=f"job-name={JOB}"),
        watching(
            "jobs", BatchV1Api(api).list_namespaced_job, field_selector=f"metadata.name={JOB}"
        ),
    )
    await double.play(steps, pause=0.01)
    await both
    return seen


def _phases(seen: dict[str, list[Any]]) -> list[str]:
    phases: list[str] = []
    for typ, pod in seen["pods"]:
        if typ != "DELETED" and (not phases or phases[-1] != pod.status.phase):
            phases.append(pod.status.phase)
    return phases


def _conditions(obj: Any) -> dict[str, Any]:
    return {c.type: c for c in obj.status.conditions or []}


def _last_job(seen: dict[str, list[Any]]) -> Any:
    return seen["jobs"][-1][1]


async def test_pending_running_succeeded(api: ApiClient, kube_double: KubeDouble):
    seen = await _replay(api, kube_double, kube_double.scenarios.succeeded(NS, JOB, ("ok",)))

    assert _phases(seen) == ["Pending", "Running", "Succeeded"]
    pod = seen["pods"][-1][1]
    [state] = pod.status.container_statuses
    assert (state.state.terminated.exit_code, state.state.terminated.reason) == (0, "Completed")
    assert _conditions(pod)["Ready"].reason == "PodCompleted"
    job = _last_job(seen)
    assert [c.type for c in job.status.conditions] == ["SuccessCriteriaMet", "Complete"]
    assert _conditions(job)["Complete"].reason == "CompletionsReached"
    assert (job.status.succeeded, job.status.active, job.status.failed) == (1, None, None)
    assert job.status.completion_time is not None
    running = [p for _, p in seen["pods"] if p.status.phase == "Running"]
    assert _conditions(running[0])["Ready"].status == "True"
    active = [j for _, j in seen["jobs"] if j.status.active]
    assert active[-1].status.ready == 1


async def test_oom_killed(api: ApiClient, kube_double: KubeDouble):
    seen = await _replay(api, kube_double, kube_double.scenarios.oom_killed(NS, JOB))

    assert _phases(seen) == ["Pending", "Running", "Failed"]
    terminated = seen["pods"][-1][1].status.container_statuses[0].state.terminated
    assert (terminated.reason, terminated.exit_code) == ("OOMKilled", 137)
    job = _last_job(seen)
    assert [c.type for c in job.status.conditions] == ["FailureTarget", "Failed"]
    failed = _conditions(job)["Failed"]
    assert (failed.reason, failed.message) == (
        "BackoffLimitExceeded",
        "Job has reached the specified backoff limit",
    )
    assert job.status.failed == 1


async def test_image_pull_failure_keeps_the_pod_pending(api: ApiClient, kube_double: KubeDouble):
    seen = await _replay(api, kube_double, kube_double.scenarios.image_pull_fails(NS, JOB))

    assert _phases(seen) == ["Pending"]
    reasons = [
        p.status.container_statuses[0].state.waiting.reason
        for _, p in seen["pods"]
        if p.status.container_statuses
    ]
    assert reasons == ["ContainerCreating", "ErrImagePull", "ImagePullBackOff"]
    last = seen["pods"][-1][1].status.container_statuses[0].state.waiting
    assert last.message == 'Back-off pulling image "busybox"'
    job = _last_job(seen)
    assert job.status.conditions is None
    assert job.status.active == 1


async def test_evicted(api: ApiClient, kube_double: KubeDouble):
    seen = await _replay(api, kube_double, kube_double.scenarios.evicted(NS, JOB))

    pod = seen["pods"][-1][1]
    assert (pod.status.phase, pod.status.reason) == ("Failed", "Evicted")
    assert pod.status.message.startswith("The node was low on resource: memory.")
    assert _conditions(pod)["DisruptionTarget"].reason == "TerminationByKubelet"
    assert _conditions(_last_job(seen))["Failed"].status == "True"


async def test_node_lost(api: ApiClient, kube_double: KubeDouble):
    seen = await _replay(api, kube_double, kube_double.scenarios.node_lost(NS, JOB))

    kinds = [typ for typ, _ in seen["pods"]]
    assert kinds[-1] == "DELETED"
    before = seen["pods"][-2][1]
    assert _conditions(before)["DisruptionTarget"].reason == "DeletionByTaintManager"
    assert _conditions(before)["Ready"].status == "False"
    assert before.metadata.deletion_timestamp is not None
    assert seen["pods"][-1][1].status.phase == "Failed"
    job = _last_job(seen)
    assert _conditions(job)["Failed"].reason == "BackoffLimitExceeded"
    assert kube_double.pods(NS, f"job-name={JOB}") == []


async def test_unschedulable(api: ApiClient, kube_double: KubeDouble):
    seen = await _replay(api, kube_double, kube_double.scenarios.unschedulable(NS, JOB))

    pod = seen["pods"][-1][1]
    assert pod.status.phase == "Pending"
    scheduled = _conditions(pod)["PodScheduled"]
    assert (scheduled.status, scheduled.reason) == ("False", "Unschedulable")
    assert "Insufficient nvidia.com/gpu" in scheduled.message
    assert pod.spec.node_name is None


async def test_a_failed_pod_is_replaced_while_the_backoff_limit_allows(
    api: ApiClient, kube_double: KubeDouble
):
    manifest = job_manifest(JOB)
    manifest["spec"]["backoffLimit"] = 1
    await BatchV1Api(api).create_namespaced_job(NS, manifest)
    first = kube_double.job_pod(NS, JOB)

    await kube_double.play(kube_double.scenarios.failed(NS, JOB))
    second = kube_double.job_pod(NS, JOB)
    job = await BatchV1Api(api).read_namespaced_job(JOB, NS)

    assert second != first
    assert (job.status.failed, job.status.active, job.status.conditions) == (1, 1, None)
    await kube_double.play(kube_double.scenarios.failed(NS, JOB))
    job = await BatchV1Api(api).read_namespaced_job(JOB, NS)
    assert job.status.failed == 2
    assert _conditions(job)["Failed"].status == "True"


async def test_the_termination_message_is_what_the_container_wrote_else_its_log_on_error(
    api: ApiClient, kube_double: KubeDouble
):
    manifest = job_manifest(JOB)
    container = manifest["spec"]["template"]["spec"]["containers"][0]
    container["terminationMessagePolicy"] = "FallbackToLogsOnError"
    await BatchV1Api(api).create_namespaced_job(NS, manifest)
    await kube_double.play(kube_double.scenarios.succeeded(NS, JOB, message='{"loss": 0.1}'))
    [ok] = kube_double.pods(NS, f"job-name={JOB}")
    await BatchV1Api(api).create_namespaced_job(NS, {**manifest, "metadata": {"name": "step-b"}})
    lines = tuple(f"line {n}" for n in range(100))
    await kube_double.play(kube_double.scenarios.failed(NS, "step-b", 3, lines))
    [failed] = kube_double.pods(NS, "job-name=step-b")

    assert ok["status"]["containerStatuses"][0]["state"]["terminated"]["message"] == (
        '{"loss": 0.1}'
    )
    message = failed["status"]["containerStatuses"][0]["state"]["terminated"]["message"]
    assert message == "\n".join(lines[20:])
