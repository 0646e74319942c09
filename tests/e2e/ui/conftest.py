"""The UI's end-to-end tests share one stack, seeded once with real data.

The stack is their own: its notifications service gives up on a delivery after two quick
retries, so a failed delivery shows within seconds, and a receiver's open circuit closes again
after a second, so a replay is sent at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from axonal_testing.stack import RunningStack, running_stack

from .seed import Receiver, Seeded, seed

UI_STACK = {
    "AXONAL_NOTIFICATIONS_RETRY_SCHEDULE": "0.2,0.2",
    "AXONAL_NOTIFICATIONS_BREAKER_COOLDOWN": "1",
}


@pytest.fixture(scope="session")
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    yield found
    found.close()


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
