"""The ``axonal`` command line.

Core commands live here; other packages add theirs through the ``axonal.cli`` entry points,
each a ``register(app: typer.Typer)`` function (``axonal-stack`` adds ``up``, ``down`` and
``status``). A plugin that fails to load is reported, and the other commands still work.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, entry_points
from importlib.metadata import version as dist_version
from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape

__all__ = ["PLUGIN_GROUP", "app", "console", "err_console", "fail", "load_plugins", "main"]

PLUGIN_GROUP = "axonal.cli"
#: Commands the embedded stack provides, and what to say when it is not installed.
_STACK_COMMANDS = {
    "up": "Start the local Axonal stack.",
    "down": "Stop the local Axonal stack.",
    "status": "Show the health of the local Axonal stack.",
}

console = Console()
err_console = Console(stderr=True)
app = typer.Typer(
    name="axonal",
    help="Axonal: ML orchestration and tracking, LLM observability and evaluation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def fail(message: str, hint: str | None = None, code: int = 1) -> NoReturn:
    """Print ``message`` (and a hint, Rich markup allowed) on stderr and exit with ``code``."""
    err_console.print(f"[bold red]Error:[/] {escape(message)}")
    if hint:
        err_console.print(f"[bold]Hint:[/] {hint}")
    raise typer.Exit(code)


def _version(distribution: str) -> str:
    try:
        return dist_version(distribution)
    except PackageNotFoundError:
        return "unknown"


@app.command()
def version() -> None:
    """Show the version of Axonal and of its installed plugins."""
    console.print(f"axonal [bold]{_version('axonal')}[/]")
    for ep in entry_points(group=PLUGIN_GROUP):
        dist = ep.dist.name if ep.dist else ep.module
        console.print(f"  plugin [cyan]{ep.name}[/]: {dist} {_version(dist)}")


def _command_names(target: typer.Typer) -> set[str]:
    names = set()
    for info in target.registered_commands:
        if info.name:
            names.add(info.name)
        elif info.callback is not None:
            names.add(info.callback.__name__.replace("_", "-"))
    return names


def _not_installed(target: typer.Typer, name: str, help_text: str) -> None:
    def command(ctx: typer.Context) -> None:
        fail(
            f"`axonal {name}` needs the embedded stack, which is not installed",
            hint="install it: [cyan]pip install axonal-stack[/] (or [cyan]uv add axonal-stack[/])",
        )

    command.__name__ = name
    target.command(
        name,
        help=f"{help_text} (needs axonal-stack)",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    )(command)


def load_plugins(target: typer.Typer = app) -> list[str]:
    """Call ``register(target)`` of every ``axonal.cli`` entry point; return their names.

    Commands of the embedded stack that no plugin provides explain how to install it.
    """
    loaded = []
    for ep in entry_points(group=PLUGIN_GROUP):
        try:
            ep.load()(target)
        except Exception as exc:  # noqa: BLE001 - one broken plugin must not break the CLI
            err_console.print(
                f"[yellow]Warning:[/] the {escape(ep.name)} plugin ({escape(ep.value)}) "
                f"failed to load: {escape(str(exc))}"
            )
            continue
        loaded.append(ep.name)
    present = _command_names(target)
    for name, help_text in _STACK_COMMANDS.items():
        if name not in present:
            _not_installed(target, name, help_text)
    return loaded


def _register_core() -> None:
    from axonal.check_cmd import check  # noqa: PLC0415 - imports typer only

    if "check" not in _command_names(app):
        app.command("check")(check)
    if "run" not in _command_names(app):
        from axonal.run_cmd import run  # noqa: PLC0415 - imports typer and rich only

        app.command("run")(run)
    groups = {group.name for group in app.registered_groups}
    if "ops" not in groups:
        from axonal.ops_cmd import ops_app, project_app  # noqa: PLC0415

        app.add_typer(ops_app, name="ops")
        app.add_typer(project_app, name="project")
    if "alerts" not in groups:
        from axonal.alerts_cmd import alerts_app  # noqa: PLC0415

        app.add_typer(alerts_app, name="alerts")
    if "webhooks" not in groups:
        from axonal.webhooks_cmd import webhooks_app  # noqa: PLC0415

        app.add_typer(webhooks_app, name="webhooks")
    if "connections" not in groups:
        from axonal.connections_cmd import connections_app  # noqa: PLC0415

        app.add_typer(connections_app, name="connections")
    if "automations" not in groups:
        from axonal.automations_cmd import automations_app  # noqa: PLC0415

        app.add_typer(automations_app, name="automations")
    if "events" not in groups:
        from axonal.events_cmd import events_app  # noqa: PLC0415

        app.add_typer(events_app, name="events")
    if "keys" not in groups:
        from axonal.keys_cmd import keys_app  # noqa: PLC0415

        app.add_typer(keys_app, name="keys")
    if "traces" not in groups:
        from axonal.traces_cmd import traces_app  # noqa: PLC0415

        app.add_typer(traces_app, name="traces")
    if "models" not in groups:
        from axonal.models_cmd import models_app  # noqa: PLC0415

        app.add_typer(models_app, name="models")


def main() -> None:
    """Console-script entry point: load plugins, then run the command line."""
    _register_core()
    load_plugins()
    app(prog_name="axonal")


if __name__ == "__main__":
    main()
