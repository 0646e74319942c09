"""Background loops stop even when a cancellation is swallowed (Python 3.11 ``wait_for``)."""

import asyncio

import pytest

from axonal_bus.aio import cancel_and_wait, finish_despite_cancellation, wait_event


async def _swallows_the_first_cancellation(swallowed: list[int]) -> None:
    while True:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed.append(1)  # what 3.11's wait_for does when its future just finished


async def test_a_swallowed_cancellation_is_repeated_until_the_task_ends():
    swallowed: list[int] = []
    task = asyncio.create_task(_swallows_the_first_cancellation(swallowed))
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.wait({task}, timeout=0.1)
    assert not task.done()  # one cancel is not enough: awaiting the task would hang
    await asyncio.wait_for(cancel_and_wait([task]), 5)
    assert task.cancelled()
    assert swallowed == [1]


async def test_cancel_and_wait_of_finished_and_no_tasks():
    done = asyncio.create_task(asyncio.sleep(0))
    await done
    await cancel_and_wait([done])
    await cancel_and_wait([])


async def test_wait_event_says_whether_the_event_was_set():
    event = asyncio.Event()
    assert await wait_event(event, 0.01) is False
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await wait_event(event, 5) is True


async def test_wait_event_can_be_cancelled():
    task = asyncio.create_task(wait_event(asyncio.Event(), 10))
    await asyncio.sleep(0)
    task.cancel()
    await asyncio.wait({task}, timeout=1)
    assert task.cancelled()


async def test_clean_up_runs_to_its_end_through_repeated_cancellations():
    exited = asyncio.Event()  # the child process exits when the test says so
    stopped: list[str] = []

    async def stop_child() -> str:
        await exited.wait()
        stopped.append("child")
        return "stopped"

    async def owner() -> str:
        return await finish_despite_cancellation(stop_child())

    task = asyncio.create_task(owner())
    for _ in range(3):  # cancelled again and again, as cancel_and_wait does, while it stops
        await asyncio.sleep(0)
        task.cancel()
    await asyncio.sleep(0)
    assert not task.done()
    exited.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert stopped == ["child"]


async def test_without_cancellation_the_result_comes_back():
    async def work() -> int:
        await asyncio.sleep(0)
        return 7

    assert await finish_despite_cancellation(work()) == 7
