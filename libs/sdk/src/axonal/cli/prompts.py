"""``axonal prompts``: a project's prompts, their versions and labels (Langfuse's model).

Each ``create`` makes the next version of a name; a label (``production``, ``staging``...)
points at one version at a time, and ``latest`` follows the newest. The Langfuse SDKs read
the same prompts at ``/api/public/v2/prompts``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, fail, print_json

__all__ = ["app"]

app = typer.Typer(
    name="prompts",
    help="Prompts: versions of text and chat templates, with labels.\n\n"
    "A label points at one version of a prompt; `latest` follows the newest version.",
    no_args_is_help=True,
    add_completion=False,
)

Name = Annotated[str, typer.Argument(help="The prompt's name (may hold / folders).")]


@contextmanager
def _about_prompts() -> Iterator[None]:
    """A missing prompt, version or label is answered with where to look."""
    from axonal.api_client import ApiError  # noqa: PLC0415

    try:
        yield
    except ApiError as exc:
        if exc.code == "not_found":
            exc.hint = "see the prompts with `axonal prompts ls` (and -p owner/project)"
        raise


def _labels(labels: list[str]) -> str:
    return " ".join(
        f"[green]{escape(label)}[/]" if label == "production" else escape(label) for label in labels
    )


def _versions(versions: list[int]) -> str:
    if len(versions) > 3:
        return f"{versions[0]}…{versions[-1]} ({len(versions)})"
    return ", ".join(map(str, versions))


@app.command("ls")
def ls(
    label: Annotated[str | None, typer.Option("--label", help="Only prompts with it.")] = None,
    tag: Annotated[str | None, typer.Option("--tag", help="Only prompts with it.")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List the prompts with their versions, labels and tags."""
    from axonal_events.prompts import PromptMetaPage  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "prompts"))
    params = {k: v for k, v in {"label": label, "tag": tag, "limit": 100}.items() if v}
    with api(api_url) as client:
        found = client.get(path, PromptMetaPage, params=params)
    if as_json:
        print_json(found.data)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "type", "versions", "labels", "tags", "updated")
    for meta in found.data:
        table.add_row(
            f"[bold]{escape(meta.name)}[/]",
            meta.type,
            _versions(meta.versions),
            _labels(meta.labels),
            escape(", ".join(meta.tags)),
            meta.last_updated_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table if found.data else "no prompts")


def _show(prompt: Any) -> None:
    console.print(
        f"[bold]{escape(prompt.name)}[/] v{prompt.version} [dim]{prompt.type}[/]  "
        f"{_labels(prompt.labels)}"
    )
    if prompt.commit_message:
        console.print(f"[dim]{escape(prompt.commit_message)}[/]")
    if isinstance(prompt.prompt, str):
        console.print(escape(prompt.prompt), highlight=False)
        return
    for message in prompt.prompt:
        if message.get("type") == "placeholder":
            console.print(f"[magenta]{{{{{escape(message['name'])}}}}} (placeholder)[/]")
        else:
            console.print(f"[cyan]{escape(message['role'])}:[/] {escape(message['content'])}")


@app.command("get")
def get(
    name: Name,
    version: Annotated[int | None, typer.Option("--version", "-v", min=1)] = None,
    label: Annotated[str | None, typer.Option("--label", "-l", help="Default: production.")] = None,
    raw: Annotated[
        bool, typer.Option("--raw", help="Keep embedded prompt references as they are.")
    ] = False,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Show a version of a prompt: by number, or by label (production by default)."""
    from axonal_events.prompts import PromptVersion  # noqa: PLC0415

    if version is not None and label is not None:
        raise typer.BadParameter("give --version or --label, not both")
    path = guarded(lambda: project_path(project, "prompts", name))
    params: dict[str, Any] = {"resolve": not raw}
    if version is not None:
        params["version"] = version
    if label is not None:
        params["label"] = label
    with api(api_url) as client, _about_prompts():
        found = client.get(path, PromptVersion, params=params)
    if as_json:
        print_json(found)
        return
    _show(found)


def _content(text: str | None, file: Path | None, chat: bool) -> Any:
    if (text is None) == (file is None):
        raise typer.BadParameter("give the prompt with --text or --file, one of them")
    content = text if text is not None else file.read_text() if file else ""
    if not chat:
        return content
    try:
        return json.loads(content)
    except json.JSONDecodeError as exc:
        fail(
            f"a chat prompt is a JSON list of messages: {exc}",
            hint=escape(
                '[{"role": "system", "content": "..."}, {"type": "placeholder", "name": "h"}]'
            ),
        )


@app.command("create")
def create(
    name: Name,
    text: Annotated[str | None, typer.Option("--text", help="The prompt itself.")] = None,
    file: Annotated[
        Path | None,
        typer.Option("--file", "-f", exists=True, dir_okay=False, help="Read it from a file."),
    ] = None,
    chat: Annotated[
        bool, typer.Option("--chat", help="A chat prompt: a JSON list of messages.")
    ] = False,
    label: Annotated[
        list[str] | None, typer.Option("--label", "-l", help="Put on it (repeatable).")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Tag (repeatable).")] = None,
    config: Annotated[
        str | None, typer.Option("--config", help="JSON object: model, temperature...")
    ] = None,
    message: Annotated[str | None, typer.Option("--message", "-m", help="Commit message.")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create the next version of a prompt (its first when the name is new)."""
    from axonal_events.prompts import PromptVersion  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "prompts"))
    body: dict[str, Any] = {
        "name": name,
        "type": "chat" if chat else "text",
        "prompt": _content(text, file, chat),
        "labels": label or [],
        "tags": tag,
        "commit_message": message,
    }
    if config is not None:
        try:
            body["config"] = json.loads(config)
        except json.JSONDecodeError as exc:
            fail(f"--config is not JSON: {exc}", hint="--config '{\"temperature\": 0.2}'")
    with api(api_url) as client:
        created = client.post(path, PromptVersion, json=body)
    if as_json:
        print_json(created)
        return
    console.print(
        f"[green]created[/] {escape(created.name)} v{created.version}  {_labels(created.labels)}"
    )


@app.command("label")
def label(
    name: Name,
    version: Annotated[int, typer.Argument(min=1, help="The version to put them on.")],
    labels: Annotated[list[str], typer.Argument(help="Labels, taken from other versions.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Put labels on a version: each leaves the version that had it."""
    from axonal_events.prompts import PromptVersion  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "prompts", name, "versions", str(version)))
    with api(api_url) as client, _about_prompts():
        updated = client.patch(path, PromptVersion, json={"labels": labels})
    if as_json:
        print_json(updated)
        return
    console.print(f"{escape(updated.name)} v{updated.version}  {_labels(updated.labels)}")
