"""The events and settings pages, in Chromium: a failed webhook delivery replayed from the
UI, and an API key whose secret is shown once."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.receiver import Receiver

from .seed import AUTOMATED, CONNECTION, Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_replay_changes_the_delivery_log(
    page: Page, ui_url: str, seeded: Seeded, receiver: Receiver
):
    await page.goto(f"{ui_url}{seeded.base}/webhooks")
    hook = page.locator(f'[data-webhook-id="{seeded.webhook_id}"]')
    await expect(hook).to_be_visible()
    await screenshot(page, "webhooks")
    await hook.get_by_role("link").first.click()
    log = page.get_by_role("table", name="Deliveries")
    dead = log.locator('tr[data-delivery-id][data-status="dead"]')
    await expect(dead.first).to_be_visible(timeout=30_000)
    await expect(dead.first.locator('[data-response-code="503"]')).to_be_visible()
    delivery = await dead.first.get_attribute("data-delivery-id")
    attempts = int(await dead.first.get_attribute("data-attempts") or 0)
    await screenshot(page, "webhook-deliveries-failed")

    receiver.status = 200
    row = log.locator(f'tr[data-delivery-id="{delivery}"]')
    await row.get_by_role("button", name="Replay").click()
    dialog = page.get_by_role("dialog").filter(has_text=f"Send delivery {delivery}")
    await dialog.get_by_role("button", name="Replay").click()
    await expect(row).to_have_attribute("data-status", "delivered", timeout=30_000)
    await expect(row).to_have_attribute("data-attempts", str(attempts + 1))
    await screenshot(page, "webhook-deliveries-replayed")


async def test_an_api_key_secret_is_shown_once(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/api-keys")
    keys = page.get_by_role("table", name="API keys").locator("tr[data-public-key]")
    await expect(keys.first).to_be_visible()  # the seed's, and those other pages' tests made
    before = await keys.count()
    await page.get_by_text("New API key").click()
    form = page.get_by_role("form", name="Create API key")
    await form.get_by_label("Note").fill("from the UI")
    await form.get_by_role("button", name="Create API key").click()
    dialog = page.get_by_role("dialog", name="The new key's secret")
    await expect(dialog.get_by_test_id("secret")).to_contain_text("sk-")
    await screenshot(page, "api-key-created")
    await dialog.get_by_role("button", name="I have stored it").click()
    await expect(dialog).to_be_hidden()
    await expect(keys).to_have_count(before + 1)
    await expect(page.get_by_test_id("secret")).to_have_count(0)


async def test_a_connection_lists_its_deliveries(page: Page, ui_url: str, seeded: Seeded):
    await page.goto(f"{ui_url}{seeded.base}/connections")
    await page.locator(f'[data-connection="{CONNECTION}"]').get_by_role("link").first.click()
    deliveries = page.get_by_role("table", name="Deliveries").locator("tr[data-delivery-id]")
    await expect(deliveries.first).to_have_attribute("data-status", re.compile(r"\w+"))
    assert await deliveries.count() >= len(seeded.ops)
    await screenshot(page, "connection-deliveries")


@pytest.mark.parametrize("path", ["connections", "automations", "alerts", "llm-models"])
async def test_settings_pages_render_without_errors(
    page: Page, ui_url: str, seeded: Seeded, path: str
):
    await page.goto(f"{ui_url}{seeded.base}/{path}")
    await expect(page.get_by_role("heading", level=1)).to_be_visible()
    await expect(page.get_by_role("alert")).to_have_count(0)
    await screenshot(page, path)


async def test_an_automation_lists_its_firing_and_the_run_it_started(
    page: Page, ui_url: str, seeded: Seeded
):
    await page.goto(f"{ui_url}projects/{AUTOMATED}/automations")
    rule = page.locator(f'[data-automation-id="{seeded.automation_id}"]')
    await rule.get_by_role("link", name="refresh").click()
    firing = page.get_by_role("table", name="Firings").locator("tr[data-outcome]")
    await expect(firing).to_have_count(1)
    await screenshot(page, "automation-firings")
    await firing.get_by_role("link").last.click()
    await expect(page.get_by_role("heading", level=1)).to_be_visible()
    await expect(page).to_have_url(re.compile(rf"projects/{AUTOMATED}/runs/[0-9a-f]{{32}}$"))
