"""``axonal hub``: the component hub: push versioned components, list them, pull one."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, fail, print_json

if TYPE_CHECKING:
    from axonal_events.hub import HubComponentInfo

__all__ = ["app", "component_ref"]

app = typer.Typer(
    name="hub",
    help="The component hub: versioned components that hubRef names.\n\n"
    "A tag is immutable (push a new one, or --force); `latest` follows the newest push; "
    "the built-in components (owner axonal) are read-only.",
    no_args_is_help=True,
    add_completion=False,
)


def component_ref(
    document: Any, given: str | None, owner: str, tag: str | None
) -> tuple[str, str, str]:
    """``(owner, name, tag)`` to push: ``--name [owner/]name[:tag]`` first, then the file's
    ``name``, ``--owner`` (or the project's owner) and ``--tag``; :class:`ValueError` saying
    what is missing."""
    from axonal_spec.hub import parse_hub_ref  # noqa: PLC0415

    ref = parse_hub_ref(given) if given else None
    name = ref.name if ref else (document.get("name") if isinstance(document, dict) else None)
    if not isinstance(name, str) or not name:
        raise ValueError("the component has no name: give it `name:` or --name owner/name:tag")
    version = (ref.version if ref else None) or tag
    if not version:
        raise ValueError(f"no tag for {name}: give --name {owner}/{name}:v1 or --tag v1")
    return (ref.owner if ref and ref.owner else owner), name, version


def _show(components: list[HubComponentInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("component", "tag", "inputs", "outputs", "pushed", "")
    for item in components:
        marks = ["[green]latest[/]"] if item.latest else []
        marks += ["[dim]built-in[/]"] if item.builtin else []
        table.add_row(
            escape(f"{item.owner}/{item.name}"), escape(item.tag),
            escape(", ".join(item.inputs)), escape(", ".join(item.outputs)),
            item.pushed_at.strftime("%Y-%m-%d %H:%M"), " ".join(marks),
        )  # fmt: skip
    console.print(table if components else "no components")


@app.command("push")
def push(
    file: Annotated[Path, typer.Option("-f", "--file", help="The component's polyaxonfile.")],
    name: Annotated[
        str | None, typer.Option("--name", help="[owner/]name[:tag] (default: the file's name).")
    ] = None,
    owner: Annotated[
        str | None, typer.Option("--owner", help="Owner (default: the project's owner).")
    ] = None,
    tag: Annotated[str | None, typer.Option("--tag", help="Version tag, e.g. v1.")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the tag if it holds other content.")
    ] = False,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Push a component version, e.g. ``axonal hub push -f trainer.yaml --name acme/trainer:v2``."""
    import yaml  # noqa: PLC0415

    from axonal.api_client import split_project  # noqa: PLC0415
    from axonal_events.hub import HubComponent  # noqa: PLC0415
    from axonal_spec import SpecError  # noqa: PLC0415

    try:
        content = file.read_text()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
    try:
        document = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        fail(f"{file} is not YAML: {exc}")
    default_owner = owner or guarded(lambda: split_project(project))[0]
    try:
        ref = component_ref(document, name, default_owner, tag)
    except (ValueError, SpecError) as exc:
        fail(str(exc), hint="e.g. axonal hub push -f component.yaml --name acme/trainer:v1")
    body = {"owner": ref[0], "name": ref[1], "tag": ref[2], "content": content, "force": force}
    with api(api_url) as client:
        pushed = client.post("/api/v1/hub/components", HubComponent, json=body)
    if as_json:
        print_json(pushed)
        return
    what = "pushed" if pushed.created else "unchanged (this tag holds this content already)"
    console.print(f"{escape(f'{pushed.owner}/{pushed.name}:{pushed.tag}')} {what}")


@app.command("ls")
def ls(
    owner: Annotated[str | None, typer.Option("--owner", help="Only this owner's.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Only this component's.")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List component versions (pushed ones first, then the built-ins)."""
    from axonal_events.hub import ComponentList  # noqa: PLC0415

    query = {key: value for key, value in (("owner", owner), ("name", name)) if value}
    with api(api_url) as client:
        found = client.get("/api/v1/hub/components", ComponentList, params=query)
    print_json(found) if as_json else _show(found.components)


@app.command("pull")
def pull(
    ref: Annotated[str, typer.Argument(help="[owner/]name[:tag], as a hubRef names it.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the YAML to this file.")
    ] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Print the component a hubRef names (or write it with -o)."""
    from axonal_events.hub import HubComponent  # noqa: PLC0415

    with api(api_url) as client:
        found = client.get("/api/v1/hub/resolve", HubComponent, params={"ref": ref})
    if as_json:
        print_json(found)
    elif output is None:
        typer.echo(found.content, nl=not found.content.endswith("\n"))
    else:
        try:
            output.write_text(found.content)
        except OSError as exc:
            fail(f"cannot write {output}: {exc.strerror}")
        console.print(f"{escape(f'{found.owner}/{found.name}:{found.tag}')} -> {output}")
