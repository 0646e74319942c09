"""``axonal traces``: a project's LLM traces, as a table, and one trace as a tree."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from rich.tree import Tree

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


def _time(value: str) -> str:
    return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M:%S")


@app.command("ls")
def ls(
    project: ProjectOpt = None,
    user: Annotated[str | None, typer.Option("--user", help="Only this user's traces.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="Only this session.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Only traces of this name.")] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="Only traces with this tag (repeatable).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=100, help="How many.")] = 20,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List the newest traces: time, name, user, session, observations, latency, tokens, cost."""
    path = guarded(lambda: _path(project))
    params = {"user": user, "session": session, "name": name, "tag": tag or [], "limit": limit}
    with api(api_url) as client:
        found = client.request(
            "GET", path, params={k: v for k, v in params.items() if v is not None}
        )
    if as_json:
        print_json(found)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("time", "id", "name", "user", "session", "obs", "latency", "tokens", "cost")
    for trace in found["data"]:
        table.add_row(
            _time(trace["timestamp"]),
            escape(trace["id"]),
            escape(trace.get("name") or ""),
            escape(trace.get("user_id") or ""),
            escape(trace.get("session_id") or ""),
            str(len(trace["observation_ids"])),
            _seconds(trace.get("latency")),
            str(trace.get("total_tokens") or ""),
            _cost(trace.get("total_cost")),
        )
    console.print(table if found["data"] else "no traces")


def _tokens(observation: dict[str, Any]) -> int:
    usage = observation.get("usage_details") or {}
    return int(usage.get("total", sum(usage.values())))


def _label(observation: dict[str, Any]) -> str:
    kind = observation["type"]
    style = _TYPE_STYLES.get(kind, "blue")
    parts = [f"[{style}]{kind}[/]", f"[bold]{escape(observation.get('name') or '')}[/]"]
    if observation.get("end_time"):
        start = datetime.fromisoformat(observation["start_time"])
        end = datetime.fromisoformat(observation["end_time"])
        parts.append(_seconds((end - start).total_seconds()))
    if observation.get("model"):
        parts.append(f"model={escape(observation['model'])}")
    if tokens := _tokens(observation):
        parts.append(f"tokens={tokens}")
    if cost := sum((observation.get("cost_details") or {}).values()):
        parts.append(_cost(observation["cost_details"].get("total", cost)))
    if observation.get("level") in ("ERROR", "WARNING"):
        message = escape(observation.get("status_message") or "")
        parts.append(f"[red]{observation['level']}[/] {message}")
    return " ".join(parts)


def _tree(detail: dict[str, Any]) -> Tree:
    from rich.tree import Tree  # noqa: PLC0415

    trace = detail["trace"]
    root = Tree(
        f"[bold]{escape(trace.get('name') or trace['id'])}[/] {escape(trace['id'])} "
        f"{_seconds(trace.get('latency'))} {_cost(trace.get('total_cost'))}".rstrip()
    )
    known = {o["id"] for o in detail["observations"]}
    children: dict[str | None, list[dict[str, Any]]] = {}
    for observation in sorted(detail["observations"], key=lambda o: o["start_time"]):
        parent = observation.get("parent_observation_id")
        children.setdefault(parent if parent in known else None, []).append(observation)

    def grow(node: Tree, parent: str | None) -> None:
        for observation in children.get(parent, []):
            grow(node.add(_label(observation)), observation["id"])

    grow(root, None)
    return root


def _score(score: dict[str, Any]) -> str:
    value = score["value"] if score.get("value") is not None else score.get("string_value")
    target = f" on {escape(score['observation_id'])}" if score.get("observation_id") else ""
    comment = f" [dim]{escape(score['comment'])}[/]" if score.get("comment") else ""
    return f"  {escape(score['name'])} = {escape(str(value))}{target}{comment}"


@app.command("get")
def get(
    trace_id: Annotated[str, typer.Argument(help="The trace's id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Show a trace: its observations nested by parent, then its scores."""
    path = guarded(lambda: _path(project, trace_id))
    with api(api_url) as client:
        detail = client.request("GET", path)
    if as_json:
        print_json(detail)
        return
    trace = detail["trace"]
    who = [f"{k}={trace[k]}" for k in ("user_id", "session_id") if trace.get(k)]
    if trace.get("tags"):
        who.append("tags=" + ",".join(trace["tags"]))
    console.print(_tree(detail))
    if who:
        console.print(escape(" ".join(who)))
    if detail["scores"]:
        console.print("[bold]scores[/]")
        for score in detail["scores"]:
            console.print(_score(score))
