"""``axonal ops compare --sweep``: every trial of a sweep, best first, with its params and
its objective (the output, else the last logged value of the sweep's metric)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.markup import escape

from axonal.cli.output import status_text

if TYPE_CHECKING:
    from rich.table import Table

    from axonal.cli.api import Api
    from axonal_events.answers import ComparedRun
    from axonal_events.runs import RunInfo

__all__ = ["objective_value", "sweep_table", "sweep_trials"]

_CHUNK = 50  # runs the compare endpoint takes at once


def sweep_trials(client: Api, runs_path: str, compare_path: str, sweep: str) -> list[ComparedRun]:
    """The trials of ``sweep`` with their inputs, outputs and last metric values."""
    from axonal_events.answers import RunComparison  # noqa: PLC0415
    from axonal_events.runs import RunList  # noqa: PLC0415

    listed = client.get(runs_path, RunList, params={"pipeline": sweep, "limit": 1000}).runs
    uuids = [run.uuid for run in listed]
    trials: list[ComparedRun] = []
    for start in range(0, len(uuids), _CHUNK):
        chunk = uuids[start : start + _CHUNK]
        trials += client.get(compare_path, RunComparison, params={"run": chunk}).runs
    return trials


def objective_value(trial: ComparedRun, metric: str) -> float | None:
    for source in (trial.outputs, trial.metrics):
        value = source.get(metric)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def sweep_table(sweep: RunInfo, trials: list[ComparedRun]) -> Table:
    """A row per trial, best first (trials without a value last)."""
    from rich.table import Table  # noqa: PLC0415

    metric = sweep.objective.metric if sweep.objective else None
    maximize = bool(sweep.objective and sweep.objective.optimization == "maximize")
    params = sorted({name for t in trials for name in t.inputs})

    def order(trial: ComparedRun) -> tuple[int, float]:
        value = objective_value(trial, metric) if metric else None
        if value is None:
            return 1, 0.0
        return 0, -value if maximize else value

    title = f"{escape(sweep.name or sweep.uuid[:8])}: {len(trials)} trials"
    if metric:
        title += f", {'maximizing' if maximize else 'minimizing'} {escape(metric)}"
    table = Table("trial", "status", *(escape(p) for p in params), escape(metric or "objective"),
                  title=title)  # fmt: skip
    for trial in sorted(trials, key=order):
        value = objective_value(trial, metric) if metric else None
        table.add_row(escape(trial.name or trial.uuid[:8]), status_text(trial.status),
                      *(_cell(trial.inputs.get(p)) for p in params),
                      "[dim]-[/]" if value is None else f"{value:.6g}")  # fmt: skip
    return table


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return escape(value if isinstance(value, str) else json.dumps(value, default=str))
