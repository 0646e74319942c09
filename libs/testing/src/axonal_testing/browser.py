"""Chromium for end-to-end UI tests: Playwright's async API driving the system's browser.

Playwright never downloads a browser here: the tests launch Debian's ``chromium``
(``/usr/bin/chromium``, installed by ``make test``), or the executable ``AXONAL_CHROMIUM``
names. The API is the async one, on pytest-asyncio's session loop: Playwright's sync API marks
its own event loop as running in the test thread for as long as it is open, which would break
every async test after it.

```python
from axonal_testing.browser import screenshot

async def test_the_ui_answers(page, stack):
    await page.goto(stack.status["ui_url"])
    await screenshot(page, "home")  # test-output/screenshots/home.png
```

Screenshots go to ``$AXONAL_TEST_OUTPUT/screenshots/`` (``test-output/`` in the folder pytest
runs from, the repository's root, by default).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page, ViewportSize

__all__ = [
    "CHROMIUM_ENV",
    "OUTPUT_ENV",
    "VIEWPORT",
    "browser",
    "chromium_executable",
    "output_dir",
    "page",
    "screenshot",
]

CHROMIUM_ENV = "AXONAL_CHROMIUM"
DEFAULT_CHROMIUM = Path("/usr/bin/chromium")
OUTPUT_ENV = "AXONAL_TEST_OUTPUT"
VIEWPORT: ViewportSize = {"width": 1400, "height": 900}

_HOW_TO_INSTALL = (
    "The end-to-end UI tests need Chromium at {path}, and it is not there. Install it with "
    "`scripts/ensure-chromium` (`make test` runs it: apt-get install chromium as root), or "
    "point {env} at a Chromium or Chrome executable."
)


def chromium_executable() -> Path:
    """The browser to launch: ``$AXONAL_CHROMIUM`` or ``/usr/bin/chromium``; the test fails
    (it is not skipped) and says how to install it when it is missing."""
    path = Path(os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM)
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(_HOW_TO_INSTALL.format(path=path, env=CHROMIUM_ENV), pytrace=False)
    return path


def output_dir() -> Path:
    """Where tests leave files for people to look at: ``$AXONAL_TEST_OUTPUT`` or
    ``test-output/`` (git ignores it)."""
    return Path(os.environ.get(OUTPUT_ENV) or "test-output").resolve()


async def screenshot(page: Page, name: str) -> Path:
    """Save the whole page as ``<output>/screenshots/<name>.png``; return the file."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "page"
    path = output_dir() / "screenshots" / f"{safe}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=path, full_page=True)
    return path


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """Headless Chromium for the session (``--no-sandbox``: tests may run as root)."""
    from playwright.async_api import async_playwright  # noqa: PLC0415 - a test-only dependency

    executable = chromium_executable()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser) -> AsyncIterator[Page]:
    """A page of its own context (no cookies or storage shared), 1400x900."""
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        yield await context.new_page()
    finally:
        await context.close()
