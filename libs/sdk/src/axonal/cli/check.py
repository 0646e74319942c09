"""``axonal check``: validate (and compile) polyaxonfiles, with readable errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from axonal.cli.options import ApiUrl, FilesOpt, ParamsOpt, PresetsOpt
from axonal.cli.output import console, err_console

if TYPE_CHECKING:
    from axonal_spec import SpecError
    from axonal_spec.checking import CheckResult

__all__ = ["app", "check"]


def _url_map(items: list[str]) -> dict[str, Path]:
    mapping = {}
    for item in items:
        url, sep, path = item.rpartition("=")
        if not sep or not url:
            raise typer.BadParameter(f"{item!r}: expected URL=PATH", param_hint="--url-map")
        mapping[url] = Path(path)
    return mapping


def _show_errors(error: SpecError, as_json: bool) -> None:
    from rich.markup import escape  # noqa: PLC0415 - only when there is something to show
    from rich.table import Table  # noqa: PLC0415

    if as_json:
        problems = [
            {"location": p.location, "message": p.message, "hint": p.hint} for p in error.problems
        ]
        console.print_json(
            json.dumps({"valid": False, "source": error.source, "problems": problems})
        )
        return
    count = len(error.problems)
    title = f"{error.source or 'polyaxonfile'}: {count} problem{'s' if count > 1 else ''}"
    # A heading line, not the table's title: a title wraps to the table's width, which would
    # split a long file path.
    err_console.print(f"[bold red]{escape(title)}[/]", soft_wrap=True)
    table = Table(show_lines=False, expand=False)
    table.add_column("where", style="cyan", no_wrap=True)
    table.add_column("problem")
    hints = any(problem.hint for problem in error.problems)
    if hints:
        table.add_column("hint", style="dim")
    for problem in error.problems:  # escaped: file contents may look like Rich markup
        row = [escape(problem.location or "(file)"), escape(problem.message)]
        table.add_row(*row, escape(problem.hint or "")) if hints else table.add_row(*row)
    err_console.print(table)


def _show_result(result: CheckResult, *, full: bool, as_json: bool) -> None:
    from axonal.cli.views.check import render_summary  # noqa: PLC0415

    compiled = result.compiled
    if as_json:
        doc: dict[str, Any] = {"valid": True, "preset": compiled is None}
        doc["warnings"] = [
            {"location": w.location, "agent": w.agent, "message": w.message}
            for w in result.warnings
        ]
        if compiled is not None:
            doc["compiled"] = compiled.model_dump(mode="json", exclude_none=True)
        console.print_json(json.dumps(doc))
        return
    console.print(render_summary(result))
    if result.warnings:
        from axonal.cli.views.warnings import render_warnings  # noqa: PLC0415

        err_console.print(render_warnings([w.message for w in result.warnings]))
    if full and compiled is not None:
        import yaml  # noqa: PLC0415
        from rich.syntax import Syntax  # noqa: PLC0415

        text = yaml.safe_dump(compiled.model_dump(mode="json", exclude_none=True), sort_keys=False)
        console.print(Syntax(text, "yaml", word_wrap=True))


def check(
    files: FilesOpt,
    params: ParamsOpt = None,
    presets: PresetsOpt = None,
    url_map: Annotated[
        list[str] | None,
        typer.Option("--url-map", help="Serve a urlRef (or URL prefix ending in /) from PATH."),
    ] = None,
    full: Annotated[
        bool, typer.Option("--compile", help="Also print the compiled operation.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
    api_url: ApiUrl = None,
) -> None:
    """Validate polyaxonfiles and compile them.

    Shows what the file takes and does: inputs, params, DAG shape, matrix size, and warns of
    every field the local agent would ignore (environment.nodeSelector...). A hubRef resolves
    from the platform's hub when it is reachable, else from the built-in components.
    """
    from axonal.cli.hub_refs import PlatformHub  # noqa: PLC0415 - keep `axonal --help` fast
    from axonal.cli.urls import CliUrlResolver  # noqa: PLC0415
    from axonal_spec import SpecError  # noqa: PLC0415
    from axonal_spec.checking import check as run_check  # noqa: PLC0415
    from axonal_spec.compiler import CompileOptions  # noqa: PLC0415
    from axonal_spec.resolve import Resolvers  # noqa: PLC0415
    from axonal_spec.types import parse_cli_params  # noqa: PLC0415

    hub = PlatformHub(api_url)
    try:
        values = parse_cli_params(params or [])
        urls = CliUrlResolver(_url_map(url_map or []))
        options = CompileOptions(resolvers=Resolvers(hub=hub, urls=urls))
        result = run_check(files, params=values, presets=presets or [], options=options)
    except SpecError as error:
        _show_errors(error, as_json)
        raise typer.Exit(1) from None
    finally:
        hub.close()
    _show_result(result, full=full, as_json=as_json)


app = typer.Typer(add_completion=False)
app.command("check")(check)
