"""``axonal alerts``: metric alert rules of a project (each crossing is a ``metric.crossed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt, alias
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.metrics import AlertRuleInfo

__all__ = ["app"]

app = typer.Typer(
    name="alerts",
    help="Metric alert rules: one event per crossing.",
    no_args_is_help=True,
    add_completion=False,
)
_SIGNS = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "eq": "=="}


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "alerts", tail)


def _show(rules: list[AlertRuleInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "rule", "for points", "hysteresis", "runs tagged")
    for rule in rules:
        sign = _SIGNS.get(rule.comparison, rule.comparison)
        condition = f"{rule.metric} {sign} {rule.threshold:g}"
        table.add_row(
            rule.id, escape(condition), str(rule.for_points), f"{rule.hysteresis:g}",
            escape(", ".join(rule.tags)) or "[dim]any run[/]",
        )  # fmt: skip
    console.print(table if rules else "no alert rules")


@app.command("create")
def create(
    metric: Annotated[str, typer.Argument(help="The metric's name, e.g. loss.")],
    comparison: Annotated[str, typer.Argument(help="gt, gte, lt, lte or eq.")],
    threshold: Annotated[float, typer.Argument(help="The value to cross.")],
    for_points: Annotated[
        int, typer.Option("--for", min=1, help="Consecutive points past the threshold.")
    ] = 1,
    hysteresis: Annotated[
        float, typer.Option("--hysteresis", min=0, help="Margin back before it can fire again.")
    ] = 0.0,
    tags: Annotated[
        list[str] | None,
        typer.Option("--tag", "-t", help="Only runs with this tag (repeatable: all of them)."),
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a rule, e.g. ``axonal alerts create loss gt 5 --for 3 --tag nightly``."""
    from axonal_events.metrics import AlertRuleInfo  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    body = {
        "metric": metric,
        "comparison": comparison,
        "threshold": threshold,
        "for_points": for_points,
        "hysteresis": hysteresis,
        "tags": tags or [],
    }
    with api(api_url) as client:
        rule = client.post(path, AlertRuleInfo, json=body)
    print_json(rule) if as_json else _show([rule])


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's rules."""
    from axonal_events.metrics import AlertRuleList  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, AlertRuleList)
    print_json(found) if as_json else _show(found.rules)


@app.command("rm")
def rm(
    rule_id: Annotated[str, typer.Argument(help="The rule's id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete a rule (--json: the rules left)."""
    from axonal_events.metrics import AlertRuleList  # noqa: PLC0415

    path = guarded(lambda: _path(project, rule_id))
    with api(api_url) as client:
        left = client.delete(path, AlertRuleList)
    print_json(left) if as_json else console.print(f"deleted alert rule [bold]{rule_id}[/]")


alias(app, "delete", "rm", rm)
