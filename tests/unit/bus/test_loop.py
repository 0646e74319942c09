"""The service process's event loop and garbage collector."""

from __future__ import annotations

import ast
import subprocess
import sys

PROBE = """
import asyncio, gc
from axonal_bus import loop

async def main():
    running = type(asyncio.get_running_loop()).__module__
    return gc.get_threshold(), gc.get_freeze_count() > 0, running

print(loop.run(main()))
"""


def test_a_service_runs_on_uvloop_with_its_startup_objects_frozen_out_of_collections() -> None:
    # in a child process: freezing and thresholds are process-wide
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    thresholds, frozen, loop_module = ast.literal_eval(out)
    assert thresholds == (20_000, 20, 20)
    assert frozen
    assert loop_module.startswith("uvloop")
