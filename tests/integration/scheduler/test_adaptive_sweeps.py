"""Adaptive sweeps in the scheduler, the optimization service played by the test: the sweep
is handed over with its search space, runs each suggested trial once, and ends only when the
optimizer says so (or fails with its reason)."""

import uuid

from axonal_events import StreamKind
from axonal_events.commands import COMMANDS, AddTrials, OptimizeSweep, Trial
from axonal_testing.agent_double import send


async def _sweep_handed_over(scheduler, sweep: str) -> OptimizeSweep:
    """The ``optimization.start`` command the scheduler sent for ``sweep`` (taken off the
    work queue, as the optimization service would)."""
    stream = scheduler.subjects.stream_name(StreamKind.COMMANDS)
    subject = scheduler.subjects.command("optimization", "start")
    sub = await scheduler.js.pull_subscribe(subject, stream=stream)
    try:
        (msg,) = await sub.fetch(1, timeout=15)
        await msg.ack()
    finally:
        await sub.unsubscribe()
    command = COMMANDS.decode(msg.data).data
    assert isinstance(command, OptimizeSweep)
    assert command.sweep_uuid == sweep
    return command


async def test_an_adaptive_sweep_runs_the_trials_the_optimizer_suggests(scheduler):
    """The test plays the optimization service: the sweep is handed over with its search
    space, runs each suggested trial once (a repeated command adds nothing), and ends only
    once the optimizer says the last trials were suggested, with its outputs."""
    text = """
version: 1.1
kind: operation
name: tune
matrix:
  kind: bayes
  numInitialRuns: 2
  maxIterations: 3
  metric: {name: loss, optimization: minimize}
  params:
    lr: {kind: uniform, value: "0.1:0.5"}
component:
  inputs: [{name: lr, type: float}]
  run: {kind: job, container: {image: python, command: [echo, "{{ lr }}"]}}
"""
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {"outputs": {"loss": 1}})]
    tune = await scheduler.submit(text)
    run = await scheduler.wait_status(tune, "running")
    assert run.reason == "Adaptive"
    assert run.objective is not None
    assert (run.objective.metric, run.objective.optimization) == ("loss", "minimize")
    handed = await _sweep_handed_over(scheduler, tune)
    assert handed.search_space["params"]["lr"] == {"kind": "uniform", "low": 0.1, "high": 0.5}
    assert handed.search_space["numInitialRuns"] == 2

    trials = [Trial(uuid=uuid.uuid4().hex, index=i, params={"lr": 0.1 + i / 10}) for i in (0, 1)]
    add = scheduler.subjects.command("scheduler", "add_trials")
    await send(scheduler.js, add, AddTrials(sweep_uuid=tune, trials=trials))
    await send(scheduler.js, add, AddTrials(sweep_uuid=tune, trials=trials[:1]))  # again
    for trial in trials:
        await scheduler.wait_status(trial.uuid, "succeeded")
    assert (await scheduler.get(tune)).status == "running"  # all done, more may come
    last = Trial(uuid=uuid.uuid4().hex, index=2, params={"lr": 0.45})
    best = {"best_trial": last.uuid, "best_value": 0.5}
    await send(
        scheduler.js, add, AddTrials(sweep_uuid=tune, trials=[last], done=True, outputs=best)
    )
    done = await scheduler.wait_status(tune, "succeeded")
    assert done.outputs == best
    kids = await scheduler.children(tune)
    assert sorted(k.inputs["lr"] for k in kids.values()) == [0.1, 0.2, 0.45]
    assert sorted(kids) == ["tune-0", "tune-1", "tune-2"]
    assert len(scheduler.agent.received) == 3


async def test_an_optimizer_that_cannot_go_on_fails_the_sweep_with_why(scheduler):
    text = """
version: 1.1
kind: operation
matrix:
  kind: iterative
  maxIterations: 2
  params: {lr: {kind: choice, value: [0.1, 0.2]}}
component:
  inputs: [{name: lr, type: float}]
  run: {kind: job, container: {image: python, command: [echo, "{{ lr }}"]}}
"""
    sweep = await scheduler.submit(text)
    await _sweep_handed_over(scheduler, sweep)
    why = "matrix.tuner: an iterative search needs its tuner component"
    add = scheduler.subjects.command("scheduler", "add_trials")
    await send(scheduler.js, add, AddTrials(sweep_uuid=sweep, failed=why))
    failed = await scheduler.wait_status(sweep, "failed")
    assert (failed.reason, failed.message) == ("OptimizationFailed", why)
