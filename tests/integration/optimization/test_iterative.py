"""An iterative search on a real NATS and PostgreSQL: the scheduler, the registry (the hub the
tuner's hubRef names) and the optimization service in-process; the agent's test double plays
the tuner (suggestions computed from its inputs) and the trials (Branin's ``loss``)."""

from __future__ import annotations

from typing import Any

import pytest_asyncio

from axonal_bus import rpc
from axonal_bus.errors import AxonalError
from axonal_events.commands import ExecuteRun, RunAction
from axonal_events.hub import PushComponent
from axonal_events.rpcs import Optimization, Registry
from axonal_events.studies import GetStudy
from axonal_optimization.app import build_app
from axonal_optimization.domain.iterative import tuner_uuid
from axonal_optimization.settings import OptimizationSettings
from axonal_registry.app import build_app as build_registry
from axonal_registry.settings import RegistrySettings
from axonal_testing.agent_double import send
from axonal_testing.waiting import wait_for

from .conftest import Sweeps, branin, branin_trial, sweep

TUNER = """
kind: component
name: tuner
inputs:
  - {name: matrix, type: dict}
  - {name: iteration, type: int}
  - {name: trials, type: list}
  - {name: step, type: float, value: 1.0, isOptional: true}
outputs: [{name: suggestions, type: list}]
run: {kind: job, container: {image: python, command: [tune, "{{ params.trials.as_arg }}"]}}
"""


def iterative(iterations: int = 3, tuner: str = "acme/tuner:v1") -> str:
    return sweep(
        f"  kind: iterative\n  maxIterations: {iterations}\n  concurrency: 1\n"
        "  metric: {name: loss, optimization: minimize}\n"
        f"  tuner: {{hubRef: {tuner}, params: {{step: {{value: 0.5}}}}}}"
    )


class Tuner:
    """The tuner's part of the agent's script: two suggestions an iteration, computed from
    its inputs (``suggest`` may be replaced), and what each run received."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    def suggest(self, inputs: dict[str, Any]) -> list[dict[str, Any]]:
        i, seen, step = inputs["iteration"], len(inputs["trials"]), inputs["step"]
        return [{"x": i * step, "y": float(seen)}, {"x": -i * step, "y": seen + 1.0}]

    def __call__(self, cmd: ExecuteRun) -> list[tuple[str, dict[str, Any]]]:
        if "iteration" not in cmd.inputs:
            return branin_trial(cmd)
        self.received.append({"name": cmd.name, **cmd.inputs})
        outputs = {"suggestions": self.suggest(cmd.inputs)}
        return [("running", {}), ("succeeded", {"outputs": outputs})]


@pytest_asyncio.fixture
async def optimization(service_settings, running_service, nats_client) -> OptimizationSettings:
    registry = service_settings(RegistrySettings)
    await running_service(build_registry(registry))
    push = PushComponent(owner="acme", name="tuner", tag="v1", content=TUNER)
    await rpc.call(nats_client, registry.subjects, Registry.push_component, push)
    settings = service_settings(OptimizationSettings)
    await running_service(build_app(settings))
    return settings


@pytest_asyncio.fixture
async def tuner(sweeps: Sweeps) -> Tuner:
    played = Tuner()
    sweeps.agent.script = played
    return played


async def test_each_iteration_runs_the_trials_its_tuner_suggests(sweeps, optimization, tuner):
    sweep_uuid = await sweeps.submit(iterative())
    ended = await sweeps.ended(sweep_uuid)
    assert ended.status == "succeeded", ended
    trials = await sweeps.trials(sweep_uuid)
    assert sorted(t.name for t in trials) == [f"branin-{i}" for i in range(6)]
    by_index = {int((t.name or "").rsplit("-", 1)[1]): t for t in trials}
    losses = {t.uuid: branin(t.inputs["x"], t.inputs["y"]) for t in trials}

    assert [r["name"] for r in tuner.received] == [f"branin-tuner-{i}" for i in range(3)]
    for i, received in enumerate(tuner.received):
        assert received["iteration"] == i
        assert received["step"] == 0.5
        assert received["matrix"]["params"]["x"] == {"kind": "uniform", "low": -5, "high": 10}
        assert [t["index"] for t in received["trials"]] == list(range(2 * i))
        for seen in received["trials"]:
            trial = by_index[seen["index"]]
            assert seen["params"] == {"x": trial.inputs["x"], "y": trial.inputs["y"]}
            assert (seen["state"], seen["value"]) == ("complete", losses[trial.uuid])
    assert by_index[4].inputs == {"x": 1.0, "y": 4.0}  # iteration 2 saw 4 trials

    assert ended.outputs["best_trial"] == min(losses, key=losses.__getitem__)
    assert ended.outputs["best_value"] == ended.outputs["loss"] == min(losses.values())
    study = await rpc.call(
        sweeps.nc, optimization.subjects, Optimization.study, GetStudy(sweep_uuid=sweep_uuid)
    )
    assert (study.kind, study.state, len(study.trials)) == ("iterative", "finished", 6)
    assert study.best_trial is not None
    assert study.trials[study.best_trial].run_uuid == ended.outputs["best_trial"]


async def test_a_tuner_that_suggests_nothing_ends_the_search(sweeps, optimization, tuner):
    plain = tuner.suggest
    tuner.suggest = lambda inputs: [] if inputs["iteration"] == 1 else plain(inputs)  # type: ignore[method-assign]
    sweep_uuid = await sweeps.submit(iterative(iterations=5))
    ended = await sweeps.ended(sweep_uuid)
    assert ended.status == "succeeded", ended
    assert len(await sweeps.trials(sweep_uuid)) == 2
    assert len(tuner.received) == 2
    assert ended.outputs["best_trial"]


async def test_a_suggestion_out_of_the_space_fails_the_sweep_naming_the_param(
    sweeps, optimization, tuner
):
    plain = tuner.suggest
    tuner.suggest = lambda inputs: [*plain(inputs), {"x": 20.0, "y": 1.0}]  # type: ignore[method-assign]
    sweep_uuid = await sweeps.submit(iterative())
    ended = await sweeps.ended(sweep_uuid)
    assert (ended.status, ended.reason) == ("failed", "OptimizationFailed")
    assert "tuner run branin-tuner-0" in (ended.message or "")
    assert "suggestions[2]: params.x: 20.0 is not within [-5, 10]" in (ended.message or "")
    assert await sweeps.trials(sweep_uuid) == []


async def test_a_tuner_run_that_fails_fails_the_sweep_with_its_reason(sweeps, optimization, tuner):
    sweep_uuid = await sweeps.submit(iterative(tuner="acme/tuner:v9"))
    ended = await sweeps.ended(sweep_uuid)
    assert (ended.status, ended.reason) == ("failed", "OptimizationFailed")
    message = ended.message or ""
    assert "tuner run branin-tuner-0" in message
    assert "ended failed" in message
    assert "hubRef" in message  # the tuner run's own compilation error
    assert tuner.received == []


async def test_a_search_without_its_tuner_fails_at_start(sweeps, optimization, tuner):
    text = sweep(
        "  kind: iterative\n  maxIterations: 2\n  metric: {name: loss, optimization: minimize}"
    )
    sweep_uuid = await sweeps.submit(text)
    ended = await sweeps.ended(sweep_uuid)
    assert (ended.status, ended.reason) == ("failed", "OptimizationFailed")
    why = "matrix.tuner: an iterative search needs its tuner component (hubRef)"
    assert ended.message == why
    assert sweeps.agent.received == []


async def test_a_stopped_sweep_stops_its_tuner_run(sweeps, optimization, tuner):
    sweeps.agent.script = lambda cmd: [("running", {})]  # the tuner runs on
    sweep_uuid = await sweeps.submit(iterative())
    tuner_run = tuner_uuid(sweep_uuid, 0)

    async def running() -> bool:
        try:
            return (await sweeps.get(tuner_run)).status == "running"
        except AxonalError:  # not submitted yet
            return False

    await wait_for(running, message="the tuner runs")
    stop = RunAction(verb="stop", run_uuid=sweep_uuid)
    await send(sweeps.nc.jetstream(), sweeps.settings.subjects.command("scheduler", "stop"), stop)
    assert (await sweeps.ended(sweep_uuid)).status == "stopped"

    async def stopping() -> bool:
        return (await sweeps.get(tuner_run)).status in ("stopping", "stopped")

    await wait_for(stopping, message="the tuner run is stopped")
