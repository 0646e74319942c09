"""``axonal users``: users and service accounts (superusers), and tokens (your own)."""

from __future__ import annotations

from typing import Annotated, Literal

import typer
from rich.markup import escape

from axonal.cli.api import api
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="users",
    help="Users, service accounts and their tokens.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command("ls")
def ls(as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List users and service accounts (superusers only)."""
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.principals import PrincipalList  # noqa: PLC0415

    with api(api_url) as client:
        found = client.get("/api/v1/principals", PrincipalList)
    if as_json:
        print_json(found)
        return
    table = Table("name", "kind", "email", "superuser", "created")
    for each in found.principals:
        table.add_row(
            escape(each.name),
            each.kind,
            escape(each.email or ""),
            "yes" if each.superuser else "",
            f"{each.created_at:%Y-%m-%d %H:%M}",
        )
    console.print(table)


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The user's or service account's name.")],
    service: Annotated[bool, typer.Option("--service", help="A service account.")] = False,
    email: Annotated[str | None, typer.Option("--email")] = None,
    password: Annotated[
        str | None,
        typer.Option("--password", envvar="AXONAL_NEW_PASSWORD", help="A user's password."),
    ] = None,
    superuser: Annotated[bool, typer.Option("--superuser")] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a user (with a password) or a service account (tokens only)."""
    from axonal_events.principals import PrincipalInfo  # noqa: PLC0415

    kind: Literal["user", "service"] = "service" if service else "user"
    body = {
        "name": name,
        "kind": kind,
        "email": email,
        "password": password,
        "superuser": superuser,
    }
    with api(api_url) as client:
        created = client.post("/api/v1/principals", PrincipalInfo, json=body)
    if as_json:
        print_json(created)
        return
    console.print(f"[green]created[/] {created.kind} [bold]{escape(created.name)}[/]")
    console.print(
        f"give it a role: [cyan]axonal members set {escape(name)} ROLE -p owner/project[/]"
    )


@app.command("token")
def token(
    name: Annotated[str, typer.Argument(help="Whose token: yours, or (superuser) anyone's.")],
    label: Annotated[str, typer.Option("--name", help="What the token is for.")] = "token",
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a token (shown once)."""
    from axonal_events.principals import TokenCreated  # noqa: PLC0415

    with api(api_url) as client:
        created = client.post(
            f"/api/v1/principals/{name}/tokens", TokenCreated, json={"name": label}
        )
    if as_json:
        print_json(created)
        return
    console.print("[dim]the token is shown only now:[/]")
    console.print(f"export AXONAL_API_TOKEN={escape(created.token)}", soft_wrap=True)


@app.command("tokens")
def tokens(
    name: Annotated[str, typer.Argument(help="Whose tokens.")],
    revoke: Annotated[str | None, typer.Option("--revoke", help="Revoke this token id.")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List a principal's live tokens (no secrets), or revoke one."""
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.principals import TokenList  # noqa: PLC0415

    path = f"/api/v1/principals/{name}/tokens"
    with api(api_url) as client:
        found = (
            client.delete(f"{path}/{revoke}", TokenList) if revoke else client.get(path, TokenList)
        )
    if as_json:
        print_json(found)
        return
    table = Table("id", "name", "ends with", "created", "expires")
    for each in found.tokens:
        expires = f"{each.expires_at:%Y-%m-%d %H:%M}" if each.expires_at else "never"
        table.add_row(
            each.id, escape(each.name), each.hint, f"{each.created_at:%Y-%m-%d %H:%M}", expires
        )
    console.print(table)
