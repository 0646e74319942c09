"""The scheduler's settings (read from the stack's environment) and its agent deadlines."""

import asyncio

from axonal_scheduler.context import Deadlines
from axonal_scheduler.settings import SchedulerSettings
from axonal_testing.waiting import wait_for


def test_queue_settings_keep_their_environment_names(monkeypatch):
    monkeypatch.setenv("AXONAL_SCHEDULER_QUEUE_CONCURRENCY", '{"gpu": 2}')
    monkeypatch.setenv("AXONAL_SCHEDULER_DEFAULT_CONCURRENCY", "7")
    monkeypatch.setenv("AXONAL_SCHEDULER_QUEUE_PRIORITY", '{"urgent": 10}')
    monkeypatch.setenv("AXONAL_NAMESPACE", "ns1")
    settings = SchedulerSettings()
    assert (settings.concurrency("gpu"), settings.concurrency("cpu")) == (2, 7)
    assert (settings.priority("urgent"), settings.priority("default")) == (10, 0)
    assert settings.namespace == "ns1"  # the shared settings keep their own names


def test_queue_settings_default():
    settings = SchedulerSettings.model_validate({})
    assert (settings.concurrency("any"), settings.priority("any")) == (50, 0)


async def test_arming_an_agent_again_replaces_its_deadline():
    deadlines = Deadlines()
    fired: list[str] = []

    async def work(name: str) -> None:
        fired.append(name)

    deadlines.arm("a", 0.01, lambda: work("first"))
    deadlines.arm("a", 0.02, lambda: work("second"))
    deadlines.arm("b", 0.01, lambda: work("b"))
    # "first" was due before "second": had it not been replaced it would be there by now
    await wait_for(lambda: "second" in fired, timeout=5, message="the second deadline")
    assert sorted(fired) == ["b", "second"]
    await deadlines.close()


async def test_closing_cancels_pending_and_running_deadlines():
    deadlines = Deadlines()
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def slow() -> None:
        started.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    async def never() -> None:
        raise AssertionError("a pending deadline ran after close")

    deadlines.arm("running", 0.0, slow)
    deadlines.arm("pending", 5.0, never)
    await asyncio.wait_for(started.wait(), 1)
    await deadlines.close()
    assert cancelled.is_set()
