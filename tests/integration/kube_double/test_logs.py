"""Pod logs: 400 before the container starts, follow until it terminates."""

from __future__ import annotations

import asyncio
import json

import pytest
from kubernetes_asyncio import watch
from kubernetes_asyncio.client import ApiClient, BatchV1Api, CoreV1Api
from kubernetes_asyncio.client.exceptions import ApiException

from axonal_testing.kube.double import KubeDouble
from axonal_testing.waiting import wait_for

from .conftest import NS, job_manifest


@pytest.fixture
async def pod(api: ApiClient, kube_double: KubeDouble) -> str:
    await BatchV1Api(api).create_namespaced_job(NS, job_manifest("step-a"))
    return kube_double.job_pod(NS, "step-a")


async def test_logs_of_a_pod_not_yet_on_a_node_are_empty(api: ApiClient, pod: str):
    assert await CoreV1Api(api).read_namespaced_pod_log(pod, NS) == ""


async def test_logs_of_a_waiting_container_are_400(
    api: ApiClient, kube_double: KubeDouble, pod: str
):
    core = CoreV1Api(api)
    kube_double.kubelet.schedule(NS, pod)
    with pytest.raises(ApiException) as creating:
        await core.read_namespaced_pod_log(pod, NS, container="step")
    kube_double.kubelet.pull_failed(NS, pod, backoff=True)
    with pytest.raises(ApiException) as pulling:
        await core.read_namespaced_pod_log(pod, NS, container="step")

    assert creating.value.status == 400
    assert json.loads(creating.value.body)["message"] == (
        f'container "step" in pod "{pod}" is waiting to start: ContainerCreating'
    )
    assert json.loads(pulling.value.body)["message"] == (
        f'container "step" in pod "{pod}" is waiting to start: trying and failing to pull image'
    )


async def test_an_unknown_container_is_400(api: ApiClient, kube_double: KubeDouble, pod: str):
    with pytest.raises(ApiException) as caught:
        await CoreV1Api(api).read_namespaced_pod_log(pod, NS, container="nope")

    assert caught.value.status == 400
    assert json.loads(caught.value.body)["message"] == f"container nope is not valid for pod {pod}"


async def test_follow_streams_lines_as_they_come_and_ends_with_the_container(
    api: ApiClient, kube_double: KubeDouble, pod: str
):
    kube_double.kubelet.schedule(NS, pod)
    kube_double.kubelet.start(NS, pod)
    kube_double.log(NS, pod, "epoch 0")
    received: list[str] = []

    async def follow() -> None:
        async with watch.Watch() as w:
            async for line in w.stream(
                CoreV1Api(api).read_namespaced_pod_log, pod, NS, container="step"
            ):
                received.append(line.rstrip("\n"))

    task = asyncio.create_task(follow())
    await wait_for(lambda: received == ["epoch 0"])
    kube_double.log(NS, pod, "epoch 1", "epoch 2")
    await wait_for(lambda: received == ["epoch 0", "epoch 1", "epoch 2"])
    assert not task.done()
    kube_double.log(NS, pod, "last words")
    kube_double.kubelet.terminate(NS, pod, 0)
    await asyncio.wait_for(task, 3)

    assert received == ["epoch 0", "epoch 1", "epoch 2", "last words"]


async def test_tail_lines_and_timestamps(api: ApiClient, kube_double: KubeDouble, pod: str):
    kube_double.kubelet.schedule(NS, pod)
    kube_double.kubelet.start(NS, pod)
    kube_double.log(NS, pod, "a\nb\nc")

    tail = await CoreV1Api(api).read_namespaced_pod_log(pod, NS, tail_lines=2)
    stamped = await CoreV1Api(api).read_namespaced_pod_log(pod, NS, timestamps=True)

    assert tail == "b\nc\n"
    assert await CoreV1Api(api).read_namespaced_pod_log(pod, NS, since_seconds=60) == "a\nb\nc\n"
    first = stamped.splitlines()[0]
    assert first.endswith("Z a")
    assert first[:4].isdigit()
