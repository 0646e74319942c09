"""``axonal project quotas``: a project's limits (concurrent runs, ingest rates, storage)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from axonal.cli.api import api
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, print_json
from axonal.cli.project_names import change_setting, split_name

if TYPE_CHECKING:
    from axonal_events.quotas import ProjectQuotas

__all__ = ["quotas"]

quotas = typer.Typer(
    name="quotas",
    help="A project's limits: concurrent runs, ingest rates, storage.",
    no_args_is_help=True,
    add_completion=False,
)

ProjectName = Annotated[str, typer.Argument(help="owner/name, or a name under the default owner.")]
Limit = Annotated[int | None, typer.Option(min=0, help="The limit (0: the platform's default).")]
_LABELS = {
    "concurrent_runs": "runs active at once",
    "spans_per_second": "spans/s ingested",
    "points_per_second": "metric points/s ingested",
    "storage_bytes": "artifact bytes stored",
}


def _show(found: ProjectQuotas) -> None:
    from rich import box  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=f"{found.owner}/{found.name}")
    table.add_column("limit")
    table.add_column("value", justify="right")
    limits = found.quotas.model_dump()
    for field, label in _LABELS.items():
        value = limits.get(field)
        table.add_row(label, "the platform's default" if value is None else f"{value:,}")
    console.print(table)


@quotas.command("get")
def get(name: ProjectName, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """The project's limits."""
    from axonal_events.quotas import ProjectQuotas  # noqa: PLC0415

    owner, slug = split_name(name)
    with api(api_url) as client:
        found = client.get(f"/api/v1/projects/{owner}/{slug}/quotas", ProjectQuotas)
    print_json(found) if as_json else _show(found)


@quotas.command("set")
def set_(
    name: ProjectName,
    concurrent_runs: Limit = None,
    spans_per_second: Limit = None,
    points_per_second: Limit = None,
    storage_bytes: Limit = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Change limits (the others stay as they are); a client over a rate gets 429s."""
    from axonal_events.quotas import ProjectQuotas  # noqa: PLC0415

    given = {
        "concurrent_runs": concurrent_runs,
        "spans_per_second": spans_per_second,
        "points_per_second": points_per_second,
        "storage_bytes": storage_bytes,
    }
    found = change_setting(name, "quotas", ProjectQuotas, lambda p: p.quotas, given, api_url)
    print_json(found) if as_json else _show(found)
