"""Create, get, list and delete through the real kubernetes_asyncio client."""

from __future__ import annotations

import json

import pytest
from kubernetes_asyncio.client import ApiClient, BatchV1Api, CoreV1Api
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
    assert (owner.kind, owner.name, owner.uid, owner.controller) == ("Job", "step-a", job.metadata.uid, True)
