"""``axonal project``: create and list projects."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, fail, print_json

__all__ = ["app"]

app = typer.Typer(
    name="project", help="Create and list projects.", no_args_is_help=True, add_completion=False
)


def _owner_and_name(name: str) -> tuple[str, str]:
    owner, sep, slug = name.partition("/")
    if sep:
        return owner, slug
    default = os.environ.get("AXONAL_PROJECT", "default/default").partition("/")[0] or "default"
    return default, name


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="owner/name, or a name under the default owner.")],
    description: Annotated[str | None, typer.Option("--description", "-d")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a project."""
    from axonal_events.identity import Project  # noqa: PLC0415

    owner, slug = _owner_and_name(name)
    if not owner or not slug:
        fail(f"project {name!r} is not owner/name", hint="e.g. axonal project create acme/churn")
    body = {"owner": owner, "name": slug, "description": description}
    with api(api_url) as client:
        created = client.post("/api/v1/projects", Project, json=body)
    if as_json:
        print_json(created)
    else:
        name = f"{escape(created.owner)}/{escape(created.name)}"
        console.print(f"created project [bold]{name}[/] ({created.id})")


@app.command("ls")
def ls(
    owner: Annotated[str | None, typer.Option("--owner", "-o", help="Only this owner.")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List projects."""
    from rich import box  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.identity import ProjectList  # noqa: PLC0415

    params = {"owner": owner} if owner else {}
    with api(api_url) as client:
        found = client.get("/api/v1/projects", ProjectList, params=params)
    if as_json:
        print_json(found)
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("project", "description", "created"):
        table.add_column(column)
    for item in found.projects:
        table.add_row(
            escape(f"{item.owner}/{item.name}"),
            escape(item.description or ""),
            str(item.created_at)[:19],
        )
    console.print(table if found.projects else "no projects")
