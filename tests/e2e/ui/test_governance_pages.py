"""A project's Data page saves a retention (a write the api audits), and the Audit log page of
its organization then shows that write, with who made it and the answer."""

from __future__ import annotations

import time

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack

pytestmark = pytest.mark.asyncio(loop_scope="session")

OWNER, NAME = "governance", "demo"
PROJECT = f"{OWNER}/{NAME}"


@pytest.fixture(scope="module")
def project(ui_stack: RunningStack) -> str:
    with ui_stack.http(timeout=30) as http:
        created = http.post("/api/v1/projects", json={"owner": OWNER, "name": NAME})
    assert created.status_code in (201, 409), created.text
    return PROJECT


async def test_save_a_retention_then_read_it_in_the_audit_log(
    page: Page, ui_stack: RunningStack, ui_url: str, project: str
):
    await page.goto(f"{ui_url}projects/{project}/data")
    form = page.get_by_role("form", name="Save retention")
    await form.get_by_label("Traces (days)").fill("30")
    await form.get_by_role("button", name="Save retention").click()
    await expect(page.get_by_role("status").filter(has_text="Saved:")).to_have_text(
        "Saved: traces 30 days; the rest kept for ever."
    )
    await expect(form.get_by_label("Traces (days)")).to_have_value("30")
    await screenshot(page, "project-data")
    with ui_stack.http(timeout=30) as http:
        retention = http.get(f"/api/v1/projects/{project}/retention").json()["retention"]
    assert retention["traces"] == 30

    await (
        page.get_by_role("navigation", name="Project").get_by_role("link", name="Audit log").click()
    )
    await expect(page.get_by_role("heading", name="Audit log", level=1)).to_be_visible()
    saved = (
        page.get_by_role("table", name="Audit log")
        .locator("tr[data-event-id]")
        .filter(has_text=f"PUT /api/v1/projects/{project}/retention → 200")
    )
    deadline = time.monotonic() + 30
    while await saved.count() == 0 and time.monotonic() < deadline:  # recorded after the answer
        await page.wait_for_timeout(500)
        await page.reload()
    await expect(saved.first).to_have_attribute("data-actor", "root")
    await expect(saved.first).to_contain_text(PROJECT)
    await screenshot(page, "audit-log")

    whole = page.get_by_label(f"The whole organization {OWNER}")
    await whole.click()  # the URL holds the choice: the box shows it once the page follows
    await expect(whole).to_be_checked()
    await expect(page).to_have_url(f"{ui_url}projects/{project}/audit?scope=org")
    await expect(saved.first).to_be_visible()
