"""Deployments: a ReplicaSet, a pod per replica, Available once the pods are ready."""

from __future__ import annotations

from kubernetes_asyncio.client import ApiClient, AppsV1Api, CoreV1Api

from axonal_testing.kube.double import KubeDouble

from .conftest import NS


def deployment(name: str, replicas: int) -> dict:
    labels = {"app": name}
    return {
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "serve", "image": "server:1"}]},
            },
        },
    }


async def test_a_deployment_gets_a_replica_set_and_a_pod_per_replica(
    api: ApiClient, kube_double: KubeDouble
):
    apps = AppsV1Api(api)
    created = await apps.create_namespaced_deployment(NS, deployment("serve", 3))

    [rs] = (await apps.list_namespaced_replica_set(NS)).items
    pods = (await CoreV1Api(api).list_namespaced_pod(NS, label_selector="app=serve")).items

    assert rs.metadata.owner_references[0].uid == created.metadata.uid
    pod_hash = rs.metadata.labels["pod-template-hash"]
    assert rs.metadata.name == f"serve-{pod_hash}"
    assert len(pods) == 3
    assert {p.metadata.owner_references[0].name for p in pods} == {rs.metadata.name}
    assert {p.metadata.labels["pod-template-hash"] for p in pods} == {pod_hash}
    assert {p.status.phase for p in pods} == {"Pending"}
    status = (await apps.read_namespaced_deployment("serve", NS)).status
    available = {c.type: c for c in status.conditions}["Available"]
    assert (available.status, available.reason) == ("False", "MinimumReplicasUnavailable")


async def test_a_deployment_is_available_once_its_pods_are_ready(
    api: ApiClient, kube_double: KubeDouble
):
    apps = AppsV1Api(api)
    await apps.create_namespaced_deployment(NS, deployment("serve", 2))

    for pod in kube_double.pods(NS, "app=serve"):
        kube_double.kubelet.schedule(NS, pod["metadata"]["name"])
        kube_double.kubelet.start(NS, pod["metadata"]["name"])
    status = (await apps.read_namespaced_deployment("serve", NS)).status

    conditions = {c.type: c for c in status.conditions}
    assert (conditions["Available"].status, conditions["Available"].reason) == (
        "True",
        "MinimumReplicasAvailable",
    )
    assert conditions["Progressing"].reason == "NewReplicaSetAvailable"
    assert (status.ready_replicas, status.available_replicas, status.replicas) == (2, 2, 2)


async def test_a_deleted_deployment_pod_is_replaced(api: ApiClient, kube_double: KubeDouble):
    await AppsV1Api(api).create_namespaced_deployment(NS, deployment("serve", 1))
    [pod] = kube_double.pods(NS, "app=serve")

    await CoreV1Api(api).delete_namespaced_pod(pod["metadata"]["name"], NS)

    [replacement] = kube_double.pods(NS, "app=serve")
    assert replacement["metadata"]["name"] != pod["metadata"]["name"]


def _conditions(status: dict) -> dict[str, dict]:
    return {c["type"]: c for c in status.get("conditions") or []}


async def test_a_crashed_container_is_restarted_in_its_pod_then_backs_off(
    api: ApiClient, kube_double: KubeDouble
):
    await AppsV1Api(api).create_namespaced_deployment(NS, deployment("serve", 1))
    steps = kube_double.scenarios.of("deployments").oom_killed(NS, "serve", ("allocating",))
    await kube_double.play(steps)
    [pod] = kube_double.pods(NS, "app=serve")
    name = pod["metadata"]["name"]
    first = pod["status"]["containerStatuses"][0]
    kube_double.log(NS, name, "restarted")
    core = CoreV1Api(api)
    current = await core.read_namespaced_pod_log(name, NS)

    assert pod["status"]["phase"] == "Running"  # the pod stays: the kubelet restarts it
    assert (first["restartCount"], list(first["state"])) == (1, ["running"])
    ended = first["lastState"]["terminated"]
    assert (ended["reason"], ended["exitCode"]) == ("OOMKilled", 137)
    assert current == "restarted\n"  # a restarted container's log is a new one
    kube_double.kubelet.terminate(NS, name, 137, "OOMKilled")
    again = kube_double.pods(NS, "app=serve")[0]["status"]["containerStatuses"][0]
    assert again["restartCount"] == 1
    assert again["state"]["waiting"]["reason"] == "CrashLoopBackOff"
    assert again["state"]["waiting"]["message"].startswith(
        f"back-off 10s restarting failed container=serve pod={name}_{NS}("
    )
    deployment_status = kube_double.get("deployments", NS, "serve")["status"]
    assert _conditions(deployment_status)["Available"]["status"] == "False"
    kube_double.kubelet.start(NS, name)  # the back-off is over
    restarted = kube_double.pods(NS, "app=serve")[0]["status"]["containerStatuses"][0]
    assert (restarted["restartCount"], restarted["ready"]) == (2, True)


async def test_an_evicted_or_lost_deployment_pod_is_replaced(
    api: ApiClient, kube_double: KubeDouble
):
    await AppsV1Api(api).create_namespaced_deployment(NS, deployment("serve", 1))
    await kube_double.play(kube_double.scenarios.of("deployments").evicted(NS, "serve"))
    evicted, replacement = sorted(
        kube_double.pods(NS, "app=serve"), key=lambda p: p["status"]["phase"]
    )

    assert (evicted["status"]["phase"], evicted["status"]["reason"]) == ("Failed", "Evicted")
    assert replacement["status"]["phase"] == "Pending"
    steps = kube_double.scenarios.of("deployments").node_lost(NS, "serve")
    await kube_double.play(steps[:-1])  # up to the node not answering
    [on_lost] = [
        p for p in kube_double.pods(NS, "app=serve") if p["spec"].get("nodeName") == "node-lost"
    ]
    assert on_lost["status"]["phase"] == "Running"
    assert _conditions(on_lost["status"])["Ready"]["status"] == "False"
    steps[-1].run()
    pods = kube_double.pods(NS, "app=serve")
    assert on_lost["metadata"]["name"] not in {p["metadata"]["name"] for p in pods}
    assert sorted(p["status"]["phase"] for p in pods) == ["Failed", "Pending"]


async def test_a_service_gets_a_cluster_ip(api: ApiClient):
    body = {"metadata": {"name": "svc"}, "spec": {"ports": [{"port": 80}], "selector": {"a": "b"}}}

    created = await CoreV1Api(api).create_namespaced_service(NS, body)

    assert created.spec.type == "ClusterIP"
    assert created.spec.cluster_ip
