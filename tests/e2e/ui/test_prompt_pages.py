"""The prompt pages, in Chromium, on a prompt made and used by the unmodified Langfuse SDK."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import httpx
import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack, stack_env
from axonal_testing.waiting import wait_for_sync

from .conftest import API_TOKEN
from .seed import PROJECT, Seeded

pytestmark = pytest.mark.asyncio(loop_scope="session")

NAME = "support/answer"
SDK_SCRIPT = r"""
import json
from langfuse import Langfuse

lf = Langfuse()
lf.create_prompt(name="support/answer", prompt="Hi {{name}}.\nBe brief.", commit_message="first")
lf.create_prompt(name="support/answer", prompt="Hello {{name}}!\nBe brief.", labels=["production"],
                 commit_message="warmer")
prompt = lf.get_prompt("support/answer", cache_ttl_seconds=0)
with lf.start_as_current_observation(name="answer", as_type="generation", prompt=prompt,
                                     model="gpt-4o-mini", cost_details={"total": 0.25}) as g:
    trace_id = lf.get_current_trace_id()
lf.flush()
lf.shutdown()
print(json.dumps({"trace_id": trace_id}))
"""


def _prompt_used(stack: RunningStack) -> dict[str, Any]:
    made = stack.cli("keys", "create", "-p", PROJECT, "--note", "prompt page", "--json")
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
    sent: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    api = httpx.Client(
        base_url=str(stack.status["api_url"]),
        headers={"Authorization": f"Bearer {API_TOKEN}"},
        timeout=10,
    )
    path = f"/api/v1/{PROJECT}/prompt-generations/{NAME}"
    with api:
        wait_for_sync(
            lambda: api.get(path).json()["data"] or None, timeout=30, message="generation stored"
        )
    return sent


async def test_a_prompt_page_shows_versions_changes_and_generations(
    page: Page, ui_url: str, ui_stack: RunningStack, seeded: Seeded
):
    sent = _prompt_used(ui_stack)
    await page.goto(f"{ui_url}{seeded.base}/prompts")
    await page.get_by_role("link", name=NAME).click()
    await expect(page.get_by_role("heading", name=NAME)).to_be_visible()
    versions = page.get_by_role("table", name="Versions")
    newest = versions.locator('[data-version="2"]')
    await expect(newest.locator('[data-label="production"]')).to_be_visible()
    await expect(newest.locator('[data-field="generations"]')).to_have_text("1")
    changes = page.get_by_label("Changes from v1 to v2")
    await expect(changes.locator("del")).to_have_text("- Hi {{name}}.")
    await expect(changes.locator("ins")).to_have_text("+ Hello {{name}}!")
    used = page.get_by_role("table", name="Generations of v2")
    await expect(used.get_by_role("link", name="answer")).to_be_visible()
    await screenshot(page, "prompt")
    await used.get_by_role("link", name="answer").click()
    await expect(page).to_have_url(f"{ui_url}{seeded.base}/traces/{sent['trace_id']}")
