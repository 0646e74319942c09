"""``axonal automations``: rules that start or restart runs when events arrive."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ParamsOpt, ProjectOpt, alias
from axonal.cli.output import console, fail, print_json

if TYPE_CHECKING:
    from axonal_events.automations import AutomationInfo, FiringInfo

__all__ = ["app"]

app = typer.Typer(
    name="automations",
    help="Automation rules: start or restart runs on events.\n\n"
    "A rule starts an operation when an event arrives, or restarts a failed run once.",
    no_args_is_help=True,
    add_completion=False,
)
_OUTCOME_STYLE = {"started": "green", "restarted": "green", "skipped": "dim", "failed": "red"}


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "automations", tail)


def _pairs(values: list[str] | None, what: str) -> dict[str, str]:
    pairs = {}
    for value in values or []:
        key, sep, rest = value.partition("=")
        if not sep or not key:
            fail(f"{what} {value!r} is not NAME=VALUE", hint=f"e.g. --{what} dataset=data.uri")
        pairs[key] = rest
    return pairs


def _show(rules: list[AutomationInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "name", "on", "does", "fired", "state")
    for rule in rules:
        origin = f"external {rule.event}" if rule.external else rule.event
        if rule.source:
            origin += f" from {rule.source}"
        does = rule.action.value
        if does == "start":
            does += " " + (rule.hub_ref or "polyaxonfile")
        state = "[green]enabled[/]" if rule.enabled else "[dim]disabled[/]"
        table.add_row(
            rule.id, escape(rule.name), escape(origin), escape(does), str(rule.firings), state,
        )  # fmt: skip
    console.print(table if rules else "no automations")


def _show_firings(firings: list[FiringInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("at", "event", "type", "outcome", "run", "detail")
    for item in firings:
        style = _OUTCOME_STYLE.get(item.outcome, "")
        table.add_row(
            str(item.at), escape(item.event_id), escape(item.event_type),
            f"[{style}]{item.outcome.value}[/]", item.run_uuid or "-", escape(item.detail or ""),
        )  # fmt: skip
    console.print(table if firings else "no firings yet")


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The rule's name (unique in the project).")],
    on: Annotated[
        str, typer.Option("--on", help="Event type or wildcard: run.failed, dataset.updated.")
    ] = "run.failed",
    external: Annotated[
        bool, typer.Option("--external", help="Watch events outside systems post.")
    ] = False,
    source: Annotated[
        str | None, typer.Option("--source", help="Only external events from this source.")
    ] = None,
    restart: Annotated[
        bool, typer.Option("--restart", help="Restart a failed run once (instead of starting).")
    ] = False,
    hub_ref: Annotated[
        str | None, typer.Option("--hub-ref", help="Component to start (e.g. tensorboard).")
    ] = None,
    file: Annotated[
        Path | None, typer.Option("-f", "--file", help="Polyaxonfile to start.")
    ] = None,
    params: ParamsOpt = None,
    params_from: Annotated[
        list[str] | None,
        typer.Option("--param-from", help="Param read from the event, NAME=data.path."),
    ] = None,
    where: Annotated[
        list[str] | None,
        typer.Option("--where", help="Only events with PATH=VALUE (e.g. data.kind=job)."),
    ] = None,
    queue: Annotated[str | None, typer.Option("-q", "--queue")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a rule, e.g. ``axonal automations create retrain --external --on
    dataset.updated -f retrain.yaml --param-from dataset=data.uri``."""
    from axonal_events.automations import AutomationInfo  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    text = None
    if file is not None:
        try:
            text = file.read_text()
        except OSError as exc:
            fail(f"cannot read {file}: {exc.strerror}")
    body = {
        "name": name,
        "action": "restart" if restart else "start",
        "event": on,
        "external": external,
        "source": source,
        "where": _pairs(where, "where"),
        "hub_ref": hub_ref,
        "polyaxonfile": text,
        "params": _pairs(params, "param"),
        "params_from": _pairs(params_from, "param-from"),
        "queue": queue,
    }
    with api(api_url) as client:
        rule = client.post(path, AutomationInfo, json=body)
    print_json(rule) if as_json else _show([rule])


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's rules."""
    from axonal_events.automations import AutomationList  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, AutomationList)
    print_json(found) if as_json else _show(found.automations)


@app.command("rm")
def rm(
    automation_id: Annotated[str, typer.Argument(help="The rule's id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete a rule and its firings (--json: the rules left)."""
    from axonal_events.automations import AutomationList  # noqa: PLC0415

    path = guarded(lambda: _path(project, automation_id))
    with api(api_url) as client:
        left = client.delete(path, AutomationList)
    print_json(left) if as_json else console.print(f"deleted automation [bold]{automation_id}[/]")


alias(app, "delete", "rm", rm)


@app.command("firings")
def firings(
    automation_id: Annotated[str, typer.Argument(help="The rule's id.")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1000)] = 50,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """The newest firings of a rule: what fired it and which run it started."""
    from axonal_events.automations import FiringList  # noqa: PLC0415

    path = guarded(lambda: _path(project, f"{automation_id}/firings"))
    with api(api_url) as client:
        found = client.get(path, FiringList, params={"limit": limit})
    print_json(found) if as_json else _show_firings(found.firings)
