"""A run's ``container.resources.limits`` hold its process: address space and cpu affinity;
a build the host cannot run fails with why."""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path
from typing import Any

import psutil

from axonal_agent.adapters.local import LocalExecutor
from axonal_agent.domain.resources import Limits
from axonal_agent.ports import ProcessSpec
from axonal_testing.waiting import wait_for

CORES = sorted(os.sched_getaffinity(0))  # those the agent (this process) may use


def job(command: str, limits: dict[str, Any] | None = None) -> dict[str, Any]:
    container: dict[str, Any] = {"image": "busybox", "command": ["/bin/sh", "-c", command]}
    if limits is not None:
        container["resources"] = {"limits": limits}
    return {"kind": "job", "container": container}


def python(code: str) -> str:
    """A shell command running ``code`` in a child python (a grandchild of the agent)."""
    return f'{sys.executable} -c "{code}"'


ALLOCATE = python("bytearray(200 * 2**20); print('allocated')")
COUNT_CORES = python("import os; print('cores', len(os.sched_getaffinity(0)))")


async def test_allocating_beyond_the_memory_limit_fails_and_says_so(start_agent, observed, execute):
    await start_agent()
    small = await execute(job(ALLOCATE, {"memory": "128Mi"}))
    large = await execute(job(ALLOCATE, {"memory": "512Mi"}))
    failed = await observed.wait_final(small)
    assert (failed.status, failed.reason, failed.exit_code) == ("failed", "ExitCode", 1)
    message = (failed.message or "").splitlines()
    assert message[0] == "out of memory under its memory limit of 128Mi (address space)"
    assert message[-1] == "MemoryError"
    assert "limits: memory 128Mi (address space)" in observed.lines(small)
    assert (await observed.wait_final(large)).status == "succeeded"
    await wait_for(lambda: "allocated" in observed.lines(large), message="allocated under 512Mi")


async def test_a_cpu_limit_pins_the_process_to_that_many_cores(start_agent, observed, execute):
    await start_agent()
    half = await execute(job(COUNT_CORES, {"cpu": "500m"}))
    many = await execute(job(COUNT_CORES, {"cpu": str(len(CORES) + 2)}))
    free = await execute(job(COUNT_CORES))
    for run_uuid, cores in ((half, 1), (many, len(CORES)), (free, len(CORES))):
        assert (await observed.wait_final(run_uuid)).status == "succeeded"
        await wait_for(
            lambda run_uuid=run_uuid: any(
                line.startswith("cores") for line in observed.lines(run_uuid)
            )
        )
        assert f"cores {cores}" in observed.lines(run_uuid)
    assert any(line.startswith("limits: cpu 0.5 (affinity: core ") for line in observed.lines(half))
    assert not any(line.startswith("limits:") for line in observed.lines(free))


async def test_an_unreadable_limit_fails_the_run_naming_it(start_agent, observed, execute):
    await start_agent()
    run = job("echo should-not-run", {"memory": "0"})
    run["container"]["resources"]["requests"] = {"cpu": "100m", "memory": "10Mi"}
    run_uuid = await execute(run)
    final = await observed.wait_final(run_uuid)
    assert (final.status, final.reason) == ("failed", "InvalidSpec")
    assert final.message == (
        "resources: limits.memory: must be a finite quantity more than 0, not '0'"
    )
    assert observed.statuses(run_uuid) == ["failed"]


async def test_the_process_and_its_children_hold_the_limits(tmp_path: Path):
    executor = LocalExecutor()
    lines: list[tuple[str, str]] = []
    spec = ProcessSpec(
        ["/bin/sh", "-c", "sleep 30 & wait"],
        dict(os.environ),
        tmp_path,
        Limits(cpu=0.5, memory=2**30),
    )
    first = await executor.start(spec, lambda stream, line: lines.append((stream, line)))
    second = await executor.start(spec, lambda stream, line: None)
    try:
        children = await wait_for(lambda: psutil.Process(first.pid).children())
        for pid in (first.pid, children[0].pid):
            assert resource.prlimit(pid, resource.RLIMIT_AS) == (2**30, 2**30)
            assert os.sched_getaffinity(pid) == set(first.cores)
        assert len(first.cores) == 1
        if len(CORES) > 1:  # the second goes to a core the first does not use
            assert os.sched_getaffinity(second.pid).isdisjoint(first.cores)
        assert lines[0] == (
            "agent",
            f"limits: memory 1Gi (address space), cpu 0.5 (affinity: core {first.cores[0]})",
        )
    finally:
        await first.stop(1)
        await second.stop(1)


async def test_a_build_without_a_docker_engine_fails_with_why(start_agent, observed, execute):
    await start_agent()
    kaniko = {"kind": "job", "container": {"image": "kaniko", "command": ["/kaniko/executor"]}}
    build = {"destination": "acme/vision:v1", "context": None}
    run_uuid = await execute(kaniko, build=build)
    failed = await observed.wait_final(run_uuid)
    assert (failed.status, failed.reason) == ("failed", "BuildUnavailable")
    assert "needs a Docker engine on the agent's host" in (failed.message or "")
