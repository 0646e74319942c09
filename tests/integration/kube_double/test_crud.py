"""Create, get, list and delete through the real kubernetes_asyncio client."""

from __future__ import annotations

import json

import pytest
from kubernetes_asyncio.client import ApiClient, BatchV1Api, CoreV1Api, CustomObjectsApi
from kubernetes_asyncio.client.exceptions import ApiException

from axonal_testing.kube.double import KubeDouble

from .conftest import NS, job_manifest


async def test_create_answers_the_stored_object_with_uid_and_resource_version(
    api: ApiClient, kube_double: KubeDouble
):
    created = await BatchV1Api(api).create_namespaced_job(NS, job_manifest("step-a"))

    assert created.metadata.uid
    assert 0 < int(created.metadata.resource_version) <= kube_double.revision
    assert created.metadata.creation_timestamp is not None
    assert created.spec.selector.match_labels == {
        "batch.kubernetes.io/controller-uid": created.metadata.uid
    }


async def test_a_second_create_is_409_already_exists(api: ApiClient):
    jobs = BatchV1Api(api)
    await jobs.create_namespaced_job(NS, job_manifest("step-a"))

    with pytest.raises(ApiException) as caught:
        await jobs.create_namespaced_job(NS, job_manifest("step-a"))

    assert caught.value.status == 409
    status = json.loads(caught.value.body)
    assert status["kind"] == "Status"
    assert status["reason"] == "AlreadyExists"
    assert status["message"] == 'jobs.batch "step-a" already exists'
    assert status["details"] == {"name": "step-a", "group": "batch", "kind": "jobs"}


async def test_get_of_a_missing_object_is_404_not_found(api: ApiClient):
    with pytest.raises(ApiException) as caught:
        await BatchV1Api(api).read_namespaced_job("nope", NS)

    assert caught.value.status == 404
    assert json.loads(caught.value.body)["reason"] == "NotFound"


async def test_the_job_controller_makes_a_pending_pod_owned_by_the_job(api: ApiClient):
    job = await BatchV1Api(api).create_namespaced_job(NS, job_manifest("step-a"))

    pods = await CoreV1Api(api).list_namespaced_pod(NS, label_selector="job-name=step-a")

    [pod] = pods.items
    assert pod.status.phase == "Pending"
    assert pod.metadata.labels["batch.kubernetes.io/job-name"] == "step-a"
    assert pod.metadata.labels["controller-uid"] == job.metadata.uid
    [owner] = pod.metadata.owner_references
    assert (owner.kind, owner.name, owner.uid) == ("Job", "step-a", job.metadata.uid)
    assert owner.controller is True


async def test_a_missing_name_is_422_invalid(api: ApiClient):
    manifest = job_manifest("x")
    del manifest["metadata"]["name"]

    with pytest.raises(ApiException) as caught:
        await BatchV1Api(api).create_namespaced_job(NS, manifest)

    assert caught.value.status == 422
    status = json.loads(caught.value.body)
    assert status["reason"] == "Invalid"
    assert status["details"]["causes"][0]["field"] == "metadata.name"


async def test_generate_name_gets_a_suffix(api: ApiClient):
    body = {"metadata": {"generateName": "cfg-"}, "data": {"a": "1"}}

    created = await CoreV1Api(api).create_namespaced_config_map(NS, body)

    assert created.metadata.name.startswith("cfg-")
    assert len(created.metadata.name) == len("cfg-") + 5


async def test_list_filters_by_label_and_field_selectors_and_carries_a_resource_version(
    api: ApiClient, kube_double: KubeDouble
):
    core = CoreV1Api(api)
    for name, tier in (("a", "gpu"), ("b", "cpu"), ("c", "gpu")):
        body = {"metadata": {"name": name, "labels": {"tier": tier}}, "data": {}}
        await core.create_namespaced_config_map(NS, body)
    await core.create_namespaced_config_map("elsewhere", {"metadata": {"name": "a"}})

    def names(listing):
        return [i.metadata.name for i in listing.items]

    assert names(await core.list_namespaced_config_map(NS, label_selector="tier=gpu")) == ["a", "c"]
    assert names(await core.list_namespaced_config_map(NS, label_selector="tier!=gpu")) == ["b"]
    assert names(
        await core.list_namespaced_config_map(
            NS, label_selector="tier in (cpu,gpu),tier notin (gpu)"
        )
    ) == ["b"]
    assert names(await core.list_namespaced_config_map(NS, field_selector="metadata.name=c")) == [
        "c"
    ]
    everywhere = await core.list_config_map_for_all_namespaces(field_selector="metadata.name=a")
    assert sorted(i.metadata.namespace for i in everywhere.items) == sorted(["elsewhere", NS])
    listing = await core.list_namespaced_config_map(NS)
    assert listing.metadata.resource_version == str(kube_double.revision)


async def test_an_unsupported_field_selector_is_400(api: ApiClient):
    with pytest.raises(ApiException) as caught:
        await CoreV1Api(api).list_namespaced_config_map(NS, field_selector="data.a=1")

    assert caught.value.status == 400
    assert json.loads(caught.value.body)["message"] == "field label not supported: data.a"


async def test_a_secret_string_data_is_merged_into_data(api: ApiClient):
    body = {"metadata": {"name": "creds"}, "stringData": {"token": "s3cret"}}

    await CoreV1Api(api).create_namespaced_secret(NS, body)
    secret = await CoreV1Api(api).read_namespaced_secret("creds", NS)

    assert secret.data == {"token": "czNjcmV0"}
    assert secret.type == "Opaque"


async def test_status_changes_only_through_the_scripting_api(
    api: ApiClient, kube_double: KubeDouble
):
    jobs = BatchV1Api(api)
    await jobs.create_namespaced_job(NS, job_manifest("step-a"))

    with pytest.raises(ApiException) as caught:
        await jobs.patch_namespaced_job_status("step-a", NS, {"status": {"active": 5}})
    custom = CustomObjectsApi(api)
    head = {"template": {"spec": {"containers": [{"name": "ray-head", "image": "ray"}]}}}
    body = {"metadata": {"name": "c"}, "spec": {"headGroupSpec": head}}
    await custom.create_namespaced_custom_object("ray.io", "v1", NS, "rayclusters", body)
    kube_double.patch_status("rayclusters", NS, "c", state="ready")

    assert caught.value.status == 405
    got = await custom.get_namespaced_custom_object_status("ray.io", "v1", NS, "rayclusters", "c")
    assert got["status"] == {"state": "ready"}


async def test_a_job_without_containers_is_422_and_not_stored(
    api: ApiClient, kube_double: KubeDouble
):
    manifest = job_manifest("step-a")
    manifest["spec"]["template"]["spec"]["containers"] = []

    with pytest.raises(ApiException) as caught:
        await BatchV1Api(api).create_namespaced_job(NS, manifest)

    assert caught.value.status == 422
    assert kube_double.get("jobs", NS, "step-a") is None
