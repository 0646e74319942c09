"""A submission's hubRef components come from the registry, one RPC per distinct reference;
an unknown reference fails the run naming hubRef."""

import json

import pytest_asyncio

from axonal_bus import rpc
from axonal_events.automations import AutomationSpec
from axonal_events.hub import PushComponent
from axonal_events.rpcs import Registry, Scheduler
from axonal_testing.waiting import wait_for

TRAINER = """
kind: component
name: trainer
inputs: [{name: lr, type: float, value: 0.1, isOptional: true}]
run: {kind: job, container: {image: python, command: [echo, "trainer v2 lr={{ lr }}"]}}
"""

PIPELINE = """
kind: operation
name: pipe
component:
  run:
    kind: dag
    operations:
      - {name: a, hubRef: "acme/trainer:v2", params: {lr: {value: 0.5}}}
      - {name: b, hubRef: "acme/trainer:v2", dependencies: [a]}
"""


@pytest_asyncio.fixture
async def trainer(registry, nats_client):
    """``acme/trainer:v2`` pushed to the registry."""
    push = PushComponent(owner="acme", name="trainer", tag="v2", content=TRAINER)
    await rpc.call(nats_client, registry.subjects, Registry.push_component, push)


async def test_a_dag_runs_the_pushed_component_with_one_lookup_per_ref(
    registry, trainer, scheduler, nats_client
):
    asked: list[str] = []

    async def overhear(msg):
        asked.append(json.loads(msg.data)["ref"])

    subject = Registry.resolve_component.subject(registry.subjects)
    sub = await nats_client.subscribe(subject, cb=overhear)
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    run_uuid = await scheduler.submit(PIPELINE)
    await scheduler.wait_status(run_uuid, "succeeded")
    await sub.unsubscribe()

    commands = {c.name: c.run["container"]["command"] for c in scheduler.agent.received}
    assert commands == {"a": ["echo", "trainer v2 lr=0.5"], "b": ["echo", "trainer v2 lr=0.1"]}
    assert asked == ["acme/trainer:v2"]


async def test_an_unknown_ref_fails_the_run_naming_hubref(trainer, scheduler):
    run_uuid = await scheduler.submit(PIPELINE.replace("acme/trainer:v2", "acme/trainer:v3"))
    run = await scheduler.wait_status(run_uuid, "failed")
    assert run.reason == "CompilationError"
    assert "hubRef" in (run.message or "")
    assert "has no tag `v3`: its tags are v2" in (run.message or "")


async def test_without_a_registry_the_builtins_still_resolve(scheduler):
    text = "kind: operation\nhubRef: tensorboard\nparams: {uuid: {value: abc}}\n"
    run_uuid = await scheduler.submit(text)
    run = await wait_for(lambda: scheduler.get(run_uuid), message="the tensorboard run is created")
    assert run.kind == "service"


async def test_an_automation_may_start_a_pushed_component(trainer, scheduler):
    spec = AutomationSpec(
        project="acme/demo", name="retrain", event="run.succeeded", hub_ref="acme/trainer:v2"
    )
    rpc_call = rpc.call(scheduler.nc, scheduler.subjects, Scheduler.create_automation, spec)
    assert (await rpc_call).hub_ref == "acme/trainer:v2"
