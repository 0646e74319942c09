"""A run's metric charts, a DAG's graph, a sweep's trials and the compare view, in Chromium."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot

from .seed import Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_metric_charts_have_points(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.ops['train']['uuid']}/metrics")
    # a deep link fetches its page's code beside the app's own (index.html's early script)
    await expect(page.locator('link[rel="modulepreload"][href*="MetricsTab"]')).to_have_count(1)
    for name in ("loss", "accuracy"):
        chart = page.locator(f'[aria-label="metric {name}"][data-points]')
        await expect(chart.locator("canvas").first).to_be_visible()
        assert int(await chart.get_attribute("data-points") or 0) > 0
    await screenshot(page, "run-metrics")


async def test_the_dag_graph_shows_each_op_and_opens_it(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.dag['uuid']}/graph")
    graph = page.get_by_label("Pipeline graph")
    await expect(graph).to_have_attribute("data-ops", "2")
    await expect(graph).to_have_attribute("data-edges", "1")
    for op in ("train", "evaluate"):
        badge = graph.locator(f'[data-op="{op}"] [data-status]')
        await expect(badge).to_have_attribute("data-status", "succeeded")
    await screenshot(page, "dag-graph")
    await graph.locator('[data-op="evaluate"]').get_by_role("link").first.click()
    await expect(page).to_have_url(f"{ui_url}{seeded.base}/runs/{seeded.ops['evaluate']['uuid']}")


async def test_the_sweep_lists_its_trials_with_the_best_marked(
    page: Page, ui_url: str, seeded: Seeded
):
    await page.goto(f"{ui_url}{seeded.base}/runs/{seeded.sweep['uuid']}/trials")
    table = page.get_by_role("table", name="Trials")
    await expect(table.get_by_role("row")).to_have_count(1 + len(seeded.trials))
    await expect(page.locator("[data-best]").first).not_to_have_attribute("data-best", "")
    await screenshot(page, "sweep-trials")


async def test_compare_shows_differing_params_and_overlaid_metrics(
    page: Page, ui_url: str, seeded: Seeded
):
    runs = ",".join(t["uuid"] for t in seeded.trials[:2])
    await page.goto(f"{ui_url}{seeded.base}/compare?runs={runs}")
    await expect(page.locator('tr[data-differs="true"]').first).to_be_visible()
    chart = page.locator('[aria-label="metric loss"][data-points]')
    await expect(chart.locator("canvas").first).to_be_visible()
    await screenshot(page, "compare")
