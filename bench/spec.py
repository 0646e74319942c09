"""Spec library speed: parse + validate + compile a 1,000-op DAG, expand a 10,000-point grid.

Reference, measured in the same run: ``yaml.safe_load`` + ``json.dumps`` of the same DAG
document (the floor any polyaxonfile tool pays just to read it). Run: ``make bench``.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

import yaml

from axonal_spec.compiler import compile_operation
from axonal_spec.matrix import expand, parse_matrix
from axonal_spec.parsing import load

OPS = 1_000


def dag_yaml(n: int) -> str:
    """A DAG of ``n`` ops in layers of 10, each op depending on one op of the layer above."""
    operations = []
    for i in range(n):
        op: dict[str, object] = {
            "name": f"op{i}",
            "dagRef": "step",
            "params": {"lr": 0.01 * (i % 7 + 1), "epochs": i % 5 + 1},
        }
        if i >= 10:
            op["dependencies"] = [f"op{i - 10}"]
        operations.append(op)
    doc = {
        "version": 1.1,
        "kind": "component",
        "name": "big-dag",
        "run": {
            "kind": "dag",
            "operations": operations,
            "components": [
                {
                    "name": "step",
                    "inputs": [
                        {"name": "lr", "type": "float"},
                        {"name": "epochs", "type": "int", "value": 1, "isOptional": True},
                    ],
                    "run": {
                        "kind": "job",
                        "container": {
                            "image": "python:3.12-slim",
                            "command": ["python", "train.py"],
                            "args": ["--lr={{ lr }}", "--epochs={{ epochs }}"],
                        },
                    },
                }
            ],
        },
    }
    return yaml.safe_dump(doc, sort_keys=False)


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> None:
    text = dag_yaml(OPS)
    grid = parse_matrix(
        {
            "kind": "grid",
            "params": {
                "lr": {"kind": "linspace", "value": "0.001:0.1:100"},
                "batch": {
                    "kind": "choice",
                    "value": [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192],
                },
                "dropout": {"kind": "range", "value": [0, 10, 1]},
            },
        }
    )
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    reference = timed(lambda: json.dumps(yaml.load(text, Loader=loader)))
    parse = timed(lambda: load(text))
    doc = load(text)
    compiled = compile_operation(doc)
    assert compiled.layers is not None
    assert len(compiled.layers) == OPS // 10
    compile_time = timed(lambda: compile_operation(doc))
    total = timed(lambda: compile_operation(load(text)))
    points = expand(grid)
    assert len(points) == 10_000
    grid_time = timed(lambda: expand(grid))
    print(f"spec library, {OPS:,}-op DAG ({len(text) / 1024:.0f} KiB of YAML), medians of 5")
    print(f"  {'YAML load + JSON dump (reference)':<40} {reference * 1000:8.1f} ms")
    print(
        f"  {'parse + validate':<40} {parse * 1000:8.1f} ms   {parse / reference:5.1f}x reference"
    )
    print(f"  {'compile (resolve, bind, render, order)':<40} {compile_time * 1000:8.1f} ms")
    ratio = total / reference
    print(f"  {'parse + validate + compile':<40} {total * 1000:8.1f} ms   {ratio:5.1f}x reference")
    print(f"  {'expand a 10,000-point grid':<40} {grid_time * 1000:8.1f} ms")
    target = "under 1 s: yes" if max(total, grid_time) < 1 else "under 1 s: NO"
    print(f"  target (both well under one second)      {target}")


if __name__ == "__main__":
    main()
