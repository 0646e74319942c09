"""Services on the local agent: free ports, readiness, URLs, and the port freed at the end."""

from __future__ import annotations

import re
import shutil
import socket
from typing import Any

import httpx
import pytest

from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.parsing import load
from axonal_testing.waiting import wait_for

from .control_support import publish_stopping


def service(script: str, *, ports: list[int] | None = None) -> dict[str, Any]:
    return {
        "kind": "service",
        "ports": [8000] if ports is None else ports,
        "container": {"image": "python", "command": ["/bin/sh", "-c", script]},
    }


def refused(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def bindable(port: int) -> bool:
    """Whether a server can listen on ``port`` (as servers do, past the TIME_WAIT of the
    connections the old one closed)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
            sock.listen()
        except OSError:
            return False
        return True


async def test_a_service_runs_once_it_answers_and_frees_its_port(
    start_agent, observed, execute, nats_client, bus_settings
):
    await start_agent(stop_grace_seconds=1.0)
    # It sleeps before it serves: `starting` until then. The port placeholder is filled in.
    script = "sleep 1.5; exec python -m http.server {{ globals.ports[0] }} --bind 127.0.0.1"
    run_uuid = await execute(service(script))
    await wait_for(lambda: "starting" in observed.statuses(run_uuid), message="starting")
    line = await wait_for(
        lambda: next((x for x in observed.lines(run_uuid) if "service: port 8000" in x), None),
        message="the port log line",
    )
    port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))  # type: ignore[union-attr]
    assert refused(port)  # not answering yet, and not reported running
    assert "running" not in observed.statuses(run_uuid)

    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    running = next(r for r in observed.reports if r.status.value == "running")
    url = f"http://127.0.0.1:{port}/"
    assert running.endpoints == {"8000": url}
    async with httpx.AsyncClient() as http:
        assert (await http.get(url)).status_code == 200

    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)
    assert (final.status.value, final.reason) == ("stopped", "Stopped")
    assert bindable(port)


async def test_the_env_names_the_ports_and_an_http_probe_waits_for_its_path(
    start_agent, observed, execute, tmp_path
):
    await start_agent(stop_grace_seconds=1.0)
    # /ready exists only after a second: a TCP connect would pass before it does.
    (tmp_path / "www").mkdir()
    script = (
        f"cd {tmp_path / 'www'}; echo ports=$AXONAL_SERVICE_PORTS url=$AXONAL_SERVICE_URL; "
        "(sleep 1; touch ready) & exec python -m http.server $AXONAL_SERVICE_PORT"
    )
    run_uuid = await execute(
        service(script, ports=[8000, 9000]), probe={"http": {"path": "ready", "port": 8000}}
    )
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    assert (tmp_path / "www" / "ready").exists()
    running = next(r for r in observed.reports if r.status.value == "running")
    first, second = (int(url.split(":")[-1].rstrip("/")) for url in running.endpoints.values())
    assert list(running.endpoints) == ["8000", "9000"]
    assert first != second
    wanted = f"ports={first},{second} url=http://127.0.0.1:{first}/"
    await wait_for(lambda: wanted in observed.lines(run_uuid), message="the env line")


async def test_a_service_that_never_answers_fails_with_the_reason(start_agent, observed, execute):
    await start_agent(stop_grace_seconds=0.5, service_ready_seconds=1.0)
    run_uuid = await execute(service("sleep 30"))
    final = await observed.wait_final(run_uuid)
    assert (final.status.value, final.reason) == ("failed", "ServiceNotReady")
    assert "did not answer within 1s" in (final.message or "")
    assert observed.statuses(run_uuid) == ["starting", "failed"]


async def test_a_service_that_exits_before_it_answers_fails_with_its_exit(
    start_agent, observed, execute
):
    await start_agent()
    run_uuid = await execute(service("echo broken; exit 3"))
    final = await observed.wait_final(run_uuid)
    assert (final.status.value, final.reason, final.exit_code) == ("failed", "ExitCode", 3)


@pytest.mark.skipif(shutil.which("tensorboard") is not None, reason="tensorboard is installed")
async def test_a_hub_tensorboard_without_tensorboard_names_the_missing_executable(
    start_agent, observed, execute, tmp_path
):
    await start_agent()
    (tmp_path / "artifacts" / "abc" / "outputs" / "tensorboard").mkdir(parents=True)  # its init
    text = "kind: operation\nhubRef: tensorboard\nparams: {uuid: abc}\n"
    compiled = compile_operation(load(text), CompileOptions())
    run_uuid = await execute(compiled.run)
    final = await observed.wait_final(run_uuid)
    assert (final.status.value, final.reason) == ("failed", "ExecutableNotFound")
    assert "'tensorboard' is not installed" in (final.message or "")
