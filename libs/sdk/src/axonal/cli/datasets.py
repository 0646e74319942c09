"""``axonal datasets``: a project's datasets, their versioned items and their runs.

Items are versioned: ``items --version`` lists them as they were at a time. The Langfuse SDKs
read and write the same datasets at ``/api/public/v2/datasets`` and ``/api/public/dataset-items``;
their ``run_experiment`` makes the runs.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import quote

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="datasets",
    help="Datasets: versioned items for experiments, and their runs.",
    no_args_is_help=True,
    add_completion=False,
)

Name = Annotated[str, typer.Argument(help="The dataset's name (may hold / folders).")]
_WIDTH = 60


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return escape(text if len(text) <= _WIDTH else text[: _WIDTH - 1] + "…")


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the datasets, the newest first."""
    from axonal_events.datasets import DatasetPage  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "datasets"))
    with api(api_url) as client:
        found = client.get(path, DatasetPage, params={"limit": 100})
    if as_json:
        print_json(found.data)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "description", "schemas", "created")
    for dataset in found.data:
        schemas = [
            name
            for name, schema in (
                ("input", dataset.input_schema),
                ("expected output", dataset.expected_output_schema),
            )
            if schema
        ]
        table.add_row(
            f"[bold]{escape(dataset.name)}[/]",
            escape(dataset.description or ""),
            ", ".join(schemas),
            dataset.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table if found.data else "no datasets")


@app.command("items")
def items(
    name: Name,
    version: Annotated[
        datetime | None, typer.Option("--version", help="As the items were then (ISO time).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000)] = 100,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List a dataset's items: now, or as of --version (a time)."""
    from axonal_events.datasets import DatasetItemPage  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "datasets", quote(name, safe=""), "items"))
    params: dict[str, Any] = {"limit": limit}
    if version is not None:
        params["version"] = version.isoformat()
    with api(api_url) as client:
        found = client.get(path, DatasetItemPage, params=params)
    if as_json:
        print_json(found.data)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "status", "input", "expected output", "version")
    for item in found.data:
        table.add_row(
            escape(item.id),
            item.status if item.status == "ACTIVE" else f"[dim]{item.status}[/]",
            _short(item.input),
            _short(item.expected_output),
            item.version.strftime("%Y-%m-%d %H:%M:%S"),
        )
    console.print(table if found.data else "no items")
    if found.meta.total_items > len(found.data):
        console.print(f"[dim]{len(found.data)} of {found.meta.total_items}: see --limit[/]")


@app.command("runs")
def runs(
    name: Name, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List a dataset's runs (experiments), the newest first."""
    from axonal_events.datasets import DatasetRunPage  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "datasets", quote(name, safe=""), "runs"))
    with api(api_url) as client:
        found = client.get(path, DatasetRunPage, params={"limit": 100})
    if as_json:
        print_json(found.data)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "id", "description", "created")
    for run in found.data:
        table.add_row(
            f"[bold]{escape(run.name)}[/]",
            run.id,
            escape(run.description or ""),
            run.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table if found.data else "no runs")
