"""The whole platform for a test session: ``axonal up --detach`` in a temporary home.

The CLI runs as a subprocess with every ``AXONAL_*`` variable of the test process removed, so
the stack starts its own NATS and PostgreSQL whatever the developer's shell points at.
``cluster_stack`` is the platform as ``axonal up --cluster`` runs it: three NATS nodes, two
replicas of every service.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from axonal_stack.ports import free_port
from axonal_stack.processes import stop_all, strays
from axonal_stack.settings import StackPaths
from axonal_stack.users import admin_url

__all__ = [
    "RunningStack",
    "axonal_cli",
    "cluster_stack",
    "running_stack",
    "stack",
    "stack_env",
    "stack_variables",
    "start_stack",
    "stop_stack",
]

_CLI_TIMEOUT = 180.0


def stack_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without ``AXONAL_*``, plus ``AXONAL_HOME=home`` and ``extra``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("AXONAL_")}
    env["AXONAL_HOME"] = str(home)
    env["COLUMNS"] = "200"  # Rich wraps at 80 columns without a terminal
    env.update(extra or {})
    return env


def axonal_cli(
    *args: str,
    home: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = _CLI_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """Run ``axonal <args>`` (the console script) for ``home``; never raises on failure."""
    script = Path(sys.executable).with_name("axonal")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "axonal"]
    return subprocess.run(
        [*argv, *args],
        env=stack_env(home, env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@dataclass
class RunningStack:
    """A detached stack: where it is, and its ``axonal status --json`` document.

    ``nats_url`` carries the credentials of the stack's NATS ``admin`` user (comma-separated
    URLs for a cluster: :attr:`nats_servers` lists them for a NATS client)."""

    home: Path
    nats_url: str
    database_url: str
    status: dict[str, Any]
    env: dict[str, str] = field(default_factory=dict)
    startup_seconds: float = 0.0

    @property
    def api_url(self) -> str:
        return str(self.status["api_url"])

    @property
    def nats_servers(self) -> list[str]:
        """The URLs of ``nats_url``, one per NATS node."""
        return self.nats_url.split(",")

    @property
    def admin_token(self) -> str:
        """The token of the administrator ``axonal up`` made for this home."""
        return str(json.loads((self.home / "admin.json").read_text())["token"])

    def http(self, **options: Any) -> httpx.Client:
        """An HTTP client of the api, signed in as the home's administrator."""
        headers = {"Authorization": f"Bearer {self.admin_token}"}
        return httpx.Client(base_url=self.api_url, headers=headers, **options)

    def cli(self, *args: str, timeout: float = _CLI_TIMEOUT) -> subprocess.CompletedProcess[str]:
        return axonal_cli(*args, home=self.home, env=self.env, timeout=timeout)

    def cli_json(self, *args: str, timeout: float = 60) -> Any:
        """``axonal ARGS --json``, which must succeed: its parsed output."""
        result = self.cli(*args, "--json", timeout=timeout)
        assert result.returncode == 0, f"axonal {args}: {result.stdout}\n{result.stderr}"
        return json.loads(result.stdout)

    def state(self) -> dict[str, Any]:
        """The supervisor's ``stack.json``."""
        doc: dict[str, Any] = json.loads((self.home / "stack.json").read_text())
        return doc

    def refresh(self) -> dict[str, Any]:
        """Run ``axonal status --json`` again; the new document (also kept in ``status``)."""
        result = self.cli("status", "--json")
        self.status = json.loads(result.stdout)
        return self.status


def start_stack(
    home: Path, env: Mapping[str, str] | None = None, *, cluster: bool = False
) -> RunningStack:
    """``axonal up --detach`` (with ``--cluster``) then ``axonal status --json``; raise with
    the output on failure."""
    started = time.monotonic()
    flags = ["--cluster"] if cluster else []
    up = axonal_cli("up", "--detach", *flags, home=home, env=env, timeout=_CLI_TIMEOUT * 2)
    elapsed = time.monotonic() - started
    if up.returncode != 0:
        raise RuntimeError(
            f"axonal up --detach failed ({up.returncode}):\n{up.stdout}\n{up.stderr}"
        )
    handle = RunningStack(home, "", "", {}, dict(env or {}), elapsed)
    status = handle.refresh()
    # as the stack's admin: tests and benchmarks read and write every subject
    handle.nats_url = admin_url(StackPaths(home).nats_users, status["nats_url"])
    handle.database_url = status["database_url"]
    return handle


def stop_stack(
    home: Path, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``axonal down``; whatever still runs for ``home`` afterwards is killed."""
    result = axonal_cli("down", home=home, env=env)
    stop_all(strays(home), timeout=10)
    return result


def stack_variables(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables of a test stack, plus ``extra``.

    PostgreSQL runs without fsync (``AXONAL_POSTGRES_DURABLE=false``): faster, and nothing
    needs to survive a machine crash. The scheduler also has a queue named ``serial`` with
    concurrency 1, and the agent serves it beside ``default``. NATS (and its cluster's routes),
    PostgreSQL and the api prefer random free ports, so stacks started side by side never race
    for the default ones.
    """
    env = {
        "AXONAL_POSTGRES_DURABLE": "false",
        "AXONAL_NATS_PORT": str(free_port()),
        "AXONAL_NATS_CLUSTER_PORT": str(free_port()),
        "AXONAL_POSTGRES_PORT": str(free_port()),
        "AXONAL_API_PORT": str(free_port()),
        "AXONAL_SCHEDULER_QUEUE_CONCURRENCY": '{"serial": 1}',
        "AXONAL_AGENT_QUEUES": '["default", "serial"]',
    }
    env.update(extra or {})
    return env


@contextlib.contextmanager
def running_stack(
    tmp_path_factory: pytest.TempPathFactory,
    name: str = "stack",
    env: Mapping[str, str] | None = None,
    *,
    cluster: bool = False,
) -> Iterator[RunningStack]:
    """A test stack (:func:`stack_variables` plus ``env``) in a fresh home, stopped on exit;
    ``cluster``: as ``axonal up --cluster`` runs it.

    Its services' logs are kept in pytest's temp folder as ``<name>-logs``, for post-mortems.
    """
    home = tmp_path_factory.mktemp(name)
    variables = stack_variables(env)
    if cluster:  # twice the processes to start on a machine that may be small
        variables.setdefault("AXONAL_STARTUP_TIMEOUT", "240")
    try:
        yield start_stack(home, variables, cluster=cluster)
    finally:
        stop_stack(home, variables)
        if (home / "logs").is_dir():
            kept = tmp_path_factory.getbasetemp() / f"{name}-logs"
            shutil.copytree(home / "logs", kept, dirs_exist_ok=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningStack]:
    """The embedded platform (every installed service) for the session, stopped at the end
    (:func:`running_stack`)."""
    with running_stack(tmp_path_factory) as running:
        yield running


@pytest.fixture(scope="module")
def cluster_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningStack]:
    """The platform as ``axonal up --cluster`` runs it (three NATS nodes, streams with three
    replicas, two replicas of every service), for one module: it is twice as many processes
    as :func:`stack`, stopped as soon as the module is done with them."""
    with running_stack(tmp_path_factory, "cluster", cluster=True) as running:
        yield running
