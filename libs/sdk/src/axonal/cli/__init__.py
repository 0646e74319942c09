"""The ``axonal`` command line: :func:`main` runs it; each group is imported when it is used.

The SDK runtime (``axonal.tracking``, ``axonal.tracing``) never imports this package. Other
packages add commands through the ``axonal.cli`` entry points (see :mod:`axonal.cli.plugins`).
``console``, ``err_console`` and ``fail`` (:mod:`axonal.cli.output`) and the root ``app``
(:mod:`axonal.cli.root`) are loaded on first use, so importing this package costs nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    from axonal.cli.output import console, err_console, fail
    from axonal.cli.plugins import PLUGIN_GROUP, EntryPoint
    from axonal.cli.root import app

__all__ = [
    "PLUGIN_GROUP",
    "app",
    "console",
    "entry_points",
    "err_console",
    "fail",
    "load_plugins",
    "main",
]

_LAZY = {
    "PLUGIN_GROUP": "axonal.cli.plugins",
    "app": "axonal.cli.root",
    "console": "axonal.cli.output",
    "err_console": "axonal.cli.output",
    "fail": "axonal.cli.output",
}


def main() -> None:
    """Console-script entry point."""
    from axonal.cli.root import run  # noqa: PLC0415

    run()


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` (read without :mod:`importlib.metadata`)."""
    from axonal.cli import plugins  # noqa: PLC0415

    return plugins.entry_points(group)


def load_plugins(target: typer.Typer) -> list[str]:
    """Register every plugin's commands on ``target`` now; the names of the plugins loaded."""
    from axonal.cli import plugins  # noqa: PLC0415

    return plugins.load_plugins(target, entry_points(group=plugins.PLUGIN_GROUP))


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
