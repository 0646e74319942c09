"""DAG ``events`` triggers: an op starts when its upstream reaches a status, not when it ends."""

from axonal_testing.waiting import wait_for

from .conftest import Client


def dag(kinds: str, ref: str = "ops.train") -> str:
    return f"""
version: 1.1
kind: operation
name: watch
component:
  run:
    kind: dag
    operations:
    - name: train
      component: {{run: {{kind: job, container: {{image: python, command: [train]}}}}}}
    - name: board
      events: [{{kinds: [{kinds}], ref: {ref}}}]
      component: {{run: {{kind: job, container: {{image: python, command: [board]}}}}}}
"""


async def test_an_op_starts_when_its_upstream_is_running(scheduler: Client):
    def script(cmd):
        return [("running", {})] if cmd.name == "train" else [("running", {}), ("succeeded", {})]

    scheduler.agent.script = script
    pipe = await scheduler.submit(dag("run_status_running"))

    async def board_done():
        kids = await scheduler.children(pipe)
        return kids if kids.get("board") and kids["board"].status == "succeeded" else None

    kids = await wait_for(board_done, message="board ran")
    assert kids["train"].status == "running"  # board started while train still ran
    train = next(c for c in scheduler.agent.received if c.name == "train")
    await scheduler.agent.report(train.run_uuid, train.attempt, "succeeded")
    run = await scheduler.wait_status(pipe, "succeeded")
    assert run.children == 2


async def test_a_gate_that_can_no_longer_open_fails_the_op_upstream(scheduler: Client):
    scheduler.agent.script = lambda cmd: [("failed", {"exit_code": 1})]
    pipe = await scheduler.submit(dag("run_status_running"))
    await scheduler.wait_status(pipe, "failed")
    kids = await scheduler.children(pipe)
    assert (kids["train"].status, kids["board"].status) == ("failed", "upstream_failed")


async def test_a_kind_not_run_here_fails_the_op_with_why(scheduler: Client):
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    pipe = await scheduler.submit(dag("run_new_artifacts"))
    await scheduler.wait_status(pipe, "failed")
    board = (await scheduler.children(pipe))["board"]
    assert board.status == "failed"
    assert "events.kinds: `run_new_artifacts` is not run here" in (board.message or "")
