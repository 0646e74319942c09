"""``axonal ops compare``: runs side by side, one column each, rows that differ highlighted."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path, run_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json, status_text

if TYPE_CHECKING:
    from rich.table import Table

    from axonal_events.answers import ComparedRun, RunComparison

__all__ = ["compare", "comparison_table"]

SECTIONS = ("inputs", "outputs", "metrics")


def compare(
    run_uuids: Annotated[
        list[str] | None, typer.Argument(help="The runs' uuids, two or more.")
    ] = None,
    sweep: Annotated[
        str | None, typer.Option("--sweep", help="Every trial of this sweep instead, best first.")
    ] = None,
    project: ProjectOpt = None,
    all_rows: Annotated[
        bool, typer.Option("--all", help="Also the rows that are the same in every run.")
    ] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Params, results and last metric values of runs, side by side (rows that differ); or
    the trials of a sweep, a row each, best first."""
    from axonal_events.answers import RunComparison  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "compare"))
    if sweep is not None:
        _compare_sweep(sweep, project, path, as_json=as_json, api_url=api_url)
        return
    if not run_uuids or len(run_uuids) < 2:
        raise typer.BadParameter("give two runs or more, or --sweep SWEEP_UUID")
    with api(api_url) as client:
        found = client.get(path, RunComparison, params={"run": run_uuids})
    if as_json:
        print_json(found)
        return
    console.print(comparison_table(found, all_rows=all_rows))


def _compare_sweep(
    sweep: str, project: str | None, compare_path: str, *, as_json: bool, api_url: str | None
) -> None:
    from axonal.cli.sweeps import sweep_table, sweep_trials  # noqa: PLC0415
    from axonal_events.runs import RunInfo  # noqa: PLC0415

    runs_path = guarded(lambda: run_path(project))
    with api(api_url) as client:
        found = client.get(f"{runs_path}/{sweep}", RunInfo)
        trials = sweep_trials(client, runs_path, compare_path, sweep)
    if as_json:
        print_json({"sweep": found, "trials": trials})
        return
    console.print(sweep_table(found, trials))


def _section(run: ComparedRun, section: str) -> dict[str, Any]:
    values: dict[str, Any] = getattr(run, section)
    return values


def comparison_table(found: RunComparison, *, all_rows: bool) -> Table:
    """A Rich table: a row per input, output and metric, a column per run."""
    from rich.table import Table  # noqa: PLC0415

    runs = found.runs
    differing = set(found.differing)
    table = Table("", *(escape(r.name or r.uuid[:8]) for r in runs))
    table.add_row("[dim]uuid[/]", *(r.uuid[:12] for r in runs))
    table.add_row("[dim]status[/]", *(status_text(r.status) for r in runs))
    hidden = 0
    for section in SECTIONS:
        every: list[str] = getattr(found, section)
        names = [n for n in every if all_rows or f"{section}.{n}" in differing]
        hidden += len(every) - len(names)
        if names:
            table.add_section()
        for name in names:
            label = f"{escape(section[:-1])} {escape(name)}"
            if f"{section}.{name}" in differing:
                label = f"[bold yellow]{label}[/]"
            values = [_section(r, section) for r in runs]
            table.add_row(label, *(_cell(v.get(name), name in v) for v in values))
    if hidden:
        table.caption = f"{hidden} rows the same in every run (--all shows them)"
    return table


def _cell(value: Any, present: bool) -> str:
    if not present:
        return "[dim]-[/]"
    if isinstance(value, float):
        return f"{value:.6g}"
    return escape(value if isinstance(value, str) else json.dumps(value, default=str))
