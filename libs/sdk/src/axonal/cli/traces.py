"""``axonal traces``: a project's LLM traces, as a table, and one trace as a tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from datetime import datetime

    from rich.tree import Tree

    from axonal_events.trace_reads import ObservationView, ScoreView, TraceDetail

__all__ = ["app"]

app = typer.Typer(
    name="traces",
    help="LLM traces and their observations.",
    no_args_is_help=True,
    add_completion=False,
)

_TYPE_STYLES = {"GENERATION": "magenta", "AGENT": "cyan", "TOOL": "yellow", "EVENT": "dim"}


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "traces", tail)


def _seconds(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.2f}s" if value >= 1 else f"{value * 1000:.0f}ms"


def _cost(value: float | None) -> str:
    return f"${value:.6f}" if value else ""


def _time(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


@app.command("ls")
def ls(
    project: ProjectOpt = None,
    user: Annotated[str | None, typer.Option("--user", help="Only this user's traces.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="Only this session.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Only traces of this name.")] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option("--tag", "-t", help="Only traces with this tag (repeatable)."),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=100, help="How many.")] = 20,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List the newest traces: time, name, user, session, observations, latency, tokens, cost."""
    from axonal_events.trace_reads import TracePage  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    params = {"user": user, "session": session, "name": name, "tag": tag or [], "limit": limit}
    with api(api_url) as client:
        found = client.get(
            path, TracePage, params={k: v for k, v in params.items() if v is not None}
        )
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("time", "id", "name", "user", "session", "obs", "latency", "tokens", "cost")
    for trace in found.data:
        table.add_row(
            _time(trace.timestamp),
            escape(trace.id),
            escape(trace.name or ""),
            escape(trace.user_id or ""),
            escape(trace.session_id or ""),
            str(len(trace.observation_ids)),
            _seconds(trace.latency),
            str(trace.total_tokens or ""),
            _cost(trace.total_cost),
        )
    console.print(table if found.data else "no traces")


def _tokens(observation: ObservationView) -> int:
    usage = observation.usage_details
    return int(usage.get("total", sum(usage.values())))


def _label(observation: ObservationView) -> str:
    kind = observation.type.value
    style = _TYPE_STYLES.get(kind, "blue")
    parts = [f"[{style}]{kind}[/]", f"[bold]{escape(observation.name or '')}[/]"]
    if observation.end_time is not None:
        parts.append(_seconds((observation.end_time - observation.start_time).total_seconds()))
    if observation.model:
        parts.append(f"model={escape(observation.model)}")
    if tokens := _tokens(observation):
        parts.append(f"tokens={tokens}")
    if cost := sum(observation.cost_details.values()):
        parts.append(_cost(observation.cost_details.get("total", cost)))
    if observation.level in ("ERROR", "WARNING"):
        message = escape(observation.status_message or "")
        parts.append(f"[red]{observation.level.value}[/] {message}")
    return " ".join(parts)


def _tree(detail: TraceDetail) -> Tree:
    from rich.tree import Tree  # noqa: PLC0415

    trace = detail.trace
    root = Tree(
        f"[bold]{escape(trace.name or trace.id)}[/] {escape(trace.id)} "
        f"{_seconds(trace.latency)} {_cost(trace.total_cost)}".rstrip()
    )
    known = {o.id for o in detail.observations}
    children: dict[str | None, list[ObservationView]] = {}
    for observation in sorted(detail.observations, key=lambda o: o.start_time):
        parent = observation.parent_observation_id
        children.setdefault(parent if parent in known else None, []).append(observation)

    def grow(node: Tree, parent: str | None) -> None:
        for observation in children.get(parent, []):
            grow(node.add(_label(observation)), observation.id)

    grow(root, None)
    return root


def _score(score: ScoreView) -> str:
    value = score.value if score.value is not None else score.string_value
    target = f" on {escape(score.observation_id)}" if score.observation_id else ""
    comment = f" [dim]{escape(score.comment)}[/]" if score.comment else ""
    return f"  {escape(score.name)} = {escape(str(value))}{target}{comment}"


@app.command("get")
def get(
    trace_id: Annotated[str, typer.Argument(help="The trace's id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Show a trace: its observations nested by parent, then its scores."""
    from axonal_events.trace_reads import TraceDetail  # noqa: PLC0415

    path = guarded(lambda: _path(project, trace_id))
    with api(api_url) as client:
        detail = client.get(path, TraceDetail)
    if as_json:
        print_json(detail)
        return
    trace = detail.trace
    who = [f"{key}={value}" for key, value in (("user_id", trace.user_id),
           ("session_id", trace.session_id)) if value]  # fmt: skip
    if trace.tags:
        who.append("tags=" + ",".join(trace.tags))
    console.print(_tree(detail))
    if who:
        console.print(escape(" ".join(who)))
    if detail.scores:
        console.print("[bold]scores[/]")
        for score in detail.scores:
            console.print(_score(score))
