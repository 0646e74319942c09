"""An offline run: what it records in its folder, as JSON lines, and what a push reads back.

``run.jsonl`` holds one record per line: ``create`` (uuid, project, name, description, tags,
inputs), ``update`` (inputs, outputs, tags, progress) and ``end`` (status, message);
``metrics.jsonl`` holds the metric batches as ``{"msg_id": ..., "batch": {...}}``, the msg id
becoming the push's ``Idempotency-Key`` so a point is stored once however often it is pushed.
A line cut short (the process died while writing it) is skipped when read back.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["OfflineRun", "OfflineSender", "Recorder", "read_folder", "replay"]

RUN_FILE = "run.jsonl"
METRICS_FILE = "metrics.jsonl"


def _append(path: Path, line: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


class Recorder:
    """Appends the records of one offline run to its folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def record(self, kind: str, **values: Any) -> None:
        """Append one record; raises ``TypeError`` for values JSON cannot hold."""
        item = {"kind": kind, "at": datetime.now(UTC).isoformat(), **values}
        _append(self.folder / RUN_FILE, json.dumps(item).encode() + b"\n")

    def recorded_uuid(self) -> str | None:
        """The uuid of the run this folder holds already (a resumed offline run)."""
        path = self.folder / RUN_FILE
        if not path.exists():
            return None
        return replay(path.read_bytes().splitlines()).uuid or None


class OfflineSender:
    """A metrics sender appending each batch to ``metrics.jsonl`` (it never fails to reach)."""

    def __init__(self, folder: Path) -> None:
        self._path = folder / METRICS_FILE

    def send(self, msg_id: str, body: bytes) -> None:
        _append(
            self._path, b'{"msg_id":' + json.dumps(msg_id).encode() + b',"batch":' + body + b"}\n"
        )

    def close(self) -> None:
        """Nothing is held open."""


@dataclass
class OfflineRun:
    """Everything an offline folder recorded, merged in order."""

    uuid: str = ""
    project: str | None = None
    name: str | None = None
    description: str | None = None
    tags: list[str] = field(default_factory=list)
    inputs: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    progress: float | None = None
    status: str | None = None  # the final status; None: the run never ended
    message: str | None = None
    batches: list[tuple[str, bytes, int]] = field(default_factory=list)  # msg id, body, points

    @property
    def points(self) -> int:
        return sum(count for _, _, count in self.batches)


def _records(lines: list[bytes]) -> list[dict[str, Any]]:
    found = []
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue  # cut short when a process died
        if isinstance(item, dict):
            found.append(item)
    return found


def replay(lines: list[bytes]) -> OfflineRun:
    """Merge the records of ``run.jsonl``: later updates win, tags are added once each."""
    run = OfflineRun()
    for item in _records(lines):
        kind = item.get("kind")
        if kind == "create":
            run.uuid = str(item.get("uuid") or run.uuid)
            run.project = item.get("project") or run.project
            run.name = item.get("name") or run.name
            run.description = item.get("description") or run.description
        if kind in ("create", "update"):
            run.inputs.update(item.get("inputs") or {})
            run.outputs.update(item.get("outputs") or {})
            run.tags = list(dict.fromkeys([*run.tags, *(item.get("tags") or [])]))
            if item.get("progress") is not None:
                run.progress = float(item["progress"])
        elif kind == "end" and run.status is None:
            run.status, run.message = str(item.get("status")), item.get("message")
    return run


def _batches(lines: list[bytes]) -> list[tuple[str, bytes, int]]:
    found = []
    for item in _records(lines):
        batch = item.get("batch")
        if isinstance(batch, dict) and isinstance(item.get("msg_id"), str):
            body = json.dumps(batch, separators=(",", ":")).encode()
            found.append((item["msg_id"], body, len(batch.get("points") or [])))
    return found


def read_folder(folder: Path) -> OfflineRun:
    """The run recorded in ``folder``; ``ValueError`` when it holds none."""
    path = folder / RUN_FILE
    try:
        run = replay(path.read_bytes().splitlines())
    except OSError as exc:
        raise ValueError(
            f"{folder} is not an offline run folder (no readable {RUN_FILE}: {exc.strerror})"
        ) from None
    if not run.uuid:
        raise ValueError(f"{path} does not record the run's creation")
    metrics = folder / METRICS_FILE
    if metrics.exists():
        run.batches = _batches(metrics.read_bytes().splitlines())
    return run
