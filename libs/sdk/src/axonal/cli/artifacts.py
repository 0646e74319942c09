"""``axonal ops artifacts RUN``: a run's artifacts, their versions and lineage, and downloads
(the latest version, or a given one)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, run_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, fail, print_json

if TYPE_CHECKING:
    from rich.table import Table

    from axonal.cli.api import Api
    from axonal_events.artifacts import ArtifactRecord, Lineage

__all__ = ["artifacts"]


def artifacts(
    run_uuid: Annotated[str, typer.Argument(help="The run's uuid.")],
    download: Annotated[
        str | None,
        typer.Option("--download", "-d", help="Download this artifact (its name or path)."),
    ] = None,
    version: Annotated[
        str | None,
        typer.Option("--version", help="Download this version (its sha256, or a prefix of it)."),
    ] = None,
    history: Annotated[
        str | None, typer.Option("--versions", help="List the versions of this artifact.")
    ] = None,
    to: Annotated[Path, typer.Option("--to", help="Folder to download into.")] = Path(),
    lineage: Annotated[
        bool, typer.Option("--lineage", help="Inputs, outputs and the runs sharing them.")
    ] = False,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List a run's artifacts (name, kind, size, step, sha256) or one's versions; download one
    (the latest or a given version); show lineage."""
    from axonal_events.artifacts import ArtifactList, Lineage  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid))
    with api(api_url) as client:
        if lineage:
            found = client.get(f"{path}/lineage", Lineage)
            print_json(found) if as_json else console.print(_lineage_table(found))
            return
        if history is not None:
            query = {"name": history}
            kept = client.get(f"{path}/artifact-versions", ArtifactList, params=query)
            print_json(kept) if as_json else console.print(_table(kept.artifacts))
            return
        records = client.get(f"{path}/artifacts", ArtifactList).artifacts
        if download is None:
            print_json(records) if as_json else console.print(_table(records))
            return
        record = _pick(records, download)
        url = f"{path}/artifacts/{_relative(record)}"
        if version is not None:
            query = {"name": record.name}
            older = client.get(f"{path}/artifact-versions", ArtifactList, params=query)
            record = _pick_version(older.artifacts, record, version)
            url += f"?version={record.sha256}"
        dest = to / _relative(record).rpartition("/")[2]
        _fetch(client, url, dest, record, quiet=as_json)
    if as_json:
        print_json({"path": str(dest), "size": record.size, "sha256": record.sha256})
    else:
        console.print(f"downloaded [bold]{escape(record.name)}[/] to {escape(str(dest))}")


def _relative(record: ArtifactRecord) -> str:
    """The artifact's path inside its run (the store key without ``owner/project/run/``)."""
    return record.path.split("/", 3)[-1]


def _pick(records: list[ArtifactRecord], wanted: str) -> ArtifactRecord:
    """The artifact named or stored as ``wanted``; of several steps, the last one."""
    matches = [r for r in records if wanted in (r.name, _relative(r))]
    if not matches:
        known = ", ".join(sorted({r.name for r in records})[:10]) or "none"
        fail(f"the run has no artifact {wanted!r}", hint=f"its artifacts: {known}")
    return max(matches, key=lambda r: -1 if r.step is None else r.step)


def _pick_version(
    records: list[ArtifactRecord], latest: ArtifactRecord, wanted: str
) -> ArtifactRecord:
    """The version of ``latest``'s artifact whose sha256 starts with ``wanted``."""
    matches = [
        r for r in records if r.path == latest.path and r.step == latest.step
        and r.sha256.startswith(wanted.lower())
    ]  # fmt: skip
    if len(matches) != 1:
        known = ", ".join(r.sha256[:12] for r in records) or "none"
        problem = "no" if not matches else "more than one"
        fail(f"{latest.name!r} has {problem} version {wanted!r}", hint=f"its versions: {known}")
    return matches[0]


def _fetch(client: Api, url: str, dest: Path, record: ArtifactRecord, *, quiet: bool) -> None:
    """Stream ``url`` into ``dest`` with a progress bar; refuse bytes whose sha256 differs."""
    from rich.progress import (  # noqa: PLC0415 - only downloads need it
        BarColumn,
        DownloadColumn,
        Progress,
        TransferSpeedColumn,
    )

    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(f".{dest.name}.part")
    digest = hashlib.sha256()
    columns = (BarColumn(), DownloadColumn(), TransferSpeedColumn())
    with (
        client.download(url) as chunks,
        Progress(*columns, console=console, disable=quiet, transient=True) as progress,
    ):
        task = progress.add_task(record.name, total=record.size)
        with partial.open("wb") as out:
            for chunk in chunks:
                out.write(chunk)
                digest.update(chunk)
                progress.advance(task, len(chunk))
    if digest.hexdigest() != record.sha256:
        partial.unlink(missing_ok=True)
        fail(f"the download of {record.name!r} is corrupt (sha256 differs)", "try again")
    partial.replace(dest)


def _size(size: int) -> str:
    units = ("B", "KiB", "MiB", "GiB", "TiB")
    value, unit = float(size), 0
    while value >= 1024 and unit < len(units) - 1:
        value, unit = value / 1024, unit + 1
    return f"{size} B" if unit == 0 else f"{value:.1f} {units[unit]}"


def _table(records: list[ArtifactRecord]) -> Table | str:
    from rich.table import Table  # noqa: PLC0415

    if not records:
        return "no artifacts logged yet"
    table = Table("name", "kind", "size", "step", "sha256", "in/out")
    for r in records:
        table.add_row(
            escape(r.name), r.kind.value, _size(r.size),
            "" if r.step is None else str(r.step), r.sha256[:12],
            "input" if r.is_input else "output",
        )  # fmt: skip
    return table


def _lineage_table(found: Lineage) -> Table | str:
    from rich.table import Table  # noqa: PLC0415

    links = [("input", link) for link in found.inputs]
    links += [("output", link) for link in found.outputs]
    if not links:
        return "no artifacts logged yet"
    table = Table("in/out", "name", "sha256", "produced by", "consumed by")
    for direction, link in links:
        record = link.artifact
        table.add_row(
            direction, escape(record.name), record.sha256[:12],
            "\n".join(link.produced_by) or "-", "\n".join(link.consumed_by) or "-",
        )  # fmt: skip
    return table
