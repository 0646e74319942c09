"""``axonal alerts``: metric alert rules of a project (each crossing is a ``metric.crossed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

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
#: ``<metric> is nan`` and ``<metric> is inf`` (either infinity): rules without a threshold.
_VALUE_CHECKS = {"nan": "is_nan", "inf": "is_inf"}


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "alerts", tail)


def _show(rules: list[AlertRuleInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "rule", "for points", "hysteresis", "runs tagged")
    for rule in rules:
        if rule.threshold is None:
            condition = f"{rule.metric} {rule.comparison.replace('_', ' ')}"
        else:
            sign = _SIGNS.get(rule.comparison, rule.comparison)
            condition = f"{rule.metric} {sign} {rule.threshold:g}"
        table.add_row(
            rule.id, escape(condition), str(rule.for_points), f"{rule.hysteresis:g}",
            escape(", ".join(rule.tags)) or "[dim]any run[/]",
        )  # fmt: skip
    console.print(table if rules else "no alert rules")


def _condition(comparison: str, threshold: str | None) -> dict[str, Any]:
    """The comparison and threshold of ``<metric> <comparison> <threshold>``."""
    if comparison == "is":
        check = _VALUE_CHECKS.get((threshold or "").lower())
        if check is None:
            raise typer.BadParameter("after `is`: nan or inf", param_hint="THRESHOLD")
        return {"comparison": check}
    if threshold is None:
        return {"comparison": comparison}  # is_nan, is_inf; the api says what else is missing
    try:
        return {"comparison": comparison, "threshold": float(threshold)}
    except ValueError:
        raise typer.BadParameter(f"not a number: {threshold!r}", param_hint="THRESHOLD") from None


@app.command("create")
def create(
    metric: Annotated[str, typer.Argument(help="The metric's name, e.g. loss.")],
    comparison: Annotated[
        str, typer.Argument(help="gt, gte, lt, lte, eq; or is, followed by nan or inf.")
    ],
    threshold: Annotated[
        str | None, typer.Argument(help="The value to cross; after is: nan or inf.")
    ] = None,
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
    """Create a rule, e.g. ``axonal alerts create loss gt 5 --for 3 --tag nightly`` or
    ``axonal alerts create loss is nan``."""
    from axonal_events.metrics import AlertRuleInfo  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    body = {
        "metric": metric,
        **_condition(comparison, threshold),
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
