"""Request/reply: a sweep's study (history, best trial, importances)."""

from __future__ import annotations

import asyncio

from axonal_bus.errors import NotFound
from axonal_events.rpcs import Optimization
from axonal_events.studies import GetStudy, StudyTrial, StudyView
from axonal_optimization.context import Context
from axonal_optimization.domain.importance import importances
from axonal_optimization.domain.studies import LiveStudy, approximations, objective
from axonal_optimization.studies import store

__all__ = ["register", "study"]


async def study(ctx: Context, request: GetStudy) -> StudyView:
    async with ctx.pool.acquire() as conn:
        found = await store.study(conn, request.sweep_uuid)
        trials = await store.trials(conn, request.sweep_uuid) if found else []
    if found is None:
        raise NotFound(f"no study for sweep {request.sweep_uuid}: not an adaptive search")
    view = StudyView(
        sweep_uuid=found.sweep_uuid,
        kind=found.kind,
        state=found.state,
        reason=found.reason,
        trials=[StudyTrial.model_validate(t, from_attributes=True) for t in trials],
        approximations=approximations(found.search_space),
    )
    try:
        metric, direction = objective(found.search_space)
    except ValueError:
        return view
    complete = [t for t in trials if t.state == "complete" and t.value is not None]
    best = (max if direction == "maximize" else min)(complete, key=_value, default=None)
    view = view.model_copy(
        update={
            "metric": metric,
            "direction": direction,
            "best_trial": best.number if best else None,
        }
    )
    if found.kind == "iterative":  # its tuner, not a sampler, suggests: no budget, no Optuna study
        return view
    live = await asyncio.to_thread(LiveStudy, found.search_space, [t.record() for t in trials])
    return view.model_copy(
        update={
            "budget": live.budget.total,
            "importances": await asyncio.to_thread(importances, live.study),
        }
    )


def _value(trial: store.StoredTrial) -> float:
    assert trial.value is not None
    return trial.value


def register(ctx: Context) -> None:
    ctx.serve(Optimization.study, study)
