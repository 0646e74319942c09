"""``axonal up``, ``axonal down`` and ``axonal status``: thin commands over :mod:`control`.

Registered on the ``axonal`` command line through the ``axonal.cli`` entry point. This module
imports only typer (and the standard library): ``axonal --help`` imports it to list the
commands, so the settings, Rich, the NATS client and asyncpg are imported by the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from axonal_stack.control import StackError
    from axonal_stack.health import StackStatus
    from axonal_stack.settings import StackSettings
    from axonal_stack.state import StackState

__all__ = ["register"]

_PANEL = "Local stack"
HomeOption = Annotated[
    Path | None,
    typer.Option(
        "--home",
        help="Folder of the stack (default: $AXONAL_HOME or ~/.axonal).",
        show_default=False,
    ),
]
_NOT_RUNNING_HINT = "start it with [cyan]axonal up[/] (or [cyan]axonal up --detach[/])"


def register(app: typer.Typer) -> None:
    """Add the stack commands to the ``axonal`` app."""
    app.command(rich_help_panel=_PANEL)(up)
    app.command(rich_help_panel=_PANEL)(down)
    app.command(rich_help_panel=_PANEL)(status)


def _settings(home: Path | None) -> StackSettings:
    from pydantic import ValidationError  # noqa: PLC0415

    from axonal.cli.output import fail  # noqa: PLC0415
    from axonal_stack.settings import StackSettings  # noqa: PLC0415

    try:
        return StackSettings(home=home) if home else StackSettings()
    except ValidationError as exc:
        fail(f"invalid stack settings:\n{exc}", hint="check the AXONAL_* environment variables")


def _fail(exc: StackError) -> None:
    from rich.markup import escape  # noqa: PLC0415

    from axonal.cli.output import fail  # noqa: PLC0415

    fail(str(exc), hint=escape(exc.hint) if exc.hint else None)


def _status(state: StackState, *, running: bool) -> StackStatus:
    import asyncio  # noqa: PLC0415

    from axonal_stack.health import stack_status  # noqa: PLC0415

    return asyncio.run(stack_status(state, running=running))


def up(
    detach: Annotated[
        bool, typer.Option("--detach", "-d", help="Run in the background and return when healthy.")
    ] = False,
    cluster: Annotated[
        bool,
        typer.Option(
            "--cluster",
            help="Run the platform as a cluster on this machine: 3 NATS nodes (one JetStream "
            "cluster, streams with 3 replicas) and 2 replicas of every service "
            "(also AXONAL_CLUSTER=true).",
        ),
    ] = False,
    home: HomeOption = None,
) -> None:
    """Start NATS, PostgreSQL and every installed service.

    Stop them with Ctrl-C, or with `axonal down` when started with --detach.
    """
    from rich.markup import escape  # noqa: PLC0415

    from axonal.cli.output import console  # noqa: PLC0415
    from axonal_stack import control  # noqa: PLC0415
    from axonal_stack.control import StackError  # noqa: PLC0415
    from axonal_stack.summary import stack_summary  # noqa: PLC0415

    settings = _settings(home)
    if cluster:
        settings = settings.model_copy(update={"cluster": True})
    try:
        control.ensure_not_running(settings)
        _announce_admin(settings)
        if not detach:
            raise typer.Exit(_foreground(settings))
        with console.status("starting the stack...") as spinner:

            def progress(state: StackState | None) -> None:
                if state is not None and state.detail:
                    spinner.update(f"{escape(state.detail)}...")

            state = control.start_detached(settings, on_progress=progress)
    except StackError as exc:
        _fail(exc)
    console.print(stack_summary(_status(state, running=True)))
    console.print(f"Stop it with [cyan]axonal down[/]; supervisor log: {settings.paths.stack_log}")


def _announce_admin(settings: StackSettings) -> None:
    """Make the home's administrator, and show its credentials the one time they are made."""
    from axonal.cli.output import console  # noqa: PLC0415
    from axonal_stack.admin import admin_credentials  # noqa: PLC0415

    admin, made = admin_credentials(settings.home)
    if made:
        console.print(
            f"Administrator [bold]{admin.username}[/], password [bold]{admin.password}[/] "
            f"(shown once; kept in {settings.home / 'admin.json'}, which this machine's "
            "CLI and SDK use for this stack)."
        )


def _foreground(settings: StackSettings) -> int:
    """Run the supervisor in this process until Ctrl-C; return its exit code."""
    import asyncio  # noqa: PLC0415
    import logging  # noqa: PLC0415

    from rich.logging import RichHandler  # noqa: PLC0415
    from rich.markup import escape  # noqa: PLC0415

    from axonal.cli.output import console, err_console, fail  # noqa: PLC0415
    from axonal_stack.health import stack_status  # noqa: PLC0415
    from axonal_stack.lock import StackRunningError  # noqa: PLC0415
    from axonal_stack.summary import stack_summary  # noqa: PLC0415
    from axonal_stack.supervisor import Supervisor  # noqa: PLC0415

    handler = RichHandler(console=err_console, show_path=False, markup=False)
    logging.basicConfig(level=logging.INFO, format="%(message)s", handlers=[handler], force=True)

    async def run() -> int:
        with console.status("starting the stack...") as spinner:
            supervisor = Supervisor(
                settings, on_state=lambda s: spinner.update(f"{escape(s.detail)}...")
            )
            task = asyncio.create_task(supervisor.run())
            ready = asyncio.create_task(supervisor.ready.wait())
            await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if supervisor.ready.is_set() and not task.done():
            summary = await stack_status(supervisor.state, running=True)
            console.print(stack_summary(summary))
            console.print("Press [bold]Ctrl-C[/] to stop (data is kept).")
        return await task

    try:
        return asyncio.run(run())
    except StackRunningError as exc:
        fail(str(exc), hint="`axonal status` shows it, `axonal down` stops it")


def down(
    home: HomeOption = None,
    timeout: Annotated[
        float, typer.Option(help="Seconds to wait for a clean stop before killing.")
    ] = 30.0,
) -> None:
    """Stop the stack (services, PostgreSQL, NATS).

    Its data stays in the home folder, for the next `axonal up`.
    """
    from rich.table import Table  # noqa: PLC0415

    from axonal.cli.output import console  # noqa: PLC0415
    from axonal_stack.control import stop_stack  # noqa: PLC0415

    settings = _settings(home)
    with console.status("stopping the stack..."):
        report = stop_stack(settings, timeout=timeout)
    if not report.anything:
        console.print(f"Nothing is running for {settings.home}.")
        return
    table = Table("stopped", "pid", box=None, pad_edge=False)
    for role, pid in report.stopped:
        table.add_row(role, str(pid))
    console.print(table)
    console.print(f"[green]Stack stopped.[/] Data is kept in {settings.home}.")


def status(
    home: HomeOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON document.")] = False,
) -> None:
    """Ping every service of the stack and show its health."""
    from rich.markup import escape  # noqa: PLC0415

    from axonal.cli.output import console, fail  # noqa: PLC0415
    from axonal_stack.control import current_state  # noqa: PLC0415

    settings = _settings(home)
    state, running = current_state(settings)
    report = _status(state, running=running)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
    else:
        from axonal_stack.summary import stack_summary  # noqa: PLC0415 - tables only here

        console.print(stack_summary(report))
    if not running:
        fail(f"the stack for {settings.home} is not running", hint=_NOT_RUNNING_HINT)
    if not report.healthy:
        fail(
            f"down: {', '.join(report.down)}" if report.down else "some services are not healthy",
            hint=f"the service logs are in {escape(str(settings.paths.logs))}",
        )
