"""A submitted run keeps the warnings of its file: the fields the local agent ignores."""

from axonal_bus import rpc
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun

IGNORED = """
version: 1.1
kind: component
name: train
environment: {nodeSelector: {gpu: "true"}}
run:
  kind: job
  sidecars: [{name: proxy, image: envoy}]
  container: {command: [python, -c, "print(1)"]}
"""
PLAIN = """
version: 1.1
kind: component
run: {kind: job, container: {command: [python, -c, "print(1)"]}}
"""


async def test_a_submitted_run_carries_its_warnings(scheduler):
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    warned = await scheduler.submit(IGNORED)
    plain = await scheduler.submit(PLAIN)
    run = await scheduler.wait_status(warned, "succeeded")
    assert run.warnings == [
        "`run.sidecars` is ignored by the local agent: sidecar containers are not run",
        "`environment.nodeSelector` is ignored by the local agent: "
        "a Kubernetes setting; a local run is a process on the agent's host",
    ]
    read = await rpc.call(
        scheduler.nc, scheduler.subjects, Scheduler.get_run, GetRun(run_uuid=warned)
    )
    assert read.warnings == run.warnings
    assert (await scheduler.wait_status(plain, "succeeded")).warnings == []
