"""An adaptive sweep's study on its Trials tab, in Chromium: a TPE search of six trials, each a
job that logs the Branin function of its params with the SDK, run to its end in a project of
its own (the demo project's runs lists stay as seeded).

Each trial also reports its loss as an output: the optimization service reads a trial's output
from the run's end, and falls back to the last logged metric only when there is none, which
tracking may not have stored yet when the run's end arrives (the trial then counts as failed).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROJECT = "ui/tpe-study"
TRIALS = 6
BRANIN = """
import math, sys
from axonal import tracking
x, y = float(sys.argv[1]), float(sys.argv[2])
loss = (y - 5.1 / (4 * math.pi ** 2) * x ** 2 + 5 / math.pi * x - 6) ** 2 \\
    + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x) + 10
tracking.log_metrics(loss=loss)
tracking.log_outputs(loss=loss)
"""
SWEEP = f"""
version: 1.1
kind: operation
name: branin-tpe
matrix:
  kind: tpe
  numRuns: {TRIALS}
  concurrency: 2
  seed: 7
  metric: {{name: loss, optimization: minimize}}
  params:
    x: {{kind: uniform, value: [-5, 10]}}
    y: {{kind: uniform, value: [0, 15]}}
component:
  inputs: [{{name: x, type: float}}, {{name: y, type: float}}]
  outputs: [{{name: loss, type: float}}]
  run:
    kind: job
    init: [{{file: {{filename: branin.py, content: {json.dumps(BRANIN)}}}}}]
    container:
      image: python
      workingDir: "{{{{ globals.artifacts_path }}}}"
      command: [{json.dumps(sys.executable)}, branin.py, "{{{{ x }}}}", "{{{{ y }}}}"]
"""
DONE = {"succeeded", "failed", "stopped", "skipped", "upstream_failed"}


def _swept(stack: RunningStack, source: Path) -> dict[str, Any]:
    """Run the sweep in its own project; once it has ended, the sweep run as read back."""
    created = stack.cli("project", "create", PROJECT)
    assert created.returncode == 0, created.stderr
    source.write_text(SWEEP)
    submitted = stack.cli_json("run", "-f", str(source), "-p", PROJECT)

    def ended() -> dict[str, Any] | None:
        run: dict[str, Any] = stack.cli_json("ops", "get", submitted["uuid"], "-p", PROJECT)
        return run if run["status"] in DONE else None

    return wait_for_sync(ended, timeout=240, message="the tpe sweep ended")


async def test_an_adaptive_sweep_shows_its_history_parallel_coordinates_and_importances(
    page: Page, ui_url: str, ui_stack: RunningStack, tmp_path: Path
):
    sweep = _swept(ui_stack, tmp_path / "tpe.yaml")
    assert sweep["status"] == "succeeded", sweep
    base = f"projects/{PROJECT}"
    await page.goto(f"{ui_url}{base}/runs/{sweep['uuid']}/trials")

    head = page.locator(".study-head")
    await expect(head).to_contain_text(f"tpe search · finished · {TRIALS} / {TRIALS} trials")
    await expect(head).to_contain_text("minimize loss")
    history = page.get_by_role("region", name="Optimisation history")
    await expect(history).to_have_attribute("data-points", str(TRIALS))
    await expect(history.locator('circle[data-state="complete"]')).to_have_count(TRIALS)
    await expect(history.locator("[data-best-so-far]")).to_have_attribute(
        "data-best-so-far", str(TRIALS)
    )
    parallel = page.get_by_role("region", name="Parallel coordinates")
    await expect(parallel).to_have_attribute("data-lines", str(TRIALS))
    await expect(parallel.locator("polyline[data-trial]")).to_have_count(TRIALS)
    await expect(parallel.locator("[data-axis]")).to_have_count(3)  # x, y and loss
    importances = page.get_by_role("region", name="Param importances")
    await expect(importances.get_by_role("listitem")).to_have_count(2)
    await expect(importances.locator("li[data-param]").first).to_contain_text("%")
    await expect(page.get_by_role("table", name="Trials").get_by_role("row")).to_have_count(
        1 + TRIALS
    )
    await screenshot(page, "sweep-study")

    best = history.get_by_role("link", name="best trial")
    await expect(best).to_have_attribute("href", f"/{base}/runs/{sweep['outputs']['best_trial']}")
    await best.click()
    await expect(page).to_have_url(f"{ui_url}{base}/runs/{sweep['outputs']['best_trial']}")
