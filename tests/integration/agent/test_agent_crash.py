"""An agent killed while a job runs, then started again, ends the job with a truthful status."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from typing import IO, Any

import psutil

from axonal_bus.settings import BusSettings
from axonal_testing.waiting import wait_for


def start_agent_process(
    bus_settings: BusSettings, database_url: str, name: str, root: Path, log: IO[bytes]
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "AXONAL_NATS_URL": bus_settings.nats_url,
        "AXONAL_NAMESPACE": bus_settings.namespace,
        "AXONAL_DATABASE_URL": database_url,
        "AXONAL_LOG_JSON": "true",
        "AXONAL_AGENT_NAME": name,
        "AXONAL_AGENT_WORK_ROOT": str(root),
        "AXONAL_AGENT_CPU": "2",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "axonal_agent"], env=env, stdout=log, stderr=subprocess.STDOUT
    )


def sleeps(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline"]):
        if proc.info["name"] == "sleep" and (proc.info["cmdline"] or [])[-1:] == [marker]:
            found.append(proc)
    return found


def job(command: str) -> dict[str, Any]:
    return {"kind": "job", "container": {"image": "x", "command": ["/bin/sh", "-c", command]}}


async def test_killed_agent_restarted_fails_the_orphaned_run_and_leaves_no_process(
    bus_settings, database_url, start_agent, observed, execute, tmp_path
):
    name = f"agent-{uuid.uuid4().hex[:8]}"
    marker = "64.4242"
    with (tmp_path / "agent.log").open("wb") as log:
        first = start_agent_process(bus_settings, database_url, name, tmp_path / "runs", log)
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
    assert observed.statuses(run_uuid) == ["starting", "running", "failed"]
    await wait_for(lambda: not sleeps(marker), message="no process left")
