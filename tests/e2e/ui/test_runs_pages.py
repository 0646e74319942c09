"""The runs pages, in Chromium, on seeded runs: what a person sees and does."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot

from .conftest import API_TOKEN
from .seed import PROJECT, Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_projects_page_links_to_the_seeded_project(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(ui_url)
    link = page.get_by_role("link", name=PROJECT)
    await expect(link).to_be_visible()
    await screenshot(page, "projects")
    await link.click()
    await expect(page.get_by_role("heading", name="Runs")).to_be_visible()


async def test_runs_list_shows_every_run_with_its_status(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs")
    rows = page.locator("[data-run-row]")
    for run in [seeded.dag, seeded.sweep, *seeded.ops.values(), *seeded.trials]:
        await expect(page.locator(f'[data-run-row="{run["uuid"]}"]')).to_be_visible()
    dag_row = page.locator(f'[data-run-row="{seeded.dag["uuid"]}"]')
    await expect(dag_row.locator("[data-status]")).to_have_attribute("data-status", "succeeded")
    await screenshot(page, "runs")
    await page.goto(f"{ui_url}{seeded.base}/runs?kind=matrix")
    await expect(rows).to_have_count(1)


async def test_a_run_overview_has_its_timeline_and_compiled_spec(
    page: Page, ui_url: str, seeded: Seeded
):
    train = seeded.ops["train"]
    await page.goto(f"{ui_url}{seeded.base}/runs/{train['uuid']}")
    await expect(page.get_by_role("heading", level=1)).to_have_text("train")
    await expect(page.locator("header[data-status]")).to_have_attribute("data-status", "succeeded")
    timeline = page.locator("li[data-status]")
    await expect(timeline.last).to_have_attribute("data-status", "succeeded")
    await expect(page.get_by_text("run_kind: job").first).to_be_visible()
    await screenshot(page, "run-overview")


async def test_a_run_logs_are_shown_and_searchable(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.ops['train']['uuid']}/logs")
    log = page.get_by_role("log", name="Log lines")
    await expect(log).to_contain_text("trained 200 steps")
    await page.get_by_label("Search the logs").fill("loss")
    await expect(page.get_by_test_id("log-matches")).to_contain_text("1 of")
    await screenshot(page, "run-logs")


async def test_artifacts_are_listed_and_previewed(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.ops['train']['uuid']}/artifacts")
    for name in ("notes", "digits", "predictions", "roc", "confusion"):
        await expect(page.get_by_role("button", name=f"Preview {name}")).to_be_visible()
    await page.get_by_role("button", name="Preview confusion").click()
    cells = page.get_by_role("region", name="Preview of confusion").locator("td[data-value]")
    await expect(cells).to_have_count(4)
    await expect(cells.first).to_have_attribute("data-value", "8")
    await screenshot(page, "run-artifacts-confusion")
    await page.get_by_role("button", name="Preview roc").click()
    await expect(
        page.get_by_role("region", name="Preview of roc").locator("canvas")
    ).to_be_visible()
    await page.get_by_role("button", name="Preview predictions").click()
    await expect(page.get_by_role("region", name="Preview of predictions")).to_contain_text("dog")
    await page.get_by_role("button", name="Preview digits").click()
    await expect(
        page.get_by_role("region", name="Preview of digits").locator("img")
    ).to_be_visible()
    await screenshot(page, "run-artifacts")


async def test_lineage_tab_lists_the_run_outputs(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.ops['train']['uuid']}/lineage")
    await expect(page.get_by_role("heading", name="Outputs (downstream)")).to_be_visible()
    await screenshot(page, "run-lineage")


async def test_restart_is_confirmed_and_opens_the_new_run(page: Page, ui_url: str, seeded: Seeded):
    evaluate = seeded.ops["evaluate"]
    await page.goto(f"{ui_url}{seeded.base}/runs/{evaluate['uuid']}")
    actions = page.get_by_role("group", name="Run actions")
    await actions.get_by_role("button", name="Restart").click()
    dialog = page.get_by_role("dialog", name="Restart")
    await expect(dialog).to_be_visible()
    await dialog.get_by_role("button", name="Restart").click()
    await expect(page).not_to_have_url(f"{ui_url}{seeded.base}/runs/{evaluate['uuid']}")
    await expect(page.locator("header[data-status]")).to_have_attribute(
        "data-status", "succeeded", timeout=60_000
    )
    await screenshot(page, "run-restarted")


async def test_the_dark_theme_is_kept_across_pages(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.dag['uuid']}/graph")
    await page.get_by_role("button", name="Switch to the dark theme").click()
    await expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    await page.get_by_role("link", name="Traces").click()
    await expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    await page.goto(f"{ui_url}{seeded.base}/traces/{seeded.trace_id}")
    await expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    await expect(page.get_by_role("tree", name="Observations")).to_be_visible()
    await screenshot(page, "trace-dark")


async def test_without_the_token_the_ui_asks_for_it(browser, ui_url: str, seeded: Seeded):
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(f"{ui_url}{seeded.base}/runs")
        prompt = page.get_by_role("form", name="API token")
        await expect(prompt).to_be_visible()
        await screenshot(page, "token-prompt")
        await prompt.get_by_label("Token").fill(API_TOKEN)
        await prompt.get_by_role("button", name="Use token").click()
        await expect(page.locator(f'[data-run-row="{seeded.dag["uuid"]}"]')).to_be_visible()
    finally:
        await context.close()
