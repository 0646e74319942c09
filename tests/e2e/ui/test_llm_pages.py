"""The LLM pages, in Chromium, on a trace sent by the unmodified Langfuse SDK."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot

from .seed import Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_traces_list_shows_tokens_and_cost(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/traces")
    row = page.get_by_role("row").filter(has=page.locator(f'[data-trace-id="{seeded.trace_id}"]'))
    await expect(row).to_contain_text("1,500")
    await expect(row).to_contain_text("$0.00045")
    await screenshot(page, "traces")
    await page.goto(f"{ui_url}{seeded.base}/traces?user=nobody")
    await expect(page.locator(f'[data-trace-id="{seeded.trace_id}"]')).to_have_count(0)


async def test_a_trace_shows_its_observation_tree_with_durations_and_cost(
    page: Page, ui_url: str, seeded: Seeded
):
    await page.goto(f"{ui_url}{seeded.base}/traces/{seeded.trace_id}")
    tree = page.get_by_role("tree", name="Observations")
    names = tree.locator("[data-observation-name]")
    await expect(names).to_have_count(3)
    assert {await n.get_attribute("data-observation-name") for n in await names.all()} == {
        "answer", "retrieve", "llm",
    }  # fmt: skip
    llm = tree.locator('[data-observation-name="llm"]')
    assert await llm.get_attribute("aria-level") == "2"
    assert await llm.get_attribute("data-duration-ms") != ""
    assert float(await llm.get_attribute("data-cost") or 0) == pytest.approx(0.00045)
    await llm.click()
    detail = page.get_by_role("region", name="Observation llm")
    await expect(detail.locator('[data-field="model"]')).to_have_text("gpt-4o-mini")
    await expect(detail).to_contain_text("Paris")
    await expect(page.locator('[data-score-name="correctness"]').first).to_be_visible()
    await screenshot(page, "trace")


async def test_sessions_users_and_scores(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/sessions")
    await page.locator('[data-session-id="s-1"]').click()
    await expect(page.get_by_role("heading", name="Session s-1")).to_be_visible()
    await expect(page.locator(f'[data-trace-id="{seeded.trace_id}"]')).to_be_visible()
    await screenshot(page, "session")
    await page.goto(f"{ui_url}{seeded.base}/users")
    user = page.locator('[data-user-id="u-42"]')
    await expect(user).to_be_visible()
    await screenshot(page, "users")
    await user.click()
    await expect(page).to_have_url(f"{ui_url}{seeded.base}/traces?user=u-42")
    await page.goto(f"{ui_url}{seeded.base}/scores")
    await expect(page.locator('[data-score-name="correctness"]')).to_be_visible()
    await expect(page.locator('[data-score-value="0.9"]')).to_be_visible()
    await screenshot(page, "scores")
