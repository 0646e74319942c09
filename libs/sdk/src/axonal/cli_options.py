"""Typer options shared by commands that take polyaxonfiles (``check``, ``run``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["FilesOpt", "ParamsOpt", "PresetsOpt"]

FilesOpt = Annotated[
    list[Path], typer.Option("-f", "--file", help="Polyaxonfile; repeat to merge in order.")
]
ParamsOpt = Annotated[
    list[str] | None, typer.Option("-P", "--param", help="Input value, NAME=VALUE; repeatable.")
]
PresetsOpt = Annotated[
    list[Path] | None, typer.Option("--preset", help="Preset file applied after the files.")
]
