"""``axonal experiments``: dataset runs (experiments) compared item by item.

``compare`` puts two or more runs side by side: for each dataset item, each run's output, its
scores, latency and cost, then each run's averages.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="experiments",
    help="Experiments (dataset runs): compare runs item by item.",
    no_args_is_help=True,
    add_completion=False,
)

_WIDTH = 40


@app.callback()
def experiments() -> None:
    """Experiments (dataset runs): compare runs item by item."""


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return escape(text if len(text) <= _WIDTH else text[: _WIDTH - 1] + "…")


def _number(value: float | str | None) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return escape(str(value)) if value is not None else "-"


def _cell(cell: Any) -> str:
    if cell is None:
        return "[dim]not run[/]"
    lines = [_short(cell.output)]
    lines += [f"[cyan]{escape(k)}[/] {_number(v)}" for k, v in sorted(cell.scores.items())]
    latency = f"{cell.latency:.2f}s" if cell.latency is not None else "-"
    lines.append(f"[dim]{latency} ${cell.total_cost:.4g}[/]")
    if cell.level == "ERROR":
        lines.append("[red]error[/]")
    return "\n".join(lines)


@app.command("compare")
def compare(
    runs: Annotated[list[str], typer.Argument(help="Two or more run ids, or names with -d.")],
    dataset: Annotated[
        str | None, typer.Option("--dataset", "-d", help="Name runs within this dataset.")
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Compare runs: per dataset item, each run's output, scores, latency and cost."""
    from axonal_events.datasets import ExperimentComparison  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "experiments", "compare"))
    params: dict[str, Any] = {"run": runs}
    if dataset is not None:
        params["dataset"] = dataset
    with api(api_url) as client:
        found = client.get(path, ExperimentComparison, params=params)
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("item", "input", "expected", *(escape(r.name) for r in found.runs))
    for row in found.rows:
        table.add_row(
            escape(row.dataset_item_id),
            _short(row.input),
            _short(row.expected_output),
            *(_cell(c) for c in row.cells),
        )
    averages = [
        "\n".join(f"[cyan]{escape(k)}[/] {_number(v)}" for k, v in run.items())
        for run in found.averages
    ]
    table.add_section()
    table.add_row("[bold]mean[/]", "", "", *averages)
    console.print(table if found.rows else "no items run")
