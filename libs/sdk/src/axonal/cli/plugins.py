"""Commands other packages add: the ``axonal.cli`` entry points, found without importing them.

An entry point names a ``register(app: typer.Typer)`` function that adds the package's commands
(``axonal-stack`` adds ``up``, ``down`` and ``status``); its module should import only typer at
the top, so that listing the commands (``axonal --help``) stays fast. A plugin that fails to
load is reported and the other commands still work; the stack's commands, when no plugin
provides them, explain how to install it.

Entry points are read from the ``*.dist-info`` folders on ``sys.path`` directly:
:mod:`importlib.metadata` costs more to import (about 50 ms) than the rest of ``axonal
version``. The first distribution of a name on the path wins, as in :mod:`importlib.metadata`.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

__all__ = [
    "PLUGIN_GROUP",
    "STACK_COMMANDS",
    "Distribution",
    "EntryPoint",
    "distributions",
    "entry_points",
    "load_plugins",
    "version_of",
]

PLUGIN_GROUP = "axonal.cli"
#: Commands the embedded stack provides, and their help when it is not installed.
STACK_COMMANDS = {
    "up": "Start the local Axonal stack.",
    "down": "Stop the local Axonal stack.",
    "status": "Show the health of the local Axonal stack.",
}
_INSTALL_HINT = "install it: [cyan]pip install axonal-stack[/] (or [cyan]uv add axonal-stack[/])"


@dataclass(frozen=True)
class Distribution:
    """An installed distribution: its normalized name (``axonal-stack``), version and
    metadata folder."""

    name: str
    version: str
    path: Path


@dataclass(frozen=True)
class EntryPoint:
    """``name = module:attr`` in ``group`` of the distribution ``dist``."""

    name: str
    value: str
    group: str
    dist: Distribution

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    def load(self) -> Any:
        """Import the module and return the object the entry point names."""
        module, _, attrs = self.value.partition(":")
        found: Any = importlib.import_module(module.strip())
        for attr in filter(None, attrs.split("[")[0].strip().split(".")):
            found = getattr(found, attr)
        return found


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions() -> Iterator[Distribution]:
    """Every distribution on ``sys.path`` with a ``.dist-info`` folder, the first of a name."""
    seen: set[str] = set()
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as found:
                names = sorted(item.name for item in found)
        except OSError:  # not a folder (a zip file), or gone
            continue
        for name in names:
            if not name.endswith(".dist-info"):
                continue
            dist_name, _, version = name.removesuffix(".dist-info").partition("-")
            key = _normalize(dist_name)
            if key in seen:
                continue
            seen.add(key)
            yield Distribution(key, version, Path(entry or ".", name))


def _parse(text: str) -> Iterator[tuple[str, str, str]]:
    """(group, name, value) of an ``entry_points.txt``."""
    group = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip()
            continue
        name, sep, value = line.partition("=")
        if sep and group:
            yield group, name.strip(), value.strip()


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` of every distribution, in ``sys.path`` order."""
    found = []
    for dist in distributions():
        try:
            text = (dist.path / "entry_points.txt").read_text(encoding="utf-8")
        except OSError:
            continue
        found += [EntryPoint(n, v, g, dist) for g, n, v in _parse(text) if g == group]
    return found


def version_of(name: str) -> str:
    """The installed version of the distribution ``name``, else ``unknown``."""
    key = _normalize(name)
    return next((d.version for d in distributions() if d.name == key), "unknown")


def _warn(ep: EntryPoint, exc: BaseException) -> None:
    from rich.markup import escape  # noqa: PLC0415 - only when a plugin is broken

    from axonal.cli.output import err_console  # noqa: PLC0415

    err_console.print(
        f"[yellow]Warning:[/] the {escape(ep.name)} plugin ({escape(ep.value)}) "
        f"failed to load: {escape(str(exc))}"
    )


def _names(target: typer.Typer) -> set[str]:
    names = set()
    for info in target.registered_commands:
        if info.name:
            names.add(info.name)
        elif info.callback is not None:
            names.add(info.callback.__name__.replace("_", "-"))
    return names


def _not_installed(target: typer.Typer, name: str, help_text: str) -> None:
    def command() -> None:  # its options and arguments, whatever they are, are left alone
        from axonal.cli.output import fail  # noqa: PLC0415

        fail(f"`axonal {name}` needs the embedded stack, which is not installed", _INSTALL_HINT)

    command.__name__ = name
    target.command(
        name,
        help=f"{help_text.rstrip('.')} (needs axonal-stack).",
        rich_help_panel="Local stack",
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    )(command)


def load_plugins(target: typer.Typer, found: Iterable[EntryPoint]) -> list[str]:
    """Call ``register(target)`` of every entry point in ``found``; the names of those loaded.

    Commands of the embedded stack that no plugin provides explain how to install it.
    """
    loaded = []
    for ep in found:
        try:
            ep.load()(target)
        except Exception as exc:  # noqa: BLE001 - one broken plugin must not break the CLI
            _warn(ep, exc)
            continue
        loaded.append(ep.name)
    present = _names(target)
    for name, help_text in STACK_COMMANDS.items():
        if name not in present:
            _not_installed(target, name, help_text)
    return loaded
