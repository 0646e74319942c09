"""Joins bind the values of earlier runs; ``ref: runs.<uuid>`` reads another run, waiting for
it when it is not done."""

from .conftest import Client

LOSSES = {"first": 0.5, "second": 0.2, "third": 0.1}


def job(name: str, tags: str = "[]") -> str:
    return f"""
version: 1.1
kind: operation
name: {name}
tags: {tags}
component:
  outputs: [{{name: loss, type: float}}]
  run: {{kind: job, container: {{image: python, command: [train]}}}}
"""


JOIN_DAG = """
version: 1.1
kind: operation
name: report
component:
  run:
    kind: dag
    operations:
    - name: summary
      joins:
      - query: "kind:job, status:succeeded, tags:sweep"
        sort: outputs.loss
        limit: 2
        params:
          losses: {value: outputs.loss}
          names: {value: globals.name, contextOnly: true}
      component:
        inputs: [{name: losses, type: "List[float]"}]
        run:
          kind: job
          container: {image: python, command: [echo, "losses={{ losses }}", "names={{ names }}"]}
"""


def received(scheduler: Client, name: str):
    return next((c for c in scheduler.agent.received if c.name == name), None)


async def test_a_join_binds_the_outputs_of_the_runs_its_query_matches(scheduler: Client):
    def script(cmd):
        return [("running", {}), ("succeeded", {"outputs": {"loss": LOSSES.get(cmd.name, 1)}})]

    scheduler.agent.script = script
    for name in LOSSES:
        await scheduler.wait_status(await scheduler.submit(job(name, "[sweep]")), "succeeded")
    await scheduler.wait_status(await scheduler.submit(job("untagged")), "succeeded")
    dag = await scheduler.submit(JOIN_DAG)
    await scheduler.wait_status(dag, "succeeded")
    summary = received(scheduler, "summary")
    assert summary.inputs["losses"] == [0.1, 0.2]
    assert summary.run["container"]["command"] == [
        "echo",
        "losses=[0.1, 0.2]",
        "names=['third', 'second']",
    ]


async def test_a_ref_to_another_run_waits_for_it_then_reads_its_outputs(scheduler: Client):
    scheduler.agent.script = lambda cmd: [("running", {})]
    upstream = await scheduler.submit(job("upstream"))
    await scheduler.wait_status(upstream, "running")
    reader = await scheduler.submit(f"""
version: 1.1
kind: operation
name: reader
params:
  x: {{ref: runs.{upstream}, value: outputs.loss}}
component:
  inputs: [{{name: x, type: float}}]
  run: {{kind: job, container: {{image: python, command: [echo, "x={{{{ x }}}}"]}}}}
""")
    assert (await scheduler.wait_status(reader, "created")).status == "created"
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    first = received(scheduler, "upstream")
    await scheduler.agent.report(first.run_uuid, first.attempt, "succeeded", outputs={"loss": 0.3})
    await scheduler.wait_status(reader, "succeeded")
    read = received(scheduler, "reader")
    assert (read.inputs["x"], read.run["container"]["command"]) == (0.3, ["echo", "x=0.3"])


async def test_a_ref_to_no_run_fails_with_why(scheduler: Client):
    missing = "0" * 32
    run = await scheduler.submit(f"""
version: 1.1
kind: operation
params:
  x: {{ref: runs.{missing}, value: outputs.loss}}
component:
  inputs: [{{name: x, type: float}}]
  run: {{kind: job, container: {{image: python, command: [echo]}}}}
""")
    failed = await scheduler.wait_status(run, "failed")
    assert failed.reason == "ResolutionError"
    assert f"ref runs.{missing}: no such run" in (failed.message or "")
