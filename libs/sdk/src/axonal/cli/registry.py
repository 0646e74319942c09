"""``axonal registry models``: registered models, their versions, aliases and approvals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.model_evaluations import ModelVersionScores, PromotionGates
    from axonal_events.model_registry import (
        AliasRequest,
        ModelVersion,
        Promotion,
        RegisteredModel,
    )

__all__ = ["app"]

app = typer.Typer(
    name="registry",
    help="The model registry: models, versions, aliases, approvals.",
    no_args_is_help=True,
    add_completion=False,
)
models = typer.Typer(
    name="models",
    help="Registered models: versions from runs' model artifacts, aliases such as production.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(models)

Model = Annotated[str, typer.Argument(help="The model's name.")]
Version = Annotated[int, typer.Argument(help="The version's number.", min=1)]


def _path(project: str | None, *tail: str) -> str:
    return project_path(project, "models", *tail)


def _show_models(found: list[RegisteredModel]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "latest", "aliases", "protected", "description")
    for model in found:
        aliases = ", ".join(f"{a}: v{v}" for a, v in sorted(model.aliases.items()))
        latest = f"v{model.latest_version}" if model.latest_version else "-"
        table.add_row(
            escape(model.name), latest, escape(aliases or "-"),
            escape(", ".join(model.protected_aliases) or "-"), escape(model.description or ""),
        )  # fmt: skip
    console.print(table if found else "no registered models")


def _show_versions(found: list[ModelVersion]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("version", "aliases", "state", "run", "artifact", "sha256", "created")
    for item in found:
        state = "[dim]archived[/]" if item.archived else "[green]active[/]"
        table.add_row(
            f"v{item.version}", escape(", ".join(item.aliases) or "-"), state, item.run_uuid,
            escape(item.artifact), item.sha256[:12], f"{item.created_at:%Y-%m-%d %H:%M}",
        )  # fmt: skip
    console.print(table if found else "no versions yet")


def _show_requests(found: list[AliasRequest]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("request", "alias", "version", "asked by", "approved by")
    for item in found:
        table.add_row(
            item.id, escape(item.alias), f"v{item.version}", escape(item.requested_by or "-"),
            escape(item.approved_by or "[yellow]pending[/]"),
        )  # fmt: skip
    console.print(table if found else "no pending requests")


def _show_promotion(promotion: Promotion, alias: str) -> None:
    version = promotion.version
    if promotion.request is not None:
        console.print(
            f"[yellow]{escape(alias)} is protected[/]: request {promotion.request.id} waits "
            f"for approval (axonal registry models approve {escape(version.model)} "
            f"{promotion.request.id})"
        )
        return
    console.print(f"[green]{escape(version.model)} v{version.version}[/] is {escape(alias)}")


@models.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's registered models and their aliases."""
    from axonal_events.model_registry import RegisteredModelList  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, RegisteredModelList)
    print_json(found) if as_json else _show_models(found.models)


@models.command("get")
def get(
    model: Model, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """Show a model with its aliases."""
    from axonal_events.model_registry import RegisteredModel  # noqa: PLC0415

    path = guarded(lambda: _path(project, model))
    with api(api_url) as client:
        found = client.get(path, RegisteredModel)
    print_json(found) if as_json else _show_models([found])


@models.command("versions")
def versions(
    model: Model, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List a model's versions, newest first."""
    from axonal_events.model_registry import ModelVersionList  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "versions"))
    with api(api_url) as client:
        found = client.get(path, ModelVersionList)
    print_json(found) if as_json else _show_versions(found.versions)


@models.command("register")
def register(
    model: Model,
    run_uuid: Annotated[str, typer.Argument(help="The run that logged the model artifact.")],
    artifact: Annotated[str, typer.Option("--artifact", help="Its artifact name.")] = "model",
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Register the latest version of a run's model artifact as a new model version."""
    from axonal_events.model_registry import ModelVersion  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "versions"))
    with api(api_url) as client:
        made = client.post(path, ModelVersion, json={"run_uuid": run_uuid, "artifact": artifact})
    print_json(made) if as_json else _show_versions([made])


@models.command("promote")
def promote(
    model: Model,
    version: Version,
    alias: Annotated[
        str, typer.Option("--alias", "-a", help="staging, production or a custom alias.")
    ] = "production",
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Move an alias to a version (a protected one waits for approval)."""
    from axonal_events.model_registry import Promotion  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "versions", str(version), "promote"))
    with api(api_url) as client:
        done = client.post(path, Promotion, json={"alias": alias})
    print_json(done) if as_json else _show_promotion(done, alias)


@models.command("archive")
def archive(
    model: Model,
    version: Version,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Archive (demote) a version: it loses every alias it holds."""
    from axonal_events.model_registry import ModelVersion  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "versions", str(version), "archive"))
    with api(api_url) as client:
        done = client.post(path, ModelVersion)
    print_json(done) if as_json else _show_versions([done])


@models.command("protect")
def protect(
    model: Model,
    aliases: Annotated[list[str] | None, typer.Argument(help="Aliases (none: unprotect).")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Set the aliases that move only when a request is approved."""
    from axonal_events.model_registry import RegisteredModel  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "protected"))
    with api(api_url) as client:
        found = client.call("PUT", path, RegisteredModel, json={"aliases": aliases or []})
    print_json(found) if as_json else _show_models([found])


@models.command("requests")
def requests(
    model: Model, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """List the pending moves of protected aliases."""
    from axonal_events.model_registry import AliasRequestList  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "requests"))
    with api(api_url) as client:
        found = client.get(path, AliasRequestList)
    print_json(found) if as_json else _show_requests(found.requests)


@models.command("approve")
def approve(
    model: Model,
    request_id: Annotated[str, typer.Argument(help="The pending request's id.")],
    by: Annotated[str | None, typer.Option("--by", help="Who approves.")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Approve a pending move: the alias moves and model.version.promoted is emitted."""
    from axonal_events.model_registry import Promotion  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "requests", request_id, "approve"))
    with api(api_url) as client:
        done = client.post(path, Promotion, json={"approved_by": by})
    if as_json:
        print_json(done)
    else:
        held = ", ".join(done.version.aliases)
        console.print(f"[green]approved[/]: {escape(model)} v{done.version.version} holds {held}")


def _show_scores(found: ModelVersionScores) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("score", "value", "run", "dataset", "recorded")
    for item in found.scores:
        table.add_row(
            escape(item.name), f"{item.value:g}", item.run_uuid, escape(item.dataset or "-"),
            f"{item.recorded_at:%Y-%m-%d %H:%M}",
        )  # fmt: skip
    console.print(table if found.scores else f"v{found.version} has no evaluation scores yet")


def _show_gates(found: PromotionGates) -> None:
    if not found.gates:
        console.print(f"no alias of {escape(found.model)} requires scores")
    for alias, gates in sorted(found.gates.items()):
        console.print(f"{escape(alias)} requires {escape(', '.join(map(str, gates)))}")


def _gate(text: str) -> dict[str, object]:
    """``auc>=0.9`` as a gate's fields."""
    import re  # noqa: PLC0415

    found = re.fullmatch(r"\s*([A-Za-z0-9_][\w.\-/]*)\s*(>=|<=|>|<)\s*(\S+)\s*", text)
    try:
        threshold = float(found.group(3)) if found else None
    except ValueError:
        threshold = None
    if found is None or threshold is None:
        raise typer.BadParameter(f"{text!r}: write a gate as <score><op><number>, e.g. auc>=0.9")
    return {"metric": found.group(1), "op": found.group(2), "threshold": threshold}


@models.command("scores")
def scores(
    model: Model,
    ref: Annotated[str, typer.Argument(help="A version number or an alias.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """A version's evaluation scores (tracking.log_model_scores in an evaluation run)."""
    from axonal_events.model_evaluations import ModelVersionScores  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "versions", ref, "scores"))
    with api(api_url) as client:
        found = client.get(path, ModelVersionScores)
    print_json(found) if as_json else _show_scores(found)


@models.command("gate")
def gate(
    model: Model,
    alias: Annotated[str, typer.Argument(help="The alias the gates hold, e.g. production.")],
    require: Annotated[
        list[str] | None,
        typer.Option("--require", "-r", help="A score the version needs: auc>=0.9 (repeat)."),
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Set the scores an alias requires of the version it moves to (none: clear them)."""
    from axonal_events.model_evaluations import PromotionGates  # noqa: PLC0415

    gates = [_gate(text) for text in require or []]
    path = guarded(lambda: _path(project, model, "gates", alias))
    with api(api_url) as client:
        found = client.call("PUT", path, PromotionGates, json={"gates": gates})
    print_json(found) if as_json else _show_gates(found)


@models.command("gates")
def list_gates(
    model: Model, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """The scores each alias of the model requires."""
    from axonal_events.model_evaluations import PromotionGates  # noqa: PLC0415

    path = guarded(lambda: _path(project, model, "gates"))
    with api(api_url) as client:
        found = client.get(path, PromotionGates)
    print_json(found) if as_json else _show_gates(found)
