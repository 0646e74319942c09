"""``axonal members``: roles in an organization, or in one project (which overrides it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.api_client import split_project
from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.principals import MemberList

__all__ = ["app"]

app = typer.Typer(
    name="members",
    help="Roles in organizations and projects.",
    no_args_is_help=True,
    add_completion=False,
)

OrgOpt = Annotated[
    str | None,
    typer.Option("--org", help="The organization's roles instead of the project's."),
]
ROLES = ("owner", "admin", "member", "viewer", "none")


def _path(org: str | None, project: str | None, tail: str = "") -> str:
    if org:
        return f"/api/v1/orgs/{org}/members{tail}"
    owner, name = split_project(project)
    return f"/api/v1/{owner}/{name}/members{tail}"


def _show(found: MemberList, as_json: bool) -> None:
    from rich.table import Table  # noqa: PLC0415

    if as_json:
        print_json(found)
        return
    table = Table("principal", "kind", "role", "where")
    for each in found.members:
        where = f"project {each.project}" if each.project else "organization"
        table.add_row(escape(each.principal), each.kind, each.role, where)
    console.print(table)


@app.command("ls")
def ls(
    org: OrgOpt = None, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List who holds which role (a project's list includes its organization's)."""
    from axonal_events.principals import MemberList  # noqa: PLC0415

    path = guarded(lambda: _path(org, project))
    with api(api_url) as client:
        _show(client.get(path, MemberList), as_json)


@app.command("set")
def set_role(
    principal: Annotated[str, typer.Argument(help="The user or service account.")],
    role: Annotated[str, typer.Argument(help="owner, admin, member, viewer, none, or remove.")],
    org: OrgOpt = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Grant a role (``remove`` takes the grant away)."""
    from axonal.cli.output import fail  # noqa: PLC0415
    from axonal_events.principals import MemberList  # noqa: PLC0415

    if role not in (*ROLES, "remove"):
        fail(f"unknown role {role!r}", hint=f"one of {', '.join(ROLES)}, or remove")
    path = guarded(lambda: _path(org, project, f"/{principal}"))
    body = {"role": None if role == "remove" else role}
    with api(api_url) as client:
        _show(client.put(path, MemberList, json=body), as_json)
