"""Helpers of the tests that run polyaxonfiles to completion: cases, stand-in repositories,
patches, and reading runs and logs back from the api."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

from .lifecycle_support import User

RUNS = "/api/v1/default/default/runs"
DONE = {"succeeded", "failed", "stopped", "skipped", "upstream_failed"}

#: A stand-in training script: prints its args and reports ``loss`` and ``accuracy``.
MODEL = """\
import json, os, sys

print("model", *sys.argv[1:], flush=True)
with open(os.environ["AXONAL_RUN_OUTPUTS_FILE"], "w") as out:
    json.dump({"loss": 0.25, "accuracy": 0.75}, out)
"""


@dataclass(frozen=True)
class Case:
    path: str
    patch: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    logs: str | None = None  # a line that shows the command really ran
    children: int = 0  # a DAG's ops or a matrix's trials
    outputs: tuple[str, ...] = ()
    base: str | None = None  # the file ``path`` refers to (urlRef/pathRef), given first


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, timeout=30)


def make_repo(root: Path, name: str, files: dict[str, str]) -> None:
    """A local git repository ``root/name`` holding ``files``."""
    folder = root / name
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    _git(folder, "init", "-q")
    _git(folder, "add", ".")
    _git(
        folder, "-c", "user.name=axonal", "-c", "user.email=e2e@axonal.invalid",
        "commit", "-q", "-m", "stand-in",
    )  # fmt: skip


def patch_file(patches: Path, name: str, repos: Path, tmp_path: Path) -> Path:
    """``patches/name`` with ``@REPOS@`` and ``@PYTHON@`` filled in."""
    text = (patches / name).read_text()
    text = text.replace("@REPOS@", str(repos)).replace("@PYTHON@", sys.executable)
    rendered = tmp_path / name
    rendered.write_text(text)
    return rendered


def get(http: httpx.Client, path: str, **params: Any) -> Any:
    reply = http.get(path, params=params)
    return reply.json() if reply.status_code == 200 else None


def done(http: httpx.Client, run_uuid: str) -> dict[str, Any] | None:
    run = get(http, f"{RUNS}/{run_uuid}")
    return run if run and run["status"] in DONE else None


def log_page(http: httpx.Client, run_uuid: str) -> dict[str, Any]:
    return get(http, f"{RUNS}/{run_uuid}/logs", limit=1000) or {"lines": [], "done": False}


def text(page: dict[str, Any]) -> str:
    return "\n".join(line["line"] for line in page["lines"])


def logs(http: httpx.Client, run_uuid: str) -> str:
    """Every line of a finished run (the last batches may land just after its final status)."""
    page = wait_for_sync(
        lambda: (page := log_page(http, run_uuid))["done"] and page,
        timeout=30,
        message=f"all logs of {run_uuid}",
    )
    return text(page)


def run_to_completion(
    case: Case,
    folder: Path,
    patches: Path,
    stack: RunningStack,
    http: httpx.Client,
    repos: Path,
    tmp_path: Path,
) -> None:
    """Submit ``case`` (files under ``folder``) with the CLI; it and its children succeed."""
    argv = ["run", "-f", str(folder / case.base)] if case.base else ["run"]
    argv += ["-f", str(folder / case.path)]
    if case.patch:
        argv += ["-f", str(patch_file(patches, case.patch, repos, tmp_path))]
    for name, value in case.params.items():
        argv += ["-P", f"{name}={value}"]
    submitted = stack.cli(*argv, "--json", timeout=60)
    assert submitted.returncode == 0, submitted.stderr
    run_uuid = json.loads(submitted.stdout)["uuid"]

    run = wait_for_sync(
        lambda: done(http, run_uuid), timeout=120, interval=0.1, message=f"{case.path} done"
    )
    assert run["status"] == "succeeded", (run, text(log_page(http, run_uuid)))
    if case.logs:
        assert case.logs in logs(http, run_uuid)
    children = get(http, RUNS, pipeline=run_uuid, limit=100)["runs"] if case.children else []
    assert len(children) == case.children, children
    assert all(child["status"] == "succeeded" for child in children), children
    for name in case.outputs:  # a job's, or every trial's
        assert all(name in ran["outputs"] for ran in children or [run]), (name, run, children)


@pytest.fixture
def user(stack: RunningStack, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[User]:
    """A project of the test's own, driven through the CLI and the HTTP api."""
    name = request.node.name.removeprefix("test_").replace("_", "-")[:40]
    client = User(stack, f"e2e/{name}", tmp_path)
    try:
        yield client
    finally:
        client.http.close()
