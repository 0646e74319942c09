"""DELETE with propagationPolicy: Background and Foreground take the pods, Orphan leaves them."""

from __future__ import annotations

import asyncio

from kubernetes_asyncio import watch
from kubernetes_asyncio.client import ApiClient, AppsV1Api, BatchV1Api, CoreV1Api, V1DeleteOptions

from axonal_testing.kube.double import KubeDouble
from axonal_testing.kube.gc import Deletion

from .conftest import NS, job_manifest


async def _job_pods(api: ApiClient, job: str) -> list:
    return (await CoreV1Api(api).list_namespaced_pod(NS, label_selector=f"job-name={job}")).items


async def test_background_deletes_the_job_and_its_pods(api: ApiClient, kube_double: KubeDouble):
    batch = BatchV1Api(api)
    await batch.create_namespaced_job(NS, job_manifest("step-a"))
    await kube_double.play(kube_double.scenarios.succeeded(NS, "step-a")[:2])  # running
    [pod] = await _job_pods(api, "step-a")

    answer = await batch.delete_namespaced_job("step-a", NS, propagation_policy="Background")

    assert answer.status == "Success"
    assert answer.details.uid
    assert await _job_pods(api, "step-a") == []
    assert kube_double.get("jobs", NS, "step-a") is None
    assert kube_double.deletions == [Deletion("jobs", NS, "step-a", "Background", "Background")]
    assert pod.metadata.finalizers == ["batch.kubernetes.io/job-tracking"]


async def test_orphan_leaves_the_pods_without_their_owner(api: ApiClient, kube_double: KubeDouble):
    batch = BatchV1Api(api)
    await batch.create_namespaced_job(NS, job_manifest("step-a"))

    answer = await batch.delete_namespaced_job(
        "step-a", NS, body=V1DeleteOptions(propagation_policy="Orphan")
    )

    assert answer.status == "Success"
    [pod] = await _job_pods(api, "step-a")
    assert pod.metadata.owner_references is None
    assert kube_double.get("jobs", NS, "step-a") is None
    assert kube_double.deletions[-1].policy == "Orphan"


async def test_without_a_policy_a_job_orphans_its_pods_and_the_server_warns(
    api: ApiClient, kube_double: KubeDouble
):
    batch = BatchV1Api(api)
    await batch.create_namespaced_job(NS, job_manifest("step-a"))

    _, code, headers = await batch.delete_namespaced_job_with_http_info("step-a", NS)

    assert code == 200
    assert "child pods are preserved by default" in headers["Warning"]
    assert len(await _job_pods(api, "step-a")) == 1
    assert kube_double.deletions == [Deletion("jobs", NS, "step-a", None, "Orphan")]


async def test_foreground_deletes_the_pods_before_the_job(api: ApiClient):
    batch = BatchV1Api(api)
    created = await batch.create_namespaced_job(NS, job_manifest("step-a"))
    events: list[tuple[int, str, str, list[str] | None]] = []  # (resourceVersion, ...)

    async def watching(lister, selector: str) -> None:
        async with watch.Watch() as w:
            stream = w.stream(
                lister,
                NS,
                label_selector=selector,
                resource_version=created.metadata.resource_version,
                timeout_seconds=1,
            )
            async for e in stream:
                meta = e["object"].metadata
                version = int(meta.resource_version)
                events.append((version, e["type"], e["object"].kind, meta.finalizers))

    both = asyncio.gather(
        watching(batch.list_namespaced_job, "app=axonal"),
        watching(CoreV1Api(api).list_namespaced_pod, "job-name=step-a"),
    )
    await batch.delete_namespaced_job("step-a", NS, propagation_policy="Foreground")
    await both

    events.sort()  # two watches: their events interleave by resourceVersion, the etcd order
    marked = [(typ, fin) for _, typ, kind, fin in events if kind == "Job" and fin]
    assert marked[0] == ("MODIFIED", ["foregroundDeletion"])  # marked, still there
    deleted = [kind for _, typ, kind, _ in events if typ == "DELETED"]
    assert deleted == ["Pod", "Job"]
    assert await _job_pods(api, "step-a") == []


async def test_deleting_a_pod_answers_the_pod(api: ApiClient, kube_double: KubeDouble):
    core = CoreV1Api(api)
    body = {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}
    await core.create_namespaced_pod(NS, body)
    kube_double.kubelet.schedule(NS, "p")
    kube_double.kubelet.start(NS, "p")

    answer = await core.delete_namespaced_pod("p", NS)

    assert answer.kind == "Pod"  # as it was when marked for deletion, still running
    assert answer.metadata.deletion_grace_period_seconds == 30
    assert answer.metadata.deletion_timestamp is not None
    assert answer.status.phase == "Running"
    assert kube_double.get("pods", NS, "p") is None  # the kubelet stopped it (at once, here)


async def test_background_deletion_of_a_deployment_takes_its_replica_set_and_pods(
    api: ApiClient, kube_double: KubeDouble
):
    apps = AppsV1Api(api)
    labels = {"app": "serve"}
    body = {
        "metadata": {"name": "serve"},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "s", "image": "x"}]},
            },
        },
    }
    await apps.create_namespaced_deployment(NS, body)
    assert len(kube_double.pods(NS, "app=serve")) == 2

    await apps.delete_namespaced_deployment("serve", NS, propagation_policy="Background")

    assert (await apps.list_namespaced_replica_set(NS)).items == []
    assert kube_double.pods(NS, "app=serve") == []
