"""Helpers of the run lifecycle tests: a user of one project (the CLI for actions, HTTP for
polling), polyaxonfile builders and the processes of a run."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import psutil

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

DONE = {"succeeded", "failed", "stopped", "skipped", "upstream_failed"}


class User:
    """One project's view of the stack: the CLI for actions, HTTP for polling."""

    def __init__(self, stack: RunningStack, project: str, folder: Path) -> None:
        self.stack = stack
        self.project = project
        self.folder = folder
        self.http = stack.http(timeout=10)
        self.base = f"/api/v1/{project}/runs"

    def cli_json(self, *args: str) -> Any:
        return self.stack.cli_json(*args, "-p", self.project)

    def run(self, polyaxonfile: str, *extra: str) -> str:
        """``axonal run -f FILE --json``; the new run's uuid."""
        path = self.folder / f"run-{len(list(self.folder.glob('run-*')))}.yaml"
        path.write_text(polyaxonfile)
        created = self.cli_json("run", "-f", str(path), *extra)
        return str(created["uuid"])

    def get(self, uuid: str) -> dict[str, Any]:
        """The run; a submit has answered only once the run exists, so never a 404."""
        response = self.http.get(f"{self.base}/{uuid}")
        response.raise_for_status()
        found: dict[str, Any] = response.json()
        return found

    def wait_status(self, uuid: str, *wanted: str, timeout: float = 30) -> dict[str, Any]:
        def reached() -> dict[str, Any] | None:
            run = self.get(uuid)
            return run if run["status"] in wanted else None

        return wait_for_sync(reached, timeout=timeout, message=f"run {uuid} {wanted}")

    def wait_done(self, uuid: str, timeout: float = 30) -> dict[str, Any]:
        return self.wait_status(uuid, *DONE, timeout=timeout)

    def log_lines(self, uuid: str, *, so_far: bool = False) -> list[str]:
        """The run's lines once the api says they are all stored (``done``), or ``so_far``."""

        def page() -> dict[str, Any] | None:
            found = self.http.get(f"{self.base}/{uuid}/logs", params={"limit": 1000}).json()
            return dict(found) if so_far or found["done"] else None

        lines = wait_for_sync(page, timeout=60, message=f"every log line of {uuid}")["lines"]
        return [line["line"] for line in lines]

    def statuses(self, uuid: str) -> list[str]:
        """``axonal ops statuses UUID --json``: the status names in order."""
        history = self.cli_json("ops", "statuses", uuid)
        return [change["status"] for change in history["changes"]]

    def children(self, pipeline: str) -> dict[str, dict[str, Any]]:
        page = self.http.get(self.base, params={"pipeline": pipeline, "limit": 100}).json()
        return {run["name"] or run["uuid"]: run for run in page["runs"]}


def job(command: list[str], *, top: str = "") -> str:
    """A component running ``command`` (a flow-style YAML list) with extra top-level YAML."""
    return f"""
version: 1.1
kind: component
{top}
run:
  kind: job
  container:
    image: python
    command: {json.dumps(command)}
"""


def shell(script: str, *, top: str = "") -> str:
    return job(["/bin/sh", "-c", script], top=top)


def parse_json_stream(text: str) -> list[dict[str, Any]]:
    """Several (pretty-printed) JSON documents one after the other."""
    decoder, found, pos = json.JSONDecoder(), [], 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        doc, pos = decoder.raw_decode(text, pos)
        found.append(doc)
    return found


def at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def dag_op(name: str, run: str, *lines: str, inputs: str = "", outputs: str = "") -> str:
    extra = "".join(f"\n    {line}" for line in lines)
    io = "".join(f"\n      {part}" for part in (inputs, outputs) if part)
    return f"""
  - name: {name}{extra}
    component:{io}
      run: {run}"""


def dag(*ops: str) -> str:
    return """
version: 1.1
kind: component
run:
  kind: dag
  operations:""" + "".join(op.replace("\n", "\n  ") for op in ops)


def job_run(command: list[str]) -> str:
    """A job ``run`` section on one line (JSON is YAML)."""
    return json.dumps({"kind": "job", "container": {"image": "python", "command": command}})


def sh_run(script: str) -> str:
    return job_run(["/bin/sh", "-c", script])


def _processes_of(uuid: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        if proc.info["cmdline"] != ["sleep", "60"] or proc.info["status"] == "zombie":
            continue
        try:
            if proc.environ().get("AXONAL_RUN_UUID", "").replace("-", "") == uuid.replace("-", ""):
                found.append(proc)
        except (psutil.AccessDenied, psutil.NoSuchProcess):
            continue
    return found
