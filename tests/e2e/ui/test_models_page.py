"""The Models pages in Chromium: a model a job registered, its versions with the production
alias, its evaluation against the alias's gate, and the lineage from the dataset version
through the run to the model version."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack

from ..test_model_evaluation import EVALUATE  # noqa: TID252 - the evaluation job of its e2e
from ..test_model_registry import TRAIN  # noqa: TID252 - the job the registry e2e runs
from .seed import OWNER

pytestmark = pytest.mark.asyncio(loop_scope="session")
PROJECT = f"{OWNER}/registry"


@pytest.fixture(scope="session")
def registered(ui_stack: RunningStack, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The run uuid of a job that registered ``churn`` v1, then promoted to production."""
    spec = tmp_path_factory.mktemp("models") / "train.yaml"
    spec.write_text(TRAIN)
    done = ui_stack.cli("run", "-f", str(spec), "-p", PROJECT, "--watch", timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    promoted = ui_stack.cli(
        "registry", "models", "promote", "churn", "1", "--alias", "production", "-p", PROJECT
    )
    assert promoted.returncode == 0, promoted.stdout + promoted.stderr
    gated = ui_stack.cli(
        "registry", "models", "gate", "churn", "production", "-r", "auc>=0.9", "-p", PROJECT
    )
    assert gated.returncode == 0, gated.stdout + gated.stderr
    evaluate = spec.with_name("evaluate.yaml")
    evaluate.write_text(EVALUATE)
    params = ("-P", "model=churn", "-P", "version=1", "-P", "auc=0.93")
    scored = ui_stack.cli(
        "run", "-f", str(evaluate), *params, "-p", PROJECT, "--watch", timeout=240
    )
    assert scored.returncode == 0, scored.stdout + scored.stderr
    listed = ui_stack.cli("ops", "ls", "-p", PROJECT, "--json", timeout=60)
    runs = json.loads(listed.stdout)["runs"]
    return str(next(r["uuid"] for r in runs if r["name"] == "train-churn"))


async def test_a_model_shows_its_versions_aliases_and_lineage(
    page: Page, ui_url: str, registered: str
):
    await page.goto(f"{ui_url}projects/{PROJECT}/models")
    row = page.get_by_role("table", name="Models").locator('tr[data-model="churn"]')
    await expect(row.locator('[data-alias="production"]')).to_have_text("production: v1")
    await screenshot(page, "models")
    await row.get_by_role("link", name="churn").click()
    version = page.get_by_role("table", name="Versions").locator('tr[data-version="1"]')
    await expect(version).to_contain_text("production")
    gate = page.get_by_role("list", name="Promotion gates").locator('li[data-alias="production"]')
    await expect(gate).to_contain_text("requires auc >= 0.9: met")
    scores = page.get_by_role("table", name="Evaluation scores")
    await expect(scores).to_contain_text("0.93")
    await expect(scores).to_contain_text("holdout.csv")
    lineage = page.get_by_role("table", name="Lineage edges")
    read = lineage.locator('tr[data-relation="read"]')
    await expect(read).to_contain_text("train.csv@")
    await expect(lineage.locator('tr[data-relation="registered"]')).to_contain_text("churn v1")
    runs = page.get_by_role("table", name="Runs").locator(f'tr[data-run="{registered}"]')
    await expect(runs).to_contain_text("auc = 0.91")
    await screenshot(page, "model-lineage")
