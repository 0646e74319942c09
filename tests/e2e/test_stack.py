"""The embedded stack driven through the real ``axonal`` CLI, as a user would.

``up --detach`` / ``status`` / ``down``, a second stack beside the first, a killed service
restarted by the supervisor, Ctrl-C in the foreground, data kept across restarts, and no
process left behind.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import urllib.request
import uuid
from importlib.metadata import entry_points
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import nats
import psutil
import pytest
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_events import Rpc, Subjects
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest
from axonal_events.rpcs import Identity
from axonal_stack.processes import find
from axonal_stack.settings import StackPaths
from axonal_stack.state import ProcessRef
from axonal_stack.users import admin_url
from axonal_testing.stack import (
    RunningStack,
    axonal_cli,
    stack_env,
    start_stack,
    stop_stack,
)
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes, supervision and restarts

FAST = {"AXONAL_POSTGRES_DURABLE": "false"}


def recorded(state: dict) -> list[psutil.Process]:
    """The processes stack.json names (checked against pid reuse), with their children."""
    refs = [state["supervisor"], state["nats"], state["postgres"]]
    refs += [svc["process"] for svc in state["services"].values()]
    found = []
    for ref in filter(None, refs):
        proc = find(ProcessRef.model_validate(ref))
        assert proc is not None, ref
        found += [proc, *proc.children(recursive=True)]
    return found


def leftovers(home: Path, processes: list[psutil.Process]) -> list[str]:
    """Processes still alive, or any process with ``home`` in its command line."""
    alive = [
        f"{proc.pid} {proc.info['cmdline']}"
        for proc in psutil.process_iter(["cmdline", "status"])
        if any(str(home) in arg for arg in proc.info["cmdline"] or [])
        and proc.info["status"] != psutil.STATUS_ZOMBIE
    ]
    for proc in processes:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(f"{proc.pid} {proc.name()}")
        except psutil.NoSuchProcess:
            pass
    return alive


def port(url: str) -> int:
    parsed = urlsplit(url).port
    assert parsed is not None
    return parsed


Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)


async def identity_call(nats_url: str, method: Rpc[Req, Res], payload: Req) -> Res:
    nc = await nats.connect(nats_url)
    try:
        return await rpc.call(nc, Subjects("axonal"), method, payload, timeout=10)
    finally:
        await nc.close()


def test_up_detached_gives_a_healthy_platform(stack: RunningStack):
    doc = stack.status
    assert doc["running"] is True
    assert doc["healthy"] is True
    assert doc["home"] == str(stack.home)
    assert doc["api_url"].startswith("http://127.0.0.1:")
    assert stack.state()["api_port"] == port(doc["api_url"])
    assert doc["ui_url"] == f"{doc['api_url']}/"
    with urllib.request.urlopen(f"{doc['api_url']}/healthz", timeout=5) as reply:
        assert json.loads(reply.read())["status"] == "ok"
    assert doc["nats_url"].startswith("nats://127.0.0.1:")
    assert doc["database_url"].startswith("postgresql://postgres@127.0.0.1:")
    assert doc["database_url"].endswith("/axonal")
    installed = {ep.name for ep in entry_points(group="axonal.services")}
    assert {svc["service"] for svc in doc["services"]} == installed
    for svc in doc["services"]:
        assert svc["status"] == "ok", svc
        assert svc["instance"]
        assert svc["version"]
        assert svc["uptime_seconds"] >= 0
        # The api owns no database; every other service reports its own.
        assert svc["checks"] == ({} if svc["service"] == "api" else {"database": "ok"})
    assert all(proc.is_running() for proc in recorded(stack.state()))
    assert (stack.home / "logs" / "identity.log").stat().st_size > 0
    for secret in (StackPaths(stack.home).nats_users, stack.home / "nats" / "nats.conf"):
        assert secret.stat().st_mode & 0o777 == 0o600, secret

    table = stack.cli("status")
    assert table.returncode == 0, table.stderr
    assert "identity" in table.stdout
    assert "healthy" in table.stdout


async def test_the_stack_nats_takes_each_service_as_its_own_user(stack: RunningStack):
    with pytest.raises(nats.errors.Error):  # no credentials: no connection
        await nats.connect(stack.status["nats_url"], allow_reconnect=False,
                           max_reconnect_attempts=0)  # fmt: skip
    with pytest.raises(nats.errors.Error):
        await nats.connect(stack.status["nats_url"], user="identity", password="wrong",
                           allow_reconnect=False, max_reconnect_attempts=0)  # fmt: skip
    config = (stack.home / "nats" / "nats.conf").read_text()
    assert '{user: "identity"' in config
    # the tests' URL carries the admin's credentials
    listed = await identity_call(
        stack.nats_url, Identity.list_projects, ListProjectsRequest(owner="acme")
    )
    assert isinstance(listed.projects, list)


def test_a_second_up_for_the_same_home_is_refused(stack: RunningStack):
    result = stack.cli("up", "--detach")
    assert result.returncode != 0
    assert "already running" in result.stderr
    assert "axonal down" in result.stderr
    assert stack.refresh()["healthy"] is True


def test_status_and_down_when_nothing_runs(tmp_path: Path):
    status = axonal_cli("status", "--json", home=tmp_path)
    assert status.returncode != 0
    assert json.loads(status.stdout)["running"] is False
    assert "not running" in status.stderr
    assert "axonal up" in status.stderr
    down = axonal_cli("down", home=tmp_path)
    assert down.returncode == 0, down.stderr
    assert "Nothing is running" in down.stdout


def test_a_killed_service_is_restarted(stack: RunningStack):
    before = stack.state()["services"]["identity"]
    os.kill(before["process"]["pid"], signal.SIGKILL)

    def restarted_and_healthy():
        service = stack.state()["services"]["identity"]
        if service["restarts"] <= before["restarts"] or service["process"] is None:
            return None
        doc = stack.refresh()
        return service if doc["healthy"] else None

    after = wait_for_sync(
        restarted_and_healthy, timeout=60, interval=0.2, message="identity restarted"
    )
    assert after["process"]["pid"] != before["process"]["pid"]
    assert after["last_exit_code"] == -signal.SIGKILL
    (svc,) = (s for s in stack.status["services"] if s["service"] == "identity")
    assert svc["instance"].endswith(f":{after['process']['pid']}")
    assert svc["restarts"] == after["restarts"]


def test_a_second_stack_runs_beside_the_first(stack: RunningStack, tmp_path: Path):
    home = tmp_path / "second"
    other = start_stack(home, FAST)
    try:
        processes = recorded(other.state())
        assert other.status["healthy"] is True
        assert port(other.nats_url) != port(stack.nats_url)
        assert port(other.database_url) != port(stack.database_url)
        assert port(other.status["api_url"]) != port(stack.status["api_url"])
        assert stack.refresh()["healthy"] is True
        recorded_ports = other.state()
        assert recorded_ports["nats_port"] == port(other.nats_url)
        assert recorded_ports["postgres_port"] == port(other.database_url)
        assert recorded_ports["api_port"] == port(other.status["api_url"])

        down = other.cli("down")
        assert down.returncode == 0, down.stderr
        for role in ("supervisor", "nats", "postgres", "identity"):
            assert role in down.stdout
        assert leftovers(home, processes) == []
        assert stack.refresh()["healthy"] is True
    finally:
        stop_stack(home, FAST)


def test_ctrl_c_and_down_stop_everything_and_data_is_kept(tmp_path: Path):
    home = tmp_path / "home"
    with (tmp_path / "foreground.log").open("wb") as out:
        foreground = subprocess.Popen(
            [sys.executable, "-m", "axonal", "up"],
            env=stack_env(home),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_sync(
            lambda: axonal_cli("status", "--json", home=home).returncode == 0,
            timeout=90,
            interval=0.2,
            message="foreground stack healthy",
        )
        first = json.loads(axonal_cli("status", "--json", home=home).stdout)
        processes = recorded(json.loads((home / "stack.json").read_text()))
        name = f"p{uuid.uuid4().hex[:8]}"
        created = asyncio.run(
            identity_call(
                admin_url(StackPaths(home).nats_users, first["nats_url"]),
                Identity.create_project,
                CreateProjectRequest(owner="acme", name=name),
            )
        )

        foreground.send_signal(signal.SIGINT)  # Ctrl-C
        assert foreground.wait(timeout=60) == 0
        assert leftovers(home, processes) == []
        state = json.loads((home / "stack.json").read_text())
        assert state["phase"] == "stopped"
        assert state["supervisor"] is state["nats"] is state["postgres"] is None
        assert "Press Ctrl-C" in (tmp_path / "foreground.log").read_text()

        again = start_stack(home)
        processes = recorded(again.state())
        assert (again.status["nats_url"], again.database_url) == (
            first["nats_url"],
            first["database_url"],
        )
        listed = asyncio.run(
            identity_call(again.nats_url, Identity.list_projects, ListProjectsRequest(owner="acme"))
        )
        assert created.id in {project.id for project in listed.projects}

        down = again.cli("down")
        assert down.returncode == 0, down.stderr
        assert leftovers(home, processes) == []
        assert "Nothing is running" in again.cli("down").stdout
    finally:
        if foreground.poll() is None:
            foreground.kill()
            foreground.wait()
        stop_stack(home)
