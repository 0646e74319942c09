"""``axonal login``, ``axonal logout`` and ``axonal whoami``: the CLI's credentials."""

from __future__ import annotations

import platform
from typing import Annotated

import typer
from rich.markup import escape

from axonal.api_client import resolve_api_url
from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, print_json

__all__ = ["login", "logout", "whoami"]

login = typer.Typer(add_completion=False)
logout = typer.Typer(add_completion=False)
whoami = typer.Typer(add_completion=False)


@login.command("login")
def sign_in(
    username: Annotated[str, typer.Option("--username", "-u", prompt=True, help="Your user.")],
    password: Annotated[
        str,
        typer.Option(
            "--password",
            prompt=True,
            hide_input=True,
            envvar="AXONAL_PASSWORD",
            help="Asked for when not given (or AXONAL_PASSWORD).",
        ),
    ],
    days: Annotated[int, typer.Option("--days", min=1, max=400, help="Token lifetime.")] = 90,
    api_url: ApiUrl = None,
) -> None:
    """Sign in to an api and keep a token for it.

    Asks for your user name and password; the token is kept for this api (readable by you
    only) and expires after --days.
    """
    from axonal._credentials import keep_token  # noqa: PLC0415
    from axonal_events.principals import TokenCreated  # noqa: PLC0415

    base_url = guarded(lambda: resolve_api_url(api_url))
    body = {
        "username": username,
        "password": password,
        "name": f"cli@{platform.node() or 'unknown'}",
        "ttl_seconds": days * 86400,
    }
    with api(base_url) as client:
        created = client.post("/api/v1/auth/tokens", TokenCreated, json=body)
    path = keep_token(base_url, created.token, username)
    console.print(
        f"[green]signed in[/] to {escape(base_url)} as [bold]{escape(username)}[/] "
        f"(token kept in {escape(str(path))}; it expires in {days} days)"
    )


@logout.command("logout")
def sign_out(api_url: ApiUrl = None) -> None:
    """Forget the token kept for an api.

    The token stays valid until it expires or is revoked (`axonal users tokens`).
    """
    from axonal._credentials import forget_token  # noqa: PLC0415

    base_url = guarded(lambda: resolve_api_url(api_url))
    if forget_token(base_url):
        console.print(f"signed out of {escape(base_url)}")
    else:
        console.print(f"no token was kept for {escape(base_url)}")


@whoami.command("whoami")
def who(as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """Who your credentials act for.

    With the roles they hold in organizations and projects.
    """
    from axonal_events.principals import Me  # noqa: PLC0415

    with api(api_url) as client:
        me = client.get("/api/v1/auth/me", Me)
    if as_json:
        print_json(me)
        return
    title = f"[bold]{escape(me.name)}[/] ({me.via}{', superuser' if me.superuser else ''})"
    console.print(title + (f", project {escape(me.project)} only" if me.project else ""))
    for org, role in sorted(me.org_roles.items()):
        console.print(f"  organization {escape(org)}: {role}")
    for project, role in sorted(me.project_roles.items()):
        console.print(f"  project {escape(project)}: {role}")
