"""``axonal teams``: principals of an organization granted roles together."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.api_client import split_project
from axonal.cli.api import api, guarded
from axonal.cli.members import ROLES
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, fail, print_json

if TYPE_CHECKING:
    from axonal_events.principals import Team

__all__ = ["app"]

app = typer.Typer(
    name="teams",
    help="Teams: principals of an organization granted roles together.",
    no_args_is_help=True,
    add_completion=False,
)

Org = Annotated[str, typer.Option("--org", help="The organization.")]
TeamArg = Annotated[str, typer.Argument(help="The team's name.")]
Principal = Annotated[str, typer.Argument(help="The user or service account.")]


def _show(team: Team, as_json: bool) -> None:
    if as_json:
        print_json(team)
        return
    roles = [f"organization: {team.role}"] if team.role else []
    roles += [f"{project}: {role}" for project, role in sorted(team.project_roles.items())]
    members = ", ".join(team.members) or "no members"
    held = "; ".join(roles) or "no role"
    console.print(f"[bold]{escape(team.org)}/{escape(team.name)}[/]: {escape(members)}; {held}")


@app.command("ls")
def ls(
    org: Org, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List an organization's teams (with -p: those holding a role in that project)."""
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.principals import TeamList  # noqa: PLC0415

    with api(api_url) as client:
        found = client.get(f"/api/v1/orgs/{org}/teams", TeamList)
    if project:
        name = guarded(lambda: split_project(project))[1]
        found = TeamList(teams=[t for t in found.teams if name in t.project_roles])
    if as_json:
        print_json(found)
        return
    table = Table("team", "members", "organization role", "project roles")
    for team in found.teams:
        table.add_row(
            escape(team.name),
            escape(", ".join(team.members)),
            team.role or "",
            escape(", ".join(f"{p}: {r}" for p, r in sorted(team.project_roles.items()))),
        )
    console.print(table)


@app.command("create")
def create(
    name: TeamArg, org: Org, project: ProjectOpt = None, as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:  # fmt: skip
    """Create a team (-p is accepted for symmetry; a team belongs to the organization)."""
    from axonal_events.principals import Team  # noqa: PLC0415

    with api(api_url) as client:
        _show(client.post(f"/api/v1/orgs/{org}/teams", Team, json={"name": name}), as_json)


@app.command("join")
def join(
    name: TeamArg, principal: Principal, org: Org, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """Make a principal a member of the team."""
    from axonal_events.principals import Team  # noqa: PLC0415

    with api(api_url) as client:
        _show(client.put(f"/api/v1/orgs/{org}/teams/{name}/members/{principal}", Team), as_json)


@app.command("leave")
def leave(
    name: TeamArg, principal: Principal, org: Org, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """Take a principal out of the team."""
    from axonal_events.principals import Team  # noqa: PLC0415

    with api(api_url) as client:
        path = f"/api/v1/orgs/{org}/teams/{name}/members/{principal}"
        _show(client.delete(path, Team), as_json)


@app.command("role")
def role(
    name: TeamArg,
    grant: Annotated[str, typer.Argument(help="owner, admin, member, viewer, none, or remove.")],
    org: Org,
    project: Annotated[
        str | None, typer.Option("--project", "-p", help="A project of the org (its name).")
    ] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Grant the team a role in its organization, or in one project with -p."""
    from axonal_events.principals import Team  # noqa: PLC0415

    if grant not in (*ROLES, "remove"):
        fail(f"unknown role {grant!r}", hint=f"one of {', '.join(ROLES)}, or remove")
    body = {"role": None if grant == "remove" else grant}
    where = (
        f"/api/v1/{org}/{project.rpartition('/')[2]}/teams/{name}"
        if project
        else f"/api/v1/orgs/{org}/teams/{name}/role"
    )
    with api(api_url) as client:
        _show(client.put(where, Team, json=body), as_json)
