"""Typer options the commands share, so that every group spells them the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["ApiUrl", "AsJson", "FilesOpt", "ParamsOpt", "PresetsOpt", "ProjectOpt"]

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
