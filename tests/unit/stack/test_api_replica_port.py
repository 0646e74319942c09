"""A further api replica whose port was taken after it was chosen serves on another."""

from __future__ import annotations

import socket
from pathlib import Path

from axonal_stack.discovery import ServiceEntry
from axonal_stack.replicas import free_api_port
from axonal_stack.runner import ServiceRunner


async def _no_probe(_: str):  # never called: the runner is not run
    raise AssertionError


def test_a_taken_port_is_chosen_again_and_the_url_follows(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        runner = ServiceRunner(
            ServiceEntry("api", "axonal_api"),
            env={"AXONAL_API_PORT": str(port)},
            log_path=tmp_path / "api-2.log",
            probe=_no_probe,
            on_change=lambda: None,
            name="api-2",
        )
        free_api_port(runner, host="127.0.0.1")
    moved = int(runner.env["AXONAL_API_PORT"])
    assert moved != port
    assert runner.state.url == f"http://127.0.0.1:{moved}"
    free_api_port(runner, host="127.0.0.1")  # free now: it stays
    assert runner.env["AXONAL_API_PORT"] == str(moved)
