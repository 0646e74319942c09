"""The Schedules page and a schedule run's page, in Chromium: an interval schedule that fires
its two runs and finishes, and a minutely cron schedule that is paused, resumed, backfilled and
removed from its row, in a project of their own (the demo project's runs lists stay as seeded)."""

from __future__ import annotations

import json
import re
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROJECT = "ui/schedules"
TICK = [sys.executable, "-c", "print('tick')"]


def _scheduled(stack: RunningStack, folder: Path, name: str, schedule: str) -> str:
    """Submit an operation with a `schedule` section through the CLI; its run's uuid."""
    source = folder / f"{name}.yaml"
    source.write_text(
        f"""
version: 1.1
kind: operation
name: {name}
schedule: {schedule}
component:
  run:
    kind: job
    container: {{image: python, command: {json.dumps(TICK)}}}
"""
    )
    submitted: dict[str, Any] = stack.cli_json("run", "-f", str(source), "-p", PROJECT)
    return str(submitted["uuid"])


def _schedule(stack: RunningStack, uuid: str) -> dict[str, Any]:
    listed = stack.cli_json("schedules", "ls", "-p", PROJECT)["schedules"]
    return next(item for item in listed if item["run_uuid"] == uuid)


async def test_schedules_are_listed_paused_resumed_backfilled_and_show_their_runs(
    page: Page, ui_url: str, ui_stack: RunningStack, tmp_path: Path
):
    created = ui_stack.cli("project", "create", PROJECT)
    assert created.returncode == 0, created.stderr
    every = _scheduled(ui_stack, tmp_path, "every-2s", "{kind: interval, frequency: 2, maxRuns: 2}")
    cron = _scheduled(
        ui_stack, tmp_path, "minutely", "{kind: cron, cron: '* * * * *', timezone: Europe/Paris}"
    )
    base = f"projects/{PROJECT}"
    await page.goto(f"{ui_url}{base}/runs")
    nav = page.get_by_role("navigation", name="Project")
    await nav.get_by_role("link", name="Schedules", exact=True).click()
    await expect(page).to_have_url(f"{ui_url}{base}/schedules")

    table = page.get_by_role("table", name="Schedules")
    minutely = table.locator(f'tr[data-schedule="{cron}"]')
    await expect(minutely.get_by_role("link", name="minutely")).to_be_visible()
    await expect(minutely).to_contain_text("cron * * * * * (Europe/Paris)")
    next_fire = minutely.locator(".next-fire time")
    await expect(next_fire).to_have_text(re.compile(r"^(in \d+ s|in 1 min|now)$"))
    slot = datetime.fromisoformat(str(await next_fire.get_attribute("datetime")))
    assert (slot.second, slot.microsecond) == (0, 0), slot  # the next minute boundary
    await expect(minutely.locator("[data-state]")).to_have_attribute("data-state", "active")

    interval = table.locator(f'tr[data-schedule="{every}"]')
    await expect(interval).to_contain_text("every 2 s")
    await expect(interval.locator("[data-fired]")).to_have_text("2 / 2", timeout=30_000)
    await expect(interval.locator("[data-state]")).to_have_attribute(
        "data-state", "finished", timeout=30_000
    )
    await screenshot(page, "schedules")

    await minutely.get_by_role("button", name="Pause").click()
    await expect(minutely.locator("[data-state]")).to_have_attribute("data-state", "paused")
    assert _schedule(ui_stack, cron)["paused"] is True
    await minutely.get_by_role("button", name="Resume").click()
    await expect(minutely.locator("[data-state]")).to_have_attribute("data-state", "active")
    assert _schedule(ui_stack, cron)["paused"] is False

    # minute-aligned local times: three slots of the minutely cron whatever the browser's zone
    day = (date.today() - timedelta(days=1)).isoformat()
    await minutely.locator("summary", has_text="Backfill").click()
    form = minutely.get_by_role("form", name="Backfill minutely")
    await form.get_by_label("From").fill(f"{day}T10:00")
    await form.get_by_label("To").fill(f"{day}T10:02")
    await form.get_by_role("button", name="Backfill").click()
    await expect(form.get_by_role("status")).to_have_text("Created 3 runs (3 slots in the window).")

    await interval.get_by_role("link", name="every-2s").click()
    await expect(page).to_have_url(f"{ui_url}{base}/runs/{every}")
    panel = page.get_by_role("region", name="Schedule", exact=True)
    await expect(panel).to_contain_text("every 2 s")
    await expect(panel.locator("[data-fired]")).to_have_text("2 / 2")
    fired = panel.get_by_role("table", name="Fired runs")
    await expect(fired.locator("tr[data-run-row]")).to_have_count(2)
    await expect(fired.locator('[data-status="succeeded"]')).to_have_count(2, timeout=30_000)
    await screenshot(page, "schedule-run")

    await page.go_back()
    await minutely.get_by_role("button", name="Remove").click()
    dialog = page.get_by_role("dialog", name="Remove")
    await dialog.get_by_role("button", name="Remove").click()
    await expect(minutely.locator("[data-state]")).to_have_attribute(
        "data-state", "stopped", timeout=30_000
    )
