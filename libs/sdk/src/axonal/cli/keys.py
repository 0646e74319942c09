"""``axonal keys``: a project's API keys for the Langfuse SDK and OpenTelemetry exporters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.api_client import ApiError, resolve_api_url, split_project
from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt, alias
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.api_keys import ApiKeyCreated

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


def _env(key: ApiKeyCreated, base_url: str) -> dict[str, str]:
    return {
        "LANGFUSE_PUBLIC_KEY": key.public_key,
        "LANGFUSE_SECRET_KEY": key.secret_key,
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
    from axonal_events.api_keys import ApiKeyCreated  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    base_url = guarded(lambda: resolve_api_url(api_url))
    with api(base_url) as client:
        try:
            key = client.post(path, ApiKeyCreated, json={"note": note})
        except ApiError as exc:
            if exc.status == 404:
                exc.hint = (
                    f"create the project first: [cyan]axonal project create {_name(project)}[/]"
                )
            raise
    env = _env(key, base_url)
    if as_json:
        print_json({**key.model_dump(mode="json"), "env": env})
        return
    owner, name = key.project.owner, key.project.name
    console.print(
        f"[green]created[/] key {escape(key.public_key)} for {escape(owner)}/{escape(name)}"
    )
    console.print("[dim]the secret is shown only now; set these where your application runs:[/]")
    for variable, value in env.items():
        console.print(f"export {variable}={escape(value)}", soft_wrap=True, highlight=False)


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's keys (their secrets are never shown again)."""
    from axonal_events.api_keys import ApiKeyList  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, ApiKeyList)
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("public key", "secret", "note", "created")
    for key in found.keys:
        table.add_row(
            escape(key.public_key),
            f"…{escape(key.secret_hint)}",
            escape(key.note or ""),
            str(key.created_at),
        )
    console.print(table if found.keys else "no API keys")


@app.command("rm")
def rm(
    public_key: Annotated[str, typer.Argument(help="The key's pk-ax-... name.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Revoke a key: requests signed with it are refused from now on (--json: the keys left)."""
    from axonal_events.api_keys import ApiKeyList  # noqa: PLC0415

    path = guarded(lambda: _path(project, public_key))
    with api(api_url) as client:
        left = client.delete(path, ApiKeyList)
    if as_json:
        print_json(left)
    else:
        console.print(f"[green]revoked[/] {escape(public_key)}")


alias(app, "revoke", "rm", rm)
