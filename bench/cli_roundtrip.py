"""``axonal run --watch`` of a no-op job, from process start to exit, on the embedded stack.

Target: p50 <= 500 ms with bytecode caches. Starts a stack in a temporary home
(``axonal up --detach``), runs the venv's console script ``--runs`` times after a warm-up (which
writes the bytecode caches), and prints the median and p90 of the wall time next to what the
server took for the same runs (``created`` -> ``succeeded`` from the status history) and to
``axonal --help`` (the CLI's start alone), all measured in the same run. Asserts nothing.
Run: ``.venv/bin/python bench/cli_roundtrip.py [--runs 20]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

TARGET_MS = 500.0
WARMUP = 2
NOOP = """
kind: component
name: noop
run: {kind: job, container: {image: busybox, command: ["true"]}}
"""


def _env(home: Path) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
    kept.pop("PYTHONDONTWRITEBYTECODE", None)
    return kept | {
        "AXONAL_HOME": str(home),
        "AXONAL_POSTGRES_DURABLE": "false",
        "AXONAL_PROJECT": "bench/cli",
        "COLUMNS": "100",
        "NO_COLOR": "1",
    }


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
    return (time.perf_counter() - start) * 1000, done.stdout


def _server_ms(script: Path, env: dict[str, str], uuid: str) -> float:
    _, out = _run([str(script), "ops", "statuses", uuid, "--json"], env)
    changes = json.loads(out)["changes"]
    at = {c["status"]: datetime.fromisoformat(c["at"]) for c in changes}
    return (at["succeeded"] - at["created"]).total_seconds() * 1000


def _line(name: str, times: list[float], extra: str = "") -> None:
    p90 = statistics.quantiles(times, n=10)[-1]
    print(f"  {name:<34} p50 {statistics.median(times):7.1f} ms   p90 {p90:7.1f} ms{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="Measured runs (>= 2).")
    runs = max(2, parser.parse_args().runs)
    script = Path(sys.executable).with_name("axonal")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = _env(home)
        noop = home / "noop.yaml"
        noop.write_text(NOOP)
        subprocess.run([str(script), "up", "--detach"], env=env, check=True, capture_output=True)
        try:
            watch = [str(script), "run", "-f", str(noop), "--watch"]
            for _ in range(WARMUP):
                _run(watch, env)
            walls, helps, server = [], [], []
            for _ in range(runs):
                helps.append(_run([str(script), "--help"], env)[0])
                wall, out = _run([*watch, "--json"], env)
                walls.append(wall)
                server.append(_server_ms(script, env, json.loads(out)["uuid"]))
        finally:
            subprocess.run([str(script), "down"], check=False, env=env, capture_output=True)
    p50 = statistics.median(walls)
    print(f"axonal run --watch of a no-op job, {runs} runs (bytecode caches warm)")
    _line("axonal run -f noop.yaml --watch", walls)
    _line("server: created -> succeeded", server)
    _line("axonal --help (CLI start, reference)", helps)
    verdict = "met" if p50 <= TARGET_MS else "MISSED"
    print(f"  target: p50 <= {TARGET_MS:.0f} ms {verdict}")


if __name__ == "__main__":
    main()
