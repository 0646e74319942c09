"""Which failures are a dependency that is down (waited out) and which are the handler's."""

import asyncio

import asyncpg
import pytest

from axonal_bus.errors import Retryable, Unavailable
from axonal_bus.outage import is_outage, retry_while_down


async def _refused_by_the_driver() -> BaseException:
    try:
        await asyncpg.connect("postgresql://postgres@127.0.0.1:1/postgres", timeout=1)
    except ConnectionError as exc:
        return exc
    raise AssertionError("port 1 accepted a connection")


async def test_the_database_driver_refused_is_an_outage():
    assert is_outage(await _refused_by_the_driver())


@pytest.mark.parametrize(
    "error",
    [Unavailable("down"), asyncpg.CannotConnectNowError("starting up")],
    ids=["unavailable", "starting-up"],
)
def test_unavailable_and_the_servers_own_answers_are_outages(error):
    assert is_outage(error)


@pytest.mark.parametrize(
    "error",
    [ConnectionError("webhook endpoint refused"), Retryable("busy"), ValueError("bad")],
    ids=["other-connection", "retryable", "bug"],
)
def test_other_failures_are_the_handlers(error):
    assert not is_outage(error)


async def test_retry_while_down_keeps_the_message_until_it_works():
    attempts: list[int] = []
    kept: list[int] = []

    async def attempt() -> None:
        attempts.append(1)
        if len(attempts) < 3:
            raise Unavailable("still down")

    async def still_working() -> None:
        kept.append(1)

    await asyncio.wait_for(retry_while_down(attempt, still_working), 5)
    assert (len(attempts), len(kept)) == (3, 2)
    with pytest.raises(ValueError, match="bad"):
        await retry_while_down(_raise(ValueError("bad")), still_working)


def _raise(error: Exception):
    async def attempt() -> None:
        raise error

    return attempt
