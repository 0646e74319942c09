"""An agent killed while a job runs, then started again, ends the job with a truthful status."""

from __future__ import annotations

import json
import signal
import subprocess
import uuid
from typing import IO, Any

import psutil
import pytest

from axonal_agent.settings import AgentSettings
from axonal_testing.services import service_process
from axonal_testing.waiting import wait_for


def start_agent_process(
    settings: AgentSettings, monkeypatch: pytest.MonkeyPatch, log: IO[bytes]
) -> subprocess.Popen[bytes]:
    """``python -m axonal_agent`` on ``settings``: the shared variables come from
    :func:`service_process`, the agent's own from the environment it inherits."""
    monkeypatch.setenv("AXONAL_AGENT_NAME", settings.name)
    monkeypatch.setenv("AXONAL_AGENT_QUEUES", json.dumps(settings.queues))
    monkeypatch.setenv("AXONAL_AGENT_WORK_ROOT", str(settings.work_root))
    monkeypatch.setenv("AXONAL_AGENT_CPU", str(settings.cpu))
    return service_process("axonal_agent", settings, log)


def sleeps(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        if proc.info["name"] == "sleep" and (proc.info["cmdline"] or [])[-1:] == [marker]:
            found.append(proc)
    return found


def job(command: str) -> dict[str, Any]:
    return {"kind": "job", "container": {"image": "x", "command": ["/bin/sh", "-c", command]}}


async def test_killed_agent_restarted_fails_the_orphaned_run_and_leaves_no_process(
    service_settings, start_agent, observed, execute, tmp_path, monkeypatch
):
    name = f"agent-{uuid.uuid4().hex[:8]}"
    settings = service_settings(AgentSettings, name=name, work_root=tmp_path / "runs", cpu=2)
    marker = "64.4242"
    with (tmp_path / "agent.log").open("wb") as log:
        first = start_agent_process(settings, monkeypatch, log)
        try:
            run_uuid = await execute(job(f"sleep {marker}"))
            await wait_for(
                lambda: "running" in observed.statuses(run_uuid), timeout=30, message="running"
            )
            first.send_signal(signal.SIGKILL)
            first.wait(10)
        finally:
            if first.poll() is None:
                first.kill()
    assert sleeps(marker), "the job outlives a SIGKILLed agent (its own session)"
    await start_agent(name=name, work_root=tmp_path / "runs")
    final = await observed.wait_final(run_uuid)
    assert (final.status, final.reason) == ("failed", "AgentRestarted")
    assert observed.statuses(run_uuid) == ["running", "failed"]
    await wait_for(lambda: not sleeps(marker), message="no process left")
