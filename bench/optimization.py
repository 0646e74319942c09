"""The optimization service's cost per trial, against Optuna in memory and on PostgreSQL.

Starts its own nats-server and PostgreSQL and the optimization service in this process, then
runs a TPE study of N trials (5 params, a no-op objective, one trial at a time) through the
service's own flow: each step is what a trial's ``run.done`` costs it (the transaction: the
study locked, the result recorded, Optuna told, the next trial asked and
recorded, the ``scheduler.add_trials`` command written to the outbox and published).

References measured in the same run, on the same search space:
- Optuna in memory (ask + tell), N trials, one of its trials timed before each of the
  service's: target service <= 1.5x;
- Optuna's RDB storage on the same PostgreSQL (``RDB_TRIALS`` trials; its cost per trial grows
  with the study, so this understates it at N): target service <= 1/4.

Also: rebuilding an N-trial TPE study from its rows (target <= 0.5 s); the Gaussian-process
sampler (``bayes``) per trial at ``GP_TRIALS`` trials, its first suggestion after a restart,
and the longest stall of the event loop while it fits (it runs in a thread).
Run: ``.venv/bin/python bench/optimization.py``.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import nats
import optuna
from _servers import nats_and_postgres

from axonal_bus import loop
from axonal_bus.errors import AxonalError
from axonal_bus.ping import ping
from axonal_bus.provision import provision
from axonal_bus.service import CONTEXT_KEY
from axonal_events import RunStatus
from axonal_events.catalog.run import RunDone
from axonal_events.commands import OptimizeSweep
from axonal_optimization.app import build_app
from axonal_optimization.context import Context
from axonal_optimization.domain.spaces import decode, distributions
from axonal_optimization.domain.studies import LiveStudy, TrialRecord
from axonal_optimization.settings import OptimizationSettings
from axonal_optimization.studies import search

N = int(os.environ.get("BENCH_TRIALS", "1000"))
RDB_TRIALS = int(os.environ.get("BENCH_RDB_TRIALS", str(N)))
GP_TRIALS = int(os.environ.get("BENCH_GP_TRIALS", "100"))
PARAMS = {
    "lr": {"kind": "loguniform", "low": -9, "high": -1},
    "dropout": {"kind": "uniform", "low": 0.0, "high": 0.5},
    "units": {"kind": "choice", "values": [32, 64, 128, 256]},
    "layers": {"kind": "range", "start": 1, "stop": 8, "step": 1},
    "momentum": {"kind": "uniform", "low": 0.8, "high": 0.99},
}
METRIC = {"name": "loss", "optimization": "minimize"}
TPE = {"kind": "tpe", "seed": 1, "numRuns": N, "concurrency": 1, "metric": METRIC, "params": PARAMS}


def objective(params: dict[str, Any]) -> float:
    """A no-op objective: cheap, deterministic, with an optimum."""
    return (params["dropout"] - 0.2) ** 2 + abs(params["momentum"] - 0.9)


class InMemory:
    """Optuna's TPE (its defaults) in memory on the same space: one ask + tell at a time."""

    def __init__(self) -> None:
        sampler = optuna.samplers.TPESampler(seed=1, n_startup_trials=10)
        self.study = optuna.create_study(sampler=sampler)
        self.distributions = distributions(PARAMS)

    def step(self) -> float:
        """Seconds for one ask + tell."""
        began = time.perf_counter()
        trial = self.study.ask(self.distributions)
        self.study.tell(trial, objective(decode(PARAMS, trial.params)))
        return time.perf_counter() - began


async def service_cost(ctx: Context) -> tuple[float, float]:
    """Seconds per trial through the service's flow, and per ask + tell of Optuna in memory
    measured trial by trial in between (so that both see the same machine: a figure taken
    minutes apart on a shared machine drifts by more than the margin compared)."""
    sweep = uuid.uuid4().hex
    start = OptimizeSweep(sweep_uuid=sweep, owner="bench", project="hpo", search_space=TPE)
    await search.start(ctx, start)
    reference = InMemory()
    spent = in_memory = 0.0
    for number in range(N):
        run = search.trial_uuid(sweep, number)
        async with ctx.pool.acquire() as conn:
            params = await conn.fetchval("SELECT params FROM trials WHERE run_uuid = $1", run)
        done = RunDone(
            run_uuid=run,
            project="bench/hpo",
            kind="job",
            pipeline_uuid=sweep,
            status=RunStatus.SUCCEEDED,
            finished_at=datetime.now(UTC),
            outputs={"loss": objective(params)},
        )
        in_memory += reference.step()
        began = time.perf_counter()
        await search.trial_done(ctx, done)
        spent += time.perf_counter() - began
    return spent / N, in_memory / N


def rdb_cost(storage: str, trials: int) -> float:
    """Seconds per ask + tell of Optuna's TPE (its defaults) on its RDB ``storage``."""
    study = optuna.create_study(
        storage=storage, sampler=optuna.samplers.TPESampler(seed=1, n_startup_trials=10)
    )
    dists = distributions(PARAMS)
    began = time.perf_counter()
    for _ in range(trials):
        trial = study.ask(dists)
        study.tell(trial, objective(decode(PARAMS, trial.params)))
    return (time.perf_counter() - began) / trials


def rebuild_seconds(space: dict[str, Any], trials: int) -> float:
    """Seconds to rebuild a ``trials``-trial study from its rows."""
    live = LiveStudy(space)
    rows = []
    for number, params in live.ask(trials):
        rows.append(TrialRecord(number, params, "complete", objective(params)))
    began = time.perf_counter()
    LiveStudy(space, rows)
    return time.perf_counter() - began


async def gp_figures(ctx: Context) -> tuple[float, float, float]:
    """Per trial of the GP sampler over GP_TRIALS, the first suggestion after a restart, and
    the longest event-loop stall meanwhile (its fits run in the service's worker process,
    asked from a thread, as in the service)."""
    space = {"kind": "bayes", "seed": 1, "numInitialRuns": 10, "maxIterations": GP_TRIALS,
             "concurrency": 1, "metric": METRIC, "params": PARAMS}  # fmt: skip
    stall = 0.0
    ticking = True

    async def ticker() -> None:
        nonlocal stall
        while ticking:
            began = time.perf_counter()
            await asyncio.sleep(0.005)
            stall = max(stall, time.perf_counter() - began - 0.005)

    tick = asyncio.create_task(ticker())
    live = LiveStudy(space, compute=ctx.compute_gp)
    rows = []
    began = time.perf_counter()
    for _ in range(GP_TRIALS):
        ((number, params),) = await asyncio.to_thread(live.ask, 1)
        value = objective(params)
        live.tell(number, "complete", value)
        rows.append(TrialRecord(number, params, "complete", value))
    per_trial = (time.perf_counter() - began) / GP_TRIALS
    began = time.perf_counter()
    rebuilt = await asyncio.to_thread(LiveStudy, space, rows, compute=ctx.compute_gp)
    await asyncio.to_thread(rebuilt.ask, 1)
    first = time.perf_counter() - began
    ticking = False
    await tick
    return per_trial, first, stall


async def answers(nc: Any, settings: OptimizationSettings) -> bool:
    try:
        return (await ping(nc, settings.subjects, "optimization", 0.5)).status == "ok"
    except AxonalError:
        return False


async def main() -> None:
    with nats_and_postgres() as (nats_url, postgres_url):
        settings = OptimizationSettings(
            nats_url=nats_url, database_url=postgres_url, namespace="benchopt"
        )
        nc = await nats.connect(nats_url)
        await provision(nc.jetstream(), settings.subjects)
        app = build_app(settings)
        ctx: Context = app.context.get(CONTEXT_KEY)
        task = asyncio.create_task(app.run())
        while not await answers(nc, settings):  # noqa: ASYNC110 - a remote service: poll it
            await asyncio.sleep(0.05)
        try:
            service, memory = await service_cost(ctx)
            gp, gp_first, stall = await gp_figures(ctx)
        finally:
            app.exit()
            await asyncio.wait_for(task, 10)
            await nc.close()
        rdb_url = postgres_url.replace("postgresql://", "postgresql+psycopg://", 1)
        rdb = rdb_cost(rdb_url, RDB_TRIALS)
    rebuild = rebuild_seconds(TPE, N)
    print(f"optimization: TPE, {len(PARAMS)} params, a no-op objective, one trial at a time")
    print(f"  service (suggest + record, durable): {service * 1e3:.2f} ms/trial over {N}")
    print(f"  optuna in memory: {memory * 1e3:.2f} ms/trial over {N}; "
          f"service / memory x{service / memory:.2f} (target <= 1.5: "
          f"{'met' if service <= 1.5 * memory else 'NOT met'})")  # fmt: skip
    print(f"  optuna RDB on PostgreSQL: {rdb * 1e3:.2f} ms/trial over {RDB_TRIALS}; "
          f"service / RDB x{service / rdb:.2f} (target <= 0.25: "
          f"{'met' if service <= 0.25 * rdb else 'NOT met'})")  # fmt: skip
    print(f"  rebuild of a {N}-trial study: {rebuild * 1e3:.0f} ms (target <= 500 ms: "
          f"{'met' if rebuild <= 0.5 else 'NOT met'})")  # fmt: skip
    print(
        f"  GP (bayes): {gp * 1e3:.0f} ms/trial over {GP_TRIALS}; first suggestion after a "
        f"restart {gp_first * 1e3:.0f} ms; longest event-loop stall {stall * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    loop.run(main())
