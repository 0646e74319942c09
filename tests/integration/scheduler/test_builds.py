"""An op's ``build`` section: its builder runs first, and the run starts on the built image."""

from .conftest import Client

BUILT = """
version: 1.1
kind: operation
name: train
build:
  hubRef: kaniko
  params:
    destination: {value: "registry.local/acme/train:v1"}
component:
  run: {kind: job, container: {image: python, command: [train]}}
"""


async def test_the_builder_runs_first_and_its_image_becomes_the_runs(scheduler: Client):
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    run = await scheduler.submit(BUILT)
    await scheduler.wait_status(run, "succeeded")
    builder, trained = scheduler.agent.received
    assert builder.build == {"destination": "registry.local/acme/train:v1", "context": None}
    assert builder.name == "train-build"
    assert (trained.run_uuid, trained.build) == (run, None)
    assert trained.run["container"]["image"] == "registry.local/acme/train:v1"


async def test_a_failed_build_fails_the_run_with_why(scheduler: Client):
    scheduler.agent.script = lambda cmd: [("failed", {"reason": "BuildUnavailable"})]
    params = '  params:\n    destination: {value: "registry.local/acme/train:v1"}\n'
    default = BUILT.replace(params, "")  # the destination defaults
    run = await scheduler.submit(default)
    failed = await scheduler.wait_status(run, "failed")
    assert failed.reason == "BuildFailed"
    assert "its build" in (failed.message or "")
    [builder] = scheduler.agent.received
    assert builder.build["destination"] == f"demo:{run}"  # Polyaxon's default
