"""Cold import of ``axonal.tracking`` (it loads in every user job; target < 150 ms).

Each figure spawns a fresh interpreter ``RUNS`` times and reports the median wall time, and
``-X importtime``'s own total for the module. Reference, measured in the same run: a fresh
interpreter importing ``json`` (the floor any Python job pays). Prints only.
Run: ``.venv/bin/python bench/sdk_import.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

RUNS = 10


def wall_ms(code: str) -> float:
    """Median wall time (ms) of ``python -c code`` over ``RUNS`` fresh interpreters."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def importtime_ms(module: str) -> float:
    """Median cumulative import time (ms) of ``module`` reported by ``-X importtime``."""
    totals = []
    for _ in range(RUNS):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            check=True,
            capture_output=True,
            text=True,
        ).stderr
        lines = [line for line in out.splitlines() if line.rstrip().endswith(f"| {module}")]
        totals.append(int(lines[-1].split("|")[1]) / 1000)
    return statistics.median(totals)


def main() -> None:
    reference = wall_ms("import json")
    tracking = wall_ms("import axonal.tracking")
    own = importtime_ms("axonal.tracking")
    print(f"python -c 'import json' (reference)      {reference:7.1f} ms median of {RUNS}")
    print(f"python -c 'import axonal.tracking'       {tracking:7.1f} ms median of {RUNS}")
    print(f"  over the reference                     {tracking - reference:7.1f} ms")
    print(f"  -X importtime cumulative for the module {own:6.1f} ms (target < 150 ms)")


if __name__ == "__main__":
    main()
