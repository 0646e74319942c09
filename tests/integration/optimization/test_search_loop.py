"""The loop of an adaptive search on a real NATS and PostgreSQL: the scheduler hands the
sweep over, the optimization service suggests trials as results arrive, and the sweep ends
with exactly its budget of trials and the best one as outputs."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime

import pytest
import pytest_asyncio

from axonal_bus import rpc
from axonal_events.rpcs import Optimization
from axonal_events.studies import GetStudy
from axonal_optimization.app import build_app
from axonal_optimization.settings import OptimizationSettings
from axonal_tracking.app import build_app as build_tracking
from axonal_tracking.settings import TrackingSettings

from .conftest import branin, sweep


@pytest_asyncio.fixture
async def optimization(service_settings, running_service) -> OptimizationSettings:
    settings = service_settings(OptimizationSettings)
    await running_service(build_app(settings))
    return settings


async def test_a_tpe_sweep_runs_exactly_its_budget(sweeps, optimization):
    tpe = sweep(
        "  kind: tpe\n  numRuns: 14\n  concurrency: 3\n  seed: 1\n"
        "  metric: {name: loss, optimization: minimize}"
    )
    sweep_uuid = await sweeps.submit(tpe)
    ended = await sweeps.ended(sweep_uuid)
    assert ended.status == "succeeded", ended
    trials = await sweeps.trials(sweep_uuid)
    assert len(trials) == 14
    assert sorted(t.name for t in trials) == sorted(f"branin-{i}" for i in range(14))
    losses = {t.uuid: branin(t.inputs["x"], t.inputs["y"]) for t in trials}
    assert ended.outputs["best_trial"] == min(losses, key=losses.__getitem__)
    assert ended.outputs["best_value"] == min(losses.values())
    assert ended.outputs["loss"] == min(losses.values())
    assert len(sweeps.agent.received) == 14


async def test_a_search_without_its_metric_fails_the_sweep_with_why(sweeps, optimization):
    hyperband = sweep(
        "  kind: hyperband\n  maxIterations: 9\n  eta: 3\n  resource: {name: epochs, type: int}",
        extra_inputs=", {name: epochs, type: int}",
    )
    sweep_uuid = await sweeps.submit(hyperband)
    ended = await sweeps.ended(sweep_uuid)
    assert ended.status == "failed"
    assert ended.reason == "OptimizationFailed"
    assert "matrix.metric: hyperband needs it" in (ended.message or "")


async def test_hyperband_runs_its_brackets_with_the_resource_of_each_rung(sweeps, optimization):
    """R = 9, eta = 3: brackets 9x1 -> 3x3 -> 1x9, 5x3 -> 1x9, 3x9 (22 trials); a promoted
    configuration runs again with the same params and the next rung's epochs."""
    hyperband = sweep(
        "  kind: hyperband\n  maxIterations: 9\n  eta: 3\n  concurrency: 3\n  seed: 2\n"
        "  resource: {name: epochs, type: int}\n  metric: {name: loss, optimization: minimize}",
        extra_inputs=", {name: epochs, type: int}",
    )
    sweep_uuid = await sweeps.submit(hyperband)
    ended = await sweeps.ended(sweep_uuid)
    assert ended.status == "succeeded", ended
    trials = await sweeps.trials(sweep_uuid)
    assert len(trials) == 22
    epochs = sorted(t.inputs["epochs"] for t in trials)
    assert epochs == [1] * 9 + [3] * 8 + [9] * 5
    configs = {(t.inputs["x"], t.inputs["y"]) for t in trials}
    assert len(configs) == 9 + 5 + 3  # the promoted ones are configurations run before
    at_one = {(t.inputs["x"], t.inputs["y"]) for t in trials if t.inputs["epochs"] == 1}
    promoted = [
        t for t in trials if t.inputs["epochs"] == 3 and (t.inputs["x"], t.inputs["y"]) in at_one
    ]
    assert len(promoted) == 3
    losses = {
        t.uuid: branin(t.inputs["x"], t.inputs["y"]) + 10 / t.inputs["epochs"] for t in trials
    }
    assert ended.outputs["best_value"] == min(losses.values())
    assert ended.outputs["best_params"]["epochs"] == 9


async def test_a_study_reads_back_with_its_history_and_importances(
    sweeps, optimization, nats_client
):
    tpe = sweep(
        "  kind: tpe\n  numRuns: 8\n  concurrency: 2\n  seed: 4\n"
        "  metric: {name: loss, optimization: minimize}"
    )
    sweep_uuid = await sweeps.submit(tpe)
    await sweeps.ended(sweep_uuid)
    found = await rpc.call(
        nats_client, optimization.subjects, Optimization.study, GetStudy(sweep_uuid=sweep_uuid)
    )
    assert (found.kind, found.state, found.metric, found.budget) == ("tpe", "finished", "loss", 8)
    assert [t.number for t in found.trials] == list(range(8))
    best = min(found.trials, key=lambda t: t.value)
    assert found.best_trial == best.number
    assert set(found.importances) == {"x", "y"}
    assert sum(found.importances.values()) == pytest.approx(1.0)


async def test_a_trial_whose_metric_is_stored_after_its_end_still_counts(
    sweeps, optimization, service_settings, running_service, nats_client
):
    """A run can end before tracking stores its last points: the service waits for them
    rather than call the trial failed."""
    tracking = service_settings(TrackingSettings)
    await running_service(build_tracking(tracking))
    js = nats_client.jetstream()

    async def log_later(run_uuid: str, loss: float) -> None:
        await asyncio.sleep(1.0)  # stored a second after the run ended
        point = {"name": "loss", "step": 0, "value": loss, "at": datetime.now(UTC).isoformat()}
        payload = json.dumps({"run_uuid": run_uuid, "points": [point]}).encode()
        subject = tracking.subjects.ingest(f"metrics.{run_uuid}")
        await js.publish(subject, payload, headers={"Nats-Msg-Id": uuid.uuid4().hex})

    def late_metric(cmd):
        loss = branin(float(cmd.inputs["x"]), float(cmd.inputs["y"]))
        asyncio.get_running_loop().create_task(log_later(cmd.run_uuid, loss))
        return [("running", {}), ("succeeded", {})]  # no outputs: the metric is logged

    sweeps.agent.script = late_metric
    tpe = sweep(
        "  kind: tpe\n  numRuns: 4\n  concurrency: 2\n  seed: 3\n"
        "  metric: {name: loss, optimization: minimize}"
    )
    sweep_uuid = await sweeps.submit(tpe)
    ended = await sweeps.ended(sweep_uuid, timeout=90)
    assert ended.status == "succeeded", ended
    study = await rpc.call(
        nats_client, optimization.subjects, Optimization.study, GetStudy(sweep_uuid=sweep_uuid)
    )
    assert [t.state for t in study.trials] == ["complete"] * 4
    trials = {t.uuid: t for t in await sweeps.trials(sweep_uuid)}
    for trial in study.trials:
        inputs = trials[trial.run_uuid].inputs
        assert trial.value == pytest.approx(branin(inputs["x"], inputs["y"]))
