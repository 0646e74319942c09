"""The component hub pages, in Chromium: a component pushed with the CLI is listed with its
tags, and its page shows its inputs, outputs and YAML."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from playwright.async_api import Page, expect

from axonal_testing.browser import screenshot
from axonal_testing.stack import RunningStack

pytestmark = pytest.mark.asyncio(loop_scope="session")

TRAINER = """\
version: 1.1
kind: component
name: trainer
description: Trains the churn model.
inputs:
- {name: lr, type: float, value: 0.1, isOptional: true, description: learning rate}
outputs:
- {name: loss, type: float, isOptional: true}
run: {kind: job, container: {image: python, command: [echo, "{{ lr }}"]}}
"""


def push(stack: RunningStack, folder: Path, ref: str, content: str) -> None:
    path = folder / "component.yaml"
    path.write_text(content)
    pushed = stack.cli("hub", "push", "-f", str(path), "--name", ref, timeout=60)
    assert pushed.returncode == 0, pushed.stderr


async def test_a_pushed_component_is_listed_and_shown(
    page: Page, ui_url: str, ui_stack: RunningStack, tmp_path: Path
):
    owner = f"ui{uuid.uuid4().hex[:6]}"
    push(ui_stack, tmp_path, f"{owner}/trainer:v1", TRAINER)
    push(ui_stack, tmp_path, f"{owner}/trainer:v2", TRAINER.replace("0.1", "0.2"))

    await page.goto(f"{ui_url}hub")
    row = page.get_by_role("table", name="Components").locator(
        f'tr[data-component="{owner}/trainer"]'
    )
    await expect(row.get_by_role("link", name="v2 (latest)")).to_be_visible()
    await expect(row.get_by_role("link", name="v1", exact=True)).to_be_visible()
    await expect(page.locator('tr[data-component="axonal/tensorboard"]')).to_be_visible()
    await screenshot(page, "hub")

    await row.get_by_role("link", name="v1", exact=True).click()
    await expect(page.get_by_role("heading", name=f"{owner}/trainer:v1")).to_be_visible()
    inputs = page.get_by_role("table", name="Inputs")
    await expect(inputs.get_by_role("row", name="lr float 0.1 learning rate")).to_be_visible()
    await expect(page.get_by_role("table", name="Outputs")).to_contain_text("loss")
    await expect(page.get_by_label("Component YAML")).to_contain_text("Trains the churn model.")
    await screenshot(page, "hub-component")
