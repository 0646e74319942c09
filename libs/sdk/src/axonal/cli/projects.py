"""``axonal project``: create, list and delete projects; read and set their retention and
quotas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, fail, print_json
from axonal.cli.project_names import change_setting, owner_and_name, split_name
from axonal.cli.quotas import quotas

if TYPE_CHECKING:
    from axonal_events.retention import ProjectRetention

__all__ = ["app"]

app = typer.Typer(
    name="project",
    help="Create, list and delete projects; their retention and quotas.",
    no_args_is_help=True,
    add_completion=False,
)
retention = typer.Typer(
    name="retention",
    help="Days each kind of a project's data is kept.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(retention)
app.add_typer(quotas)

Days = Annotated[int | None, typer.Option(min=0, help="Days kept (0: for ever).")]


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="owner/name, or a name under the default owner.")],
    description: Annotated[str | None, typer.Option("--description", "-d")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a project."""
    from axonal_events.identity import Project  # noqa: PLC0415

    owner, slug = owner_and_name(name)
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


@app.command("rm")
def rm(
    name: Annotated[str, typer.Argument(help="owner/name, or a name under the default owner.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete a project and all its data (runs, metrics, traces, artifacts...), in every
    service; each confirms with a deletion.completed event."""
    from axonal_events.retention import DeletionAccepted  # noqa: PLC0415

    owner, slug = split_name(name)
    if not (yes or as_json) and not typer.confirm(f"Delete project {owner}/{slug} and its data?"):
        raise typer.Abort
    with api(api_url) as client:
        reply = client.delete(f"/api/v1/projects/{owner}/{slug}", DeletionAccepted)
    if as_json:
        print_json(reply)
    else:
        console.print(f"deleting project [bold]{escape(owner)}/{escape(slug)}[/] ({reply.target})")


def _show(found: ProjectRetention) -> None:
    from rich import box  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.retention import DATA_KINDS  # noqa: PLC0415

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=f"{found.owner}/{found.name}")
    table.add_column("data")
    table.add_column("kept", justify="right")
    for kind in DATA_KINDS:
        days = found.retention.days(kind)
        table.add_row(kind, "for ever" if days is None else f"{days} days")
    console.print(table)


@retention.command("get")
def get(
    name: Annotated[str, typer.Argument(help="owner/name, or a name under the default owner.")],
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """How long each kind of the project's data is kept."""
    from axonal_events.retention import ProjectRetention  # noqa: PLC0415

    owner, slug = split_name(name)
    with api(api_url) as client:
        found = client.get(f"/api/v1/projects/{owner}/{slug}/retention", ProjectRetention)
    print_json(found) if as_json else _show(found)


@retention.command("set")
def set_(
    name: Annotated[str, typer.Argument(help="owner/name, or a name under the default owner.")],
    traces: Days = None,
    observations: Days = None,
    scores: Days = None,
    metrics: Days = None,
    logs: Days = None,
    artifacts: Days = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Change how long kinds of the project's data are kept (the others stay as they are);
    the services owning the data delete what expired on their next pass."""
    from axonal_events.retention import ProjectRetention  # noqa: PLC0415

    given = {
        "traces": traces,
        "observations": observations,
        "scores": scores,
        "metrics": metrics,
        "logs": logs,
        "artifacts": artifacts,
    }
    found = change_setting(
        name, "retention", ProjectRetention, lambda p: p.retention, given, api_url
    )
    print_json(found) if as_json else _show(found)
