"""The root of the ``axonal`` command line: each group is named here and imported when used.

``axonal --help`` lists the groups from :data:`COMMANDS` (their one-line help is written here,
and a test keeps it equal to the group's own) and ``axonal alerts ...`` imports only
:mod:`axonal.cli.alerts`; plugins are loaded for ``--help`` and for a name no group has. The
root's own help is click's plain text: Typer's Rich help imports ``rich.markdown`` and more
(about 150 ms), the groups' help stays Rich.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from axonal.cli import plugins

__all__ = ["COMMANDS", "AxonalGroup", "Lazy", "app"]

RUNS = "Runs"
EVENTS = "Alerts, automations and events"
LLM = "LLM observability"
ACCESS = "Access"


@dataclass(frozen=True)
class Lazy:
    """A command of the root: the module whose ``app`` (or ``attr``) it is, its one-line
    help, its panel."""

    module: str
    help: str
    panel: str
    attr: str = "app"


COMMANDS: dict[str, Lazy] = {
    "login": Lazy(
        "axonal.cli.signin", "Sign in to an api and keep a token for it.", ACCESS, "login"
    ),
    "logout": Lazy("axonal.cli.signin", "Forget the token kept for an api.", ACCESS, "logout"),
    "whoami": Lazy("axonal.cli.signin", "Who your credentials act for.", ACCESS, "whoami"),
    "users": Lazy("axonal.cli.users", "Users, service accounts and their tokens.", ACCESS),
    "members": Lazy("axonal.cli.members", "Roles in organizations and projects.", ACCESS),
    "teams": Lazy(
        "axonal.cli.teams", "Teams: principals of an organization granted roles together.", ACCESS
    ),
    "audit": Lazy("axonal.cli.audit", "The audit trail: who did what, when, from where.", ACCESS),
    "run": Lazy("axonal.cli.run", "Submit a run and print its uuid.", RUNS),
    "check": Lazy("axonal.cli.check", "Validate polyaxonfiles and compile them.", RUNS),
    "ops": Lazy("axonal.cli.ops", "List, inspect, follow and act on runs.", RUNS),
    "project": Lazy(
        "axonal.cli.projects", "Create, list and delete projects; their retention and quotas.", RUNS
    ),
    "registry": Lazy(
        "axonal.cli.registry", "The model registry: models, versions, aliases, approvals.", RUNS
    ),
    "hub": Lazy(
        "axonal.cli.hub", "The component hub: versioned components that hubRef names.", RUNS
    ),
    "alerts": Lazy("axonal.cli.alerts", "Metric alert rules: one event per crossing.", EVENTS),
    "automations": Lazy(
        "axonal.cli.automations", "Automation rules: start or restart runs on events.", EVENTS
    ),
    "schedules": Lazy(
        "axonal.cli.schedules", "Schedules: runs created on a cron, an interval or a date.", RUNS
    ),
    "connections": Lazy(
        "axonal.cli.connections", "Connections that hooks and alert routes deliver to.", EVENTS
    ),
    "webhooks": Lazy(
        "axonal.cli.webhooks", "Webhook subscriptions: events POSTed as signed CloudEvents.", EVENTS
    ),
    "events": Lazy(
        "axonal.cli.events", "Integration events: CloudEvents into the platform.", EVENTS
    ),
    "traces": Lazy("axonal.cli.traces", "LLM traces and their observations.", LLM),
    "llm-models": Lazy(
        "axonal.cli.llm_models", "Model definitions that price LLM generations.", LLM
    ),
    "prompts": Lazy(
        "axonal.cli.prompts", "Prompts: versions of text and chat templates, with labels.", LLM
    ),
    "keys": Lazy("axonal.cli.keys", "Project API keys (Langfuse SDK, OTLP exporters).", LLM),
    "datasets": Lazy(
        "axonal.cli.datasets",
        "Datasets: versioned items for experiments, and their runs.",
        LLM,
    ),
    "experiments": Lazy(
        "axonal.cli.experiments", "Experiments (dataset runs): compare runs item by item.", LLM
    ),
    "queues": Lazy("axonal.cli.queues", "Annotation queues: review and score traces.", LLM),
    "evals": Lazy(
        "axonal.cli.evals", "Evaluators (LLM judge or code): templates, rules, jobs.", LLM
    ),
}


class _QuietHelp:
    """Typer coerces an unset ``--help`` flag (``None``) through pydantic, which costs about
    200 ms: a ``False`` default skips that for ``axonal version``."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None and option.default is None:
            option.default = False
        return option


class QuickCommand(_QuietHelp, TyperCommand):
    """A root command that starts without pydantic."""


class AxonalGroup(_QuietHelp, TyperGroup):
    """The root group: :data:`COMMANDS` by name, imported on use, then the plugins' commands."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._loaded: dict[str, Any] = {}
        self._plugins: dict[str, Any] | None = None

    def plugin_commands(self) -> dict[str, Any]:
        """The commands the plugins add (and the stack's, saying how to install it)."""
        if self._plugins is None:
            target = typer.Typer(add_completion=False)
            plugins.load_plugins(target, plugins.entry_points(plugins.PLUGIN_GROUP))
            group = typer.main.get_command(target)
            found = getattr(group, "commands", None)
            self._plugins = dict(found) if found is not None else {str(group.name): group}
        return self._plugins

    def list_commands(self, ctx: Any) -> list[str]:
        names = [*super().list_commands(ctx), *COMMANDS]
        return names + [name for name in self.plugin_commands() if name not in names]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        if cmd_name in self._loaded:
            return self._loaded[cmd_name]
        lazy = COMMANDS.get(cmd_name)
        if lazy is None:
            return self.plugin_commands().get(cmd_name)
        module = importlib.import_module(lazy.module)
        command = typer.main.get_command(getattr(module, lazy.attr))
        command.name = cmd_name
        self._loaded[cmd_name] = command
        return command

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            typer.echo(ctx.get_help())  # Typer's Rich errors print no plain help
            ctx.exit(2)
        rest: list[str] = super().parse_args(ctx, args)
        return rest

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            matches = get_close_matches(args[0], self.list_commands(ctx))
            also = f" Did you mean {', '.join(map(repr, matches))}?" if matches else ""
            ctx.fail(f"No such command {args[0]!r}.{also}")
        return super().resolve_command(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super(TyperGroup, self).format_help(ctx, formatter)  # click's plain text, not Rich

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands by panel, with the help written in :data:`COMMANDS` (nothing imported
        but the plugins); the commands of no panel last."""
        rows: list[tuple[str, str, str | None]] = []
        for name in self.list_commands(ctx):
            lazy = COMMANDS.get(name)
            if lazy is not None:
                rows.append((lazy.panel, name, lazy.help))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((getattr(command, "rich_help_panel", None) or "", name, None))
        limit = formatter.width - 6 - max(len(name) for _, name, _ in rows)
        panels: dict[str, list[tuple[str, str]]] = {}
        for panel, name, text in sorted(rows, key=lambda row: not row[0]):
            help_text = text or self.get_command(ctx, name).get_short_help_str(limit)
            panels.setdefault(panel or "Other commands", []).append((name, help_text))
        for panel, found in panels.items():
            with formatter.section(panel):
                formatter.write_dl(found)


app = typer.Typer(
    name="axonal",
    cls=AxonalGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


@app.callback()
def axonal() -> None:
    """Axonal: ML orchestration and tracking, LLM observability and evaluation."""


@app.command(cls=QuickCommand)
def version() -> None:
    """Show the version of Axonal and of its installed plugins."""
    typer.echo(f"axonal {plugins.version_of('axonal')}")
    for ep in plugins.entry_points(plugins.PLUGIN_GROUP):
        typer.echo(f"  plugin {ep.name}: {ep.dist.name} {ep.dist.version}")


def run(args: Sequence[str] | None = None) -> None:
    """Run the command line (``args``: ``sys.argv[1:]`` when not given)."""
    app(args, prog_name="axonal")
