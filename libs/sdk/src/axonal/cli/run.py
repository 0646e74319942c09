"""``axonal run``: submit polyaxonfiles to the api, optionally watch the run until done."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from axonal.cli.api import api, guarded, run_path
from axonal.cli.inline import InlineError, inline_path_refs
from axonal.cli.options import ApiUrl, AsJson, FilesOpt, ParamsOpt, PresetsOpt, ProjectOpt
from axonal.cli.output import console, err_console, fail, print_json

__all__ = ["app", "run"]


def _read(paths: list[Path], what: str) -> list[str]:
    """The files' texts, each ``pathRef`` in them inlined (the api cannot read this disk)."""
    texts = []
    for path in paths:
        try:
            texts.append(inline_path_refs(path.read_text(encoding="utf-8"), path))
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read {what} {path}: {exc}", hint="check the path given with -f/--preset")
        except InlineError as exc:
            fail(f"{path}: {exc}", hint="pathRef is relative to the file that names it")
    return texts


def run(
    files: FilesOpt,
    params: ParamsOpt = None,
    presets: PresetsOpt = None,
    project: ProjectOpt = None,
    queue: Annotated[str | None, typer.Option("-q", "--queue", help="Queue to run on.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name of the run.")] = None,
    watch: Annotated[
        bool, typer.Option("--watch", "-w", help="Show the status live until the run is done.")
    ] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Submit a run and print its uuid.

    On stderr: the fields of the file that the local agent ignores.

    With --watch, show its status live until it is done, and exit 1 unless it succeeds.
    """
    from axonal_events.runs import RunCreated  # noqa: PLC0415 - keep `axonal --help` fast
    from axonal_spec import SpecError  # noqa: PLC0415
    from axonal_spec.types import parse_cli_params  # noqa: PLC0415

    try:
        values = parse_cli_params(params or [])
    except SpecError as exc:
        fail(str(exc), hint="pass params as -P name=value")
    texts = _read(files, "the polyaxonfile")
    preset_texts = _read(presets or [], "the preset")
    path = guarded(lambda: run_path(project))
    body = {"files": texts, "presets": preset_texts, "params": values, "queue": queue, "name": name}
    with api(api_url) as client:
        created = client.post(path, RunCreated, json=body)
        run_uuid = created.uuid
        if created.warnings and not as_json:
            from axonal.cli.views.warnings import render_warnings  # noqa: PLC0415

            err_console.print(render_warnings(created.warnings))
        if not watch:
            print_json(created) if as_json else console.print(run_uuid, highlight=False)
            return
        if not as_json:
            console.print(run_uuid, highlight=False)
        from axonal.cli.views.runs import watch_run  # noqa: PLC0415

        final = watch_run(client, path, run_uuid, live=not as_json)
    if as_json:
        print_json(final)
    if final.status not in {"succeeded", "skipped"}:
        raise typer.Exit(1)


app = typer.Typer(add_completion=False)
app.command("run")(run)
