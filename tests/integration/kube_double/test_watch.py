"""Watches through kubernetes_asyncio's Watch: resourceVersions, 410 Gone, bookmarks."""

from __future__ import annotations

import asyncio

import pytest
from kubernetes_asyncio import watch
from kubernetes_asyncio.client import ApiClient, BatchV1Api, CoreV1Api
from kubernetes_asyncio.client.exceptions import ApiException

from axonal_testing.kube.double import KubeDouble
from axonal_testing.kube.resources import by_plural
from axonal_testing.waiting import wait_for

from .conftest import NS, job_manifest


async def _events(stream) -> list[tuple[str, str]]:
    return [(e["type"], e["object"].metadata.name) async for e in stream]


async def test_a_watch_from_a_resource_version_sees_exactly_the_later_events(api: ApiClient):
    core = CoreV1Api(api)
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "before"}})
    version = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "after"}})
    await core.delete_namespaced_config_map("before", NS)

    async with watch.Watch() as w:
        stream = w.stream(
            core.list_namespaced_config_map, NS, resource_version=version, timeout_seconds=1
        )
        events = await _events(stream)

    assert events == [("ADDED", "after"), ("DELETED", "before")]


async def test_a_watch_without_a_resource_version_starts_with_the_current_state(api: ApiClient):
    core = CoreV1Api(api)
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "a"}})

    async with watch.Watch() as w:
        stream = w.stream(core.list_namespaced_config_map, NS, timeout_seconds=1)
        events = await _events(stream)

    assert events == [("ADDED", "a")]


async def test_live_events_arrive_while_the_watch_is_open(api: ApiClient):
    core = CoreV1Api(api)
    version = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    seen: list[tuple[str, str]] = []

    async def watching() -> None:
        async with watch.Watch() as w:
            stream = w.stream(
                core.list_namespaced_config_map,
                NS,
                resource_version=version,
                label_selector="app=axonal",
                timeout_seconds=5,
            )
            async for event in stream:
                seen.append((event["type"], event["object"].metadata.name))
                if len(seen) == 2:
                    return

    task = asyncio.create_task(watching())
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "other"}})
    for name in ("x", "y"):
        body = {"metadata": {"name": name, "labels": {"app": "axonal"}}}
        await core.create_namespaced_config_map(NS, body)
    await asyncio.wait_for(task, 5)

    assert seen == [("ADDED", "x"), ("ADDED", "y")]


async def test_a_compacted_resource_version_is_410_gone_to_the_client(
    api: ApiClient, kube_double: KubeDouble
):
    core = CoreV1Api(api)
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "a"}})
    old = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "b"}})
    kube_double.compact()

    async with watch.Watch() as w:
        stream = w.stream(
            core.list_namespaced_config_map, NS, resource_version=old, timeout_seconds=1
        )
        with pytest.raises(ApiException) as caught:
            await _events(stream)

    assert caught.value.status == 410
    assert caught.value.reason.startswith("Expired: too old resource version")


async def test_after_410_the_client_relists_and_watches_from_the_new_version(
    api: ApiClient, kube_double: KubeDouble
):
    core = CoreV1Api(api)
    old = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "missed"}})
    kube_double.compact()
    attempts: list[str] = []

    async def watch_once(version: str) -> list[tuple[str, str]]:
        attempts.append(version)
        async with watch.Watch() as w:
            stream = w.stream(
                core.list_namespaced_config_map, NS, resource_version=version, timeout_seconds=1
            )
            return await _events(stream)

    relisted: list[list[str]] = []

    async def watch_relisting_on_410() -> list[tuple[str, str]]:
        version = old
        while True:  # the executor's pattern: on 410, re-list (the state) and watch from there
            try:
                return await watch_once(version)
            except ApiException as gone:
                if gone.status != 410:
                    raise
                listing = await core.list_namespaced_config_map(NS)
                relisted.append([i.metadata.name for i in listing.items])
                version = listing.metadata.resource_version

    task = asyncio.create_task(watch_relisting_on_410())
    await wait_for(lambda: len(attempts) == 2)
    await asyncio.sleep(0.1)  # the second watch is open
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "next"}})
    events = await task

    assert relisted == [["missed"]]
    assert len(attempts) == 2
    assert events == [("ADDED", "next")]


async def test_a_watch_without_timeout_retries_410_once_then_raises(
    api: ApiClient, kube_double: KubeDouble
):
    core = CoreV1Api(api)
    old = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    await core.create_namespaced_config_map(NS, {"metadata": {"name": "a"}})
    kube_double.compact()

    async with watch.Watch() as w:
        stream = w.stream(core.list_namespaced_config_map, NS, resource_version=old)
        with pytest.raises(ApiException) as caught:
            await asyncio.wait_for(_events(stream), 5)

    assert caught.value.status == 410


async def test_bookmarks_carry_the_resource_version_to_resume_from(
    api: ApiClient, kube_double: KubeDouble
):
    core = CoreV1Api(api)
    version = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    await CoreV1Api(api).create_namespaced_secret("other", {"metadata": {"name": "s"}})

    async with watch.Watch() as w:
        stream = w.stream(
            core.list_namespaced_config_map,
            NS,
            resource_version=version,
            allow_watch_bookmarks=True,
            timeout_seconds=2,
        )
        first = asyncio.create_task(anext(stream))
        await wait_for(lambda: kube_double.store.watching == 1)
        kube_double.bookmark()
        event = await asyncio.wait_for(first, 2)

        assert event["type"] == "BOOKMARK"
        assert event["raw_object"]["metadata"] == {"resourceVersion": str(kube_double.revision)}
        assert w.resource_version == str(kube_double.revision)


async def test_a_job_watch_by_name_follows_its_status(api: ApiClient, kube_double: KubeDouble):
    batch = BatchV1Api(api)
    created = await batch.create_namespaced_job(NS, job_manifest("step-a"))
    await batch.create_namespaced_job(NS, job_manifest("step-b"))
    await kube_double.play(kube_double.scenarios.succeeded(NS, "step-a"))

    async with watch.Watch() as w:
        stream = w.stream(
            batch.list_namespaced_job,
            NS,
            field_selector="metadata.name=step-a",
            resource_version=created.metadata.resource_version,
            timeout_seconds=1,
        )
        jobs = [e["object"] async for e in stream]

    assert {j.metadata.name for j in jobs} == {"step-a"}
    conditions = [c.type for c in jobs[-1].status.conditions]
    assert conditions == ["SuccessCriteriaMet", "Complete"]
    versions = [int(j.metadata.resource_version) for j in jobs]
    assert versions == sorted(versions)


async def test_an_outage_cuts_the_watches_and_serves_again_at_the_same_url(
    api: ApiClient, kube_double: KubeDouble
):
    core = CoreV1Api(api)
    version = (await core.list_namespaced_config_map(NS)).metadata.resource_version
    url = kube_double.url

    async def watching() -> list[tuple[str, str]]:
        async with watch.Watch() as w:
            stream = w.stream(
                core.list_namespaced_config_map, NS, resource_version=version, timeout_seconds=30
            )
            return await _events(stream)

    cut = asyncio.create_task(watching())
    await wait_for(lambda: kube_double.store.watching == 1)
    async with kube_double.outage():
        assert await asyncio.wait_for(cut, 5) == []
        kube_double.store.create(by_plural("configmaps"), NS, {"metadata": {"name": "while-away"}})
        kube_double.compact()

    listing = await core.list_namespaced_config_map(NS)
    assert kube_double.url == url
    assert [i.metadata.name for i in listing.items] == ["while-away"]
    async with watch.Watch() as w:
        stream = w.stream(
            core.list_namespaced_config_map, NS, resource_version=version, timeout_seconds=1
        )
        with pytest.raises(ApiException) as caught:
            await _events(stream)
    assert caught.value.status == 410
