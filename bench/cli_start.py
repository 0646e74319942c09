"""Start-up of the ``axonal`` command line: ``axonal --help`` and ``axonal version``.

Target: each under 150 ms (median wall time, with bytecode caches). Runs the venv's console
script (the file next to this interpreter) in a fresh process ``--runs`` times after a warm-up,
the commands taking turns so that they share the machine's noise, and ``python -c pass`` in the
same run as the reference. The warm-up writes the bytecode caches (``PYTHONDONTWRITEBYTECODE``
is dropped for every run). Prints the median and p90 of each and the difference to the
reference; asserts nothing. Run: ``.venv/bin/python bench/cli_start.py [--runs 30]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_MS = 150.0
WARMUP = 3


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env | {"COLUMNS": "100", "NO_COLOR": "1"}


def _once(argv: list[str], env: dict[str, str]) -> float:
    """Wall time (ms) of one run of ``argv``; it must succeed."""
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def _p90(times: list[float]) -> float:
    return statistics.quantiles(times, n=10)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="Measured runs of each (>= 2).")
    runs = max(2, parser.parse_args().runs)
    script = Path(sys.executable).with_name("axonal")
    if not script.exists():
        sys.exit(f"no console script at {script}: run `make install` first")
    commands = {
        "python -c pass (reference)": [sys.executable, "-c", "pass"],
        "axonal --help": [str(script), "--help"],
        "axonal version": [str(script), "version"],
    }
    env = _env()
    for argv in commands.values():
        for _ in range(WARMUP):
            _once(argv, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            times[name].append(_once(argv, env))

    reference = statistics.median(times["python -c pass (reference)"])
    print(f"{runs} runs each after {WARMUP} warm-up runs, with bytecode caches ({script})")
    print(f"{'':28} {'median':>9} {'p90':>9} {'over ref':>9}")
    for name, found in times.items():
        median = statistics.median(found)
        print(f"{name:28} {median:6.1f} ms {_p90(found):6.1f} ms {median - reference:6.1f} ms")
    for name in ("axonal --help", "axonal version"):
        median = statistics.median(times[name])
        verdict = "yes" if median < TARGET_MS else "NO"
        print(f"{name}: median {median:.1f} ms, under {TARGET_MS:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
