"""Signing in on the UI's sign-in page with the home's administrator (a web session: its
cookie, and the CSRF header on writes), creating a user, and granting it a role on a project's
Members page."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROJECT = "access/demo"
USER = "ui-reader"


@pytest.fixture(scope="module")
def project(ui_stack: RunningStack) -> str:
    owner, name = PROJECT.split("/")
    with ui_stack.http(timeout=30) as http:
        created = http.post("/api/v1/projects", json={"owner": owner, "name": name})
    assert created.status_code in (201, 409), created.text
    return PROJECT


async def test_sign_in_then_grant_a_role(
    signed_out_page: Page, ui_stack: RunningStack, ui_url: str, project: str
):
    page = signed_out_page
    admin = json.loads((ui_stack.home / "admin.json").read_text())
    await page.goto(f"{ui_url}projects/{project}/members")
    form = page.get_by_role("form", name="Sign in")
    await expect(form).to_be_visible()
    await screenshot(page, "sign-in")
    await form.get_by_label("User name").fill(admin["username"])
    await form.get_by_label("Password").fill("not the password")
    await form.get_by_role("button", name="Sign in").click()
    await expect(form.get_by_role("alert")).to_contain_text("wrong user name or password")
    await form.get_by_label("Password").fill(admin["password"])
    await form.get_by_role("button", name="Sign in").click()
    await expect(page.locator(f'[data-signed-in="{admin["username"]}"]')).to_be_visible()
    await expect(page.get_by_role("heading", name="Members", level=1)).to_be_visible()
    cookies = {c["name"]: c for c in await page.context.cookies()}
    assert cookies["axonal_session"]["httpOnly"]
    assert await page.evaluate("sessionStorage.getItem('axonal.token')") is None

    await page.get_by_role("banner").get_by_role("link", name="Users").click()
    await page.get_by_text("New user or service account").click()
    create = page.get_by_role("form", name="Create user")
    await create.locator('[data-field="name"] input').fill(USER)
    await create.get_by_label("Password").fill("a long password")
    await create.get_by_role("button", name="Create user").click()
    await expect(page.locator(f'[data-principal="{USER}"]')).to_be_visible()

    await page.goto(f"{ui_url}projects/{project}/members")
    # nobody holds a role yet, so the form to grant one is open
    await expect(page.get_by_text("Nobody holds a role here yet")).to_be_visible()
    grant = page.get_by_role("form", name="Grant role")
    await grant.get_by_label("User or service account").fill(USER)
    await grant.get_by_label("Role").select_option("viewer")
    await grant.get_by_role("button", name="Grant role").click()
    row = page.get_by_role("table", name="Members").locator(f'[data-member="{USER}"]')
    await expect(row).to_have_attribute("data-role", "viewer")
    await row.get_by_label(f"Role of {USER}").select_option("member")
    await expect(row).to_have_attribute("data-role", "member")
    await screenshot(page, "members")
    with ui_stack.http(timeout=30) as http:
        members = http.get(f"/api/v1/{project}/members").json()["members"]
    assert {"principal": USER, "kind": "user", "role": "member", "project": "demo"} in members

    await page.get_by_role("button", name="Sign out").click()
    await expect(page.get_by_role("form", name="Sign in")).to_be_visible()
    assert "axonal_session" not in {c["name"] for c in await page.context.cookies()}
