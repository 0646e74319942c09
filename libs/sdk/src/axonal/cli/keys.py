"""``axonal keys``: a project's API keys for the Langfuse SDK and OpenTelemetry exporters."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.api_client import ApiError, resolve_api_url, split_project
from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="keys",
    help="Project API keys (Langfuse SDK, OTLP exporters).",
    no_args_is_help=True,
    add_completion=False,
)


def _path(project: str | None, tail: str = "") -> str:
    owner, name = split_project(project)
    return f"/api/v1/projects/{owner}/{name}/api-keys" + (f"/{tail}" if tail else "")


def _name(project: str | None) -> str:
    owner, name = split_project(project)
    return f"{owner}/{name}"


def _env(key: dict[str, Any], base_url: str) -> dict[str, str]:
    return {
        "LANGFUSE_PUBLIC_KEY": key["public_key"],
        "LANGFUSE_SECRET_KEY": key["secret_key"],
        "LANGFUSE_BASE_URL": base_url,
        "LANGFUSE_HOST": base_url,
    }


@app.command("create")
def create(
    note: Annotated[str | None, typer.Option("--note", help="What the key is for.")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a key; prints the environment variables the Langfuse SDK reads (secret shown once)."""
    path = guarded(lambda: _path(project))
    base_url = guarded(lambda: resolve_api_url(api_url))
    with api(base_url) as client:
        try:
            key = client.request("POST", path, json={"note": note})
        except ApiError as exc:
            if exc.status == 404:
                exc.hint = (
                    f"create the project first: [cyan]axonal project create {_name(project)}[/]"
                )
            raise
    env = _env(key, base_url)
    if as_json:
        print_json({**key, "env": env})
        return
    owner, name = key["project"]["owner"], key["project"]["name"]
    console.print(
        f"[green]created[/] key {escape(key['public_key'])} for {escape(owner)}/{escape(name)}"
    )
    console.print("[dim]the secret is shown only now; set these where your application runs:[/]")
    for variable, value in env.items():
        console.print(f"export {variable}={escape(value)}", soft_wrap=True, highlight=False)


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's keys (their secrets are never shown again)."""
    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.request("GET", path)
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("public key", "secret", "note", "created")
    for key in found["keys"]:
        table.add_row(
            escape(key["public_key"]),
            f"…{escape(key['secret_hint'])}",
            escape(key.get("note") or ""),
            str(key["created_at"]),
        )
    console.print(table if found["keys"] else "no API keys")


@app.command("revoke")
def revoke(
    public_key: Annotated[str, typer.Argument(help="The key's pk-ax-... name.")],
    project: ProjectOpt = None,
    api_url: ApiUrl = None,
) -> None:
    """Revoke a key: requests signed with it are refused from now on."""
    path = guarded(lambda: _path(project, public_key))
    with api(api_url) as client:
        client.request("DELETE", path)
    console.print(f"[green]revoked[/] {escape(public_key)}")
