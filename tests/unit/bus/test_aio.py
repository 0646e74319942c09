"""Background loops stop even when a cancellation is swallowed (Python 3.11 ``wait_for``)."""

import asyncio

from axonal_bus.aio import cancel_and_wait, wait_event


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
