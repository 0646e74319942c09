"""``axonal llm-models``: the model definitions that price a project's LLM generations.

The group was ``axonal models``; that name is kept for the model registry to come. The api
paths stay ``/api/v1/{owner}/{project}/models`` (and Langfuse's ``/api/public/models``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt, alias
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="llm-models",
    help="Model definitions that price LLM generations.\n\n"
    "The project's own definitions come first, then the shipped ones (public list prices).",
    no_args_is_help=True,
    add_completion=False,
)

_MILLION = 1_000_000


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "llm-models", tail)


def _per_million(price: float | None) -> str:
    return "" if price is None else f"${price * _MILLION:,.4g}"


def _prices(pairs: list[str]) -> dict[str, float]:
    """``TYPE=USD`` pairs (USD per 1M units) as USD per unit."""
    prices = {}
    for pair in pairs:
        usage, _, value = pair.partition("=")
        try:
            amount = float(value)
        except ValueError:
            amount = -1.0
        if not usage.strip() or amount < 0:
            raise typer.BadParameter(f"{pair!r}: use TYPE=USD per 1M, for example input_audio=40")
        prices[usage.strip()] = amount / _MILLION
    return prices


@app.command("ls")
def ls(
    project: ProjectOpt = None,
    own: Annotated[bool, typer.Option("--own", help="Only the project's own definitions.")] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List the definitions, the project's own first, with prices per 1M tokens."""
    from axonal_events.llm_models import ModelPage  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, ModelPage, params={"limit": 1000})
    models = [m for m in found.data if not (own and m.managed)]
    if as_json:
        print_json(models)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "model", "pattern", "input /1M", "output /1M", "tiers", "from", "source")
    for model in models:
        prices = model.prices
        table.add_row(
            escape(model.id),
            f"[bold]{escape(model.model_name)}[/]",
            escape(model.match_pattern),
            _per_million(prices.get("input")),
            _per_million(prices.get("output")),
            str(len(model.tiers)),
            model.start_date.date().isoformat() if model.start_date else "",
            "shipped" if model.managed else "[cyan]project[/]",
        )
    console.print(table if models else "no model definitions")


@app.command("create")
def create(
    model_name: Annotated[str, typer.Argument(help="The definition's name.")],
    match: Annotated[
        str, typer.Option("--match", help="Regular expression on the model name generations send.")
    ],
    input_price: Annotated[
        float | None, typer.Option("--input", min=0, help="USD per 1M input tokens.")
    ] = None,
    output_price: Annotated[
        float | None, typer.Option("--output", min=0, help="USD per 1M output tokens.")
    ] = None,
    price: Annotated[
        list[str] | None,
        typer.Option("--price", help="Another usage type, TYPE=USD per 1M (repeatable)."),
    ] = None,
    start_date: Annotated[
        datetime | None, typer.Option("--from", help="Price generations from this time on.")
    ] = None,
    tokenizer: Annotated[
        str | None, typer.Option("--tokenizer", help="tiktoken model counting missing usage.")
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Define a model's prices for the project (it wins over a shipped definition)."""
    from axonal_events.llm_models import ModelDefinition  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    prices = _prices(price or [])
    for usage, value in (("input", input_price), ("output", output_price)):
        if value is not None:
            prices[usage] = value / _MILLION
    if not prices:
        raise typer.BadParameter("give at least one price: --input, --output or --price")
    body = {
        "model_name": model_name,
        "match_pattern": match,
        "start_date": start_date.isoformat() if start_date else None,
        "tiers": [{"name": "default", "is_default": True, "prices": prices}],
        "tokenizer_model": tokenizer,
    }
    with api(api_url) as client:
        created = client.post(path, ModelDefinition, json=body)
    if as_json:
        print_json(created)
        return
    console.print(f"[green]defined[/] {escape(created.model_name)} [dim]({escape(created.id)})[/]")


@app.command("rm")
def rm(
    model_id: Annotated[
        str, typer.Argument(help="The definition's id (see `axonal llm-models ls`).")
    ],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete one of the project's definitions (generations already priced keep their cost)."""
    from axonal_events.llm_models import ModelDefinition  # noqa: PLC0415

    path = guarded(lambda: _path(project, model_id))
    with api(api_url) as client:
        deleted = client.delete(path, ModelDefinition)
    if as_json:
        print_json(deleted)
        return
    console.print(f"[green]deleted[/] {escape(deleted.model_name)}")


alias(app, "delete", "rm", rm)
