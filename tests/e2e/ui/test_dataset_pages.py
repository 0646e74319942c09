"""The dataset pages, in Chromium, on a dataset and two experiments run by the unmodified
Langfuse SDK: the dataset's items, its runs, and the two runs compared."""

from __future__ import annotations

import json
import subprocess
import sys

import httpx
import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack, stack_env
from axonal_testing.waiting import wait_for_sync

from .conftest import API_TOKEN
from .seed import PROJECT, Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")

NAME = "qa/capitals"
SDK_SCRIPT = r"""
from langfuse import Evaluation, Langfuse

lf = Langfuse()
lf.create_dataset(name="qa/capitals", description="capitals")
lf.create_dataset_item(dataset_name="qa/capitals", id="fr", input={"country": "France"},
                       expected_output="Paris")
lf.create_dataset_item(dataset_name="qa/capitals", id="jp", input={"country": "Japan"},
                       expected_output="Tokyo")
dataset = lf.get_dataset("qa/capitals")
answers = {"France": "Paris", "Japan": "Tokyo"}

def exact(*, output, expected_output, **kwargs):
    return Evaluation(name="exact", value=float(output == expected_output))

def right(*, item, **kwargs):
    return answers[item.input["country"]]

dataset.run_experiment(name="capitals", run_name="right", task=right, evaluators=[exact])
dataset.run_experiment(name="capitals", run_name="always-paris",
                       task=lambda *, item, **kw: "Paris", evaluators=[exact])
lf.flush()
lf.shutdown()
"""


def _experiments_run(stack: RunningStack) -> None:
    made = stack.cli("keys", "create", "-p", PROJECT, "--note", "dataset pages", "--json")
    assert made.returncode == 0, made.stderr
    keys = json.loads(made.stdout)
    result = subprocess.run(
        [sys.executable, "-c", SDK_SCRIPT],
        env=stack_env(stack.home, stack.env) | keys["env"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    api = httpx.Client(
        base_url=str(stack.status["api_url"]),
        headers={"Authorization": f"Bearer {API_TOKEN}"},
        timeout=10,
    )
    runs = f"/api/v1/{PROJECT}/datasets/{NAME}/runs"
    compare = f"/api/v1/{PROJECT}/experiments/compare"

    def linked() -> list[str] | None:
        found = api.get(runs).json()["data"]
        return [r["id"] for r in found] if len(found) == 2 else None

    with api:
        ids = wait_for_sync(linked, timeout=60, message="both runs linked")

        def scored() -> bool | None:
            rows = api.get(compare, params={"run": ids}).json()["rows"]
            return all(c and c["scores"] for row in rows for c in row["cells"]) or None

        wait_for_sync(scored, timeout=60, message="both runs scored")


async def test_a_dataset_page_compares_two_runs(
    page: Page, ui_url: str, ui_stack: RunningStack, seeded: Seeded
):
    _experiments_run(ui_stack)
    await page.goto(f"{ui_url}{seeded.base}/datasets")
    await page.get_by_role("link", name=NAME).click()
    await expect(page.get_by_role("heading", name=NAME)).to_be_visible()
    items = page.get_by_role("table", name="Items")
    await expect(items.locator('[data-item-id="jp"]')).to_contain_text("Tokyo")
    runs = page.get_by_role("table", name="Runs")
    await runs.get_by_label("Compare right").check()
    await runs.get_by_label("Compare always-paris").check()
    await page.get_by_role("link", name="Compare 2 runs").click()
    compared = page.get_by_role("table", name="Runs compared")
    japan = compared.locator('[data-item-id="jp"]')
    await expect(japan).to_contain_text("Tokyo")
    await expect(japan).to_contain_text("exact 1")
    await expect(japan).to_contain_text("exact 0")
    await screenshot(page, "experiments-compare")
