"""``/api/v1/hub`` over the real registry: push, list, resolve, errors as 4xx; a run
submitted with a pushed hubRef validates against the registry."""

import pytest_asyncio

from axonal_registry.app import build_app as build_registry
from axonal_registry.settings import RegistrySettings

TRAINER = """
kind: component
name: trainer
inputs: [{name: lr, type: float}]
run: {kind: job, container: {image: python, command: [echo, "{{ lr }}"]}}
"""
HUB = "/api/v1/hub/components"


@pytest_asyncio.fixture
async def registry(service_settings, running_service):
    await running_service(build_registry(service_settings(RegistrySettings)))


def push(tag="v2", content=TRAINER, **extra):
    return {"owner": "acme", "name": "trainer", "tag": tag, "content": content, **extra}


async def test_push_list_and_resolve(client, registry):
    first = await client.post(HUB, json=push())
    assert first.status_code == 201, first.text
    assert first.json()["inputs"] == ["lr"]
    again = await client.post(HUB, json=push())
    assert again.status_code == 200

    listed = await client.get(HUB, params={"owner": "acme"})
    assert [(c["name"], c["tag"], c["latest"]) for c in listed.json()["components"]] == [
        ("trainer", "v2", True)
    ]
    found = await client.get("/api/v1/hub/resolve", params={"ref": "acme/trainer"})
    assert found.json()["content"] == TRAINER


async def test_bad_pushes_are_4xx_naming_the_problem(client, registry):
    broken = await client.post(HUB, json=push(content=TRAINER.replace("kind: job", "kind: x")))
    assert broken.status_code == 400
    assert broken.json()["message"].startswith("content: ")

    conflict = await client.post(HUB, json=push()) and await client.post(
        HUB, json=push(content=TRAINER + "description: changed\n")
    )
    assert conflict.status_code == 409
    assert "immutable" in conflict.json()["message"]

    builtin = await client.post(HUB, json={**push(), "owner": "axonal"})
    assert builtin.status_code == 403

    bad_tag = await client.post(HUB, json=push(tag="no spaces"))
    assert bad_tag.status_code in (400, 422)
    assert "tag" in bad_tag.text

    unknown = await client.get("/api/v1/hub/resolve", params={"ref": "acme/nothing:v1"})
    assert unknown.status_code == 404


async def test_a_run_with_a_pushed_hubref_is_accepted_and_an_unknown_one_refused(client, registry):
    await client.post(HUB, json=push())
    runs = "/api/v1/acme/demo/runs"
    operation = "kind: operation\nhubRef: acme/trainer:v2\nparams: {lr: {value: 0.1}}\n"
    accepted = await client.post(runs, json={"content": operation})
    assert accepted.status_code == 202, accepted.text

    refused = await client.post(runs, json={"content": operation.replace(":v2", ":v9")})
    assert refused.status_code == 400
    [problem] = refused.json()["details"]
    assert problem["location"] == "hubRef"
    assert "has no tag `v9`" in problem["message"]
