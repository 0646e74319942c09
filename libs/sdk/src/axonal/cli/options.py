"""Typer options the commands share, so that every group spells them the same way.

Every group uses the same verbs: ``ls``, ``get``, ``create``, ``update``, ``rm``; :func:`alias`
keeps a verb that shipped before (``delete``, ``revoke``) working, hidden.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

__all__ = ["ApiUrl", "AsJson", "FilesOpt", "ParamsOpt", "PresetsOpt", "ProjectOpt", "alias"]

ApiUrl = Annotated[
    str | None,
    typer.Option(
        "--api-url", envvar="AXONAL_API_URL", help="The api (default: the local stack's)."
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
ProjectOpt = Annotated[
    str | None,
    typer.Option(
        "-p", "--project", envvar="AXONAL_PROJECT", help="owner/project (default default/default)."
    ),
]
#: Polyaxonfiles (``check``, ``run``).
FilesOpt = Annotated[
    list[Path], typer.Option("-f", "--file", help="Polyaxonfile; repeat to merge in order.")
]
ParamsOpt = Annotated[
    list[str] | None, typer.Option("-P", "--param", help="Input value, NAME=VALUE; repeatable.")
]
PresetsOpt = Annotated[
    list[Path] | None, typer.Option("--preset", help="Preset file applied after the files.")
]


def alias(app: typer.Typer, old: str, verb: str, command: Callable[..., Any]) -> None:
    """Keep ``old``, a verb that shipped, working as ``verb`` (``command``): hidden from the
    help, with a note on stderr, so that scripts written for it keep working."""

    @functools.wraps(command)
    def aliased(*args: Any, **kwargs: Any) -> Any:
        from axonal.cli.output import err_console  # noqa: PLC0415

        group = f"axonal {app.info.name} " if isinstance(app.info.name, str) else ""
        err_console.print(f"[dim]Note: `{group}{old}` is now `{group}{verb}`.[/]")
        return command(*args, **kwargs)

    app.command(old, hidden=True, help=f"Old name of {verb}.")(aliased)
