"""The UI's end-to-end tests share one stack, seeded once with real data.

The stack is their own, with an api token: the UI asks for it once per tab, and ``page`` here
starts with it in the tab's session storage, as if typed in; ``signed_out_page`` has none, and
signs in on the UI's sign-in page. Its notifications service gives
up on a delivery after two quick retries, so a failed delivery shows within seconds, and a
receiver's open circuit closes again after a second, so a replay is sent at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page

from axonal_testing.browser import VIEWPORT
from axonal_testing.receiver import Receiver, receiving
from axonal_testing.stack import RunningStack, running_stack

from .seed import Seeded, seed

API_TOKEN = "ui-tests-token"
UI_STACK = {
    "AXONAL_API_TOKEN": API_TOKEN,
    "AXONAL_NOTIFICATIONS_RETRY_SCHEDULE": "0.2,0.2",
    "AXONAL_NOTIFICATIONS_BREAKER_COOLDOWN": "1",
}


@pytest.fixture(scope="session")
def receiver() -> Iterator[Receiver]:
    with receiving(503) as found:  # failing until a test makes it answer
        yield found


@pytest.fixture(scope="session")
def ui_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningStack]:
    with running_stack(tmp_path_factory, "ui-stack", UI_STACK) as running:
        yield running


@pytest.fixture(scope="session")
def seeded(ui_stack: RunningStack, receiver: Receiver) -> Seeded:
    return seed(ui_stack, receiver)


@pytest.fixture(scope="session")
def ui_url(ui_stack: RunningStack) -> str:
    return str(ui_stack.status["ui_url"])


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser) -> AsyncIterator[Page]:
    """A page of its own context whose tab already holds the api token."""
    context = await browser.new_context(viewport=VIEWPORT)
    await context.add_init_script(f"sessionStorage.setItem('axonal.token', '{API_TOKEN}')")
    try:
        yield await context.new_page()
    finally:
        await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def signed_out_page(browser: Browser) -> AsyncIterator[Page]:
    """A page of its own context with no token and no session: the UI asks to sign in."""
    context = await browser.new_context(viewport=VIEWPORT)
    try:
        yield await context.new_page()
    finally:
        await context.close()
