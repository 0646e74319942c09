"""Request/reply: results, error replies with their codes, and clear failures."""

import asyncio
import time

import pytest
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_bus.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NoRespondersError,
    NotFound,
    Permanent,
    RemoteError,
    Retryable,
    RpcTimeoutError,
    Unavailable,
)
from axonal_bus.ping import ping, serve_ping
from axonal_events import ErrorCode, Rpc
from axonal_testing.bus import make_broker, running
from axonal_testing.waiting import wait_for


class Add(BaseModel):
    a: int
    b: int


class Sum(BaseModel):
    total: int


ADD = Rpc("calc", "add", Add, Sum)
#: What ``add`` raises for a given ``a``, and the code each must be answered with.
RAISED = {
    -1: (Permanent("negative numbers are not supported"), ErrorCode.INVALID),
    -2: (Invalid("b must be even"), ErrorCode.INVALID),
    -3: (NotFound("no such number"), ErrorCode.NOT_FOUND),
    -4: (Conflict("taken"), ErrorCode.CONFLICT),
    -5: (Forbidden("not yours"), ErrorCode.FORBIDDEN),
    -6: (Unavailable("the abacus is down"), ErrorCode.UNAVAILABLE),
    -7: (Retryable("busy"), ErrorCode.UNAVAILABLE),
}


async def add(req: Add) -> Sum:
    if req.a in RAISED:
        raise RAISED[req.a][0]
    if req.a == 13:
        raise ZeroDivisionError("unlucky")
    return Sum(total=req.a + req.b)


async def answers_ping(nc, subjects) -> bool:
    try:
        await ping(nc, subjects, "calc")
    except NoRespondersError:
        return False
    return True


@pytest.fixture
async def calculator(bus_settings, nats_client):
    broker = make_broker(bus_settings, "calc")
    rpc.serve(broker, bus_settings.subjects, ADD, add, queue="calc")
    serve_ping(broker, bus_settings.subjects, service="calc", version="9.9")
    async with running(broker):
        # As a caller would: the service is up once the caller's connection reaches it (the
        # full suite's busy server once answered a first call with "no responders").
        await wait_for(lambda: answers_ping(nats_client, bus_settings.subjects), timeout=5)
        yield bus_settings.subjects


async def test_result(calculator, nats_client):
    assert await rpc.call(nats_client, calculator, ADD, Add(a=2, b=3)) == Sum(total=5)


@pytest.mark.parametrize("a", sorted(RAISED))
async def test_an_error_is_answered_with_the_code_of_its_type(calculator, nats_client, a):
    raised, code = RAISED[a]
    with pytest.raises(RemoteError) as info:
        await rpc.call(nats_client, calculator, ADD, Add(a=a, b=3))
    assert info.value.code is code
    assert info.value.remote_message == str(raised)


async def test_unexpected_error_is_an_internal_error_reply_not_a_timeout(calculator, nats_client):
    started = time.monotonic()
    with pytest.raises(RemoteError, match="internal") as info:
        await rpc.call(nats_client, calculator, ADD, Add(a=13, b=0), timeout=5)
    assert time.monotonic() - started < 4  # answered, not cut by the 5 s timeout
    assert info.value.code is ErrorCode.INTERNAL
    assert "unlucky" not in str(info.value)  # no internals leak to the caller


async def test_invalid_request_is_named(calculator, nats_client):
    class Wrong(BaseModel):
        a: str

    wrong = Rpc("calc", "add", Wrong, Sum)
    with pytest.raises(RemoteError) as info:
        await rpc.call(nats_client, calculator, wrong, Wrong(a="x"))
    assert info.value.code is ErrorCode.INVALID
    assert "a" in info.value.remote_message


async def test_no_responders_is_immediate_and_clear(bus_settings, nats_client):
    nobody = Rpc("nobody", "home", Add, Sum)
    with pytest.raises(NoRespondersError, match=r"no service answers on .*nobody\.home"):
        await rpc.call(nats_client, bus_settings.subjects, nobody, Add(a=1, b=1), timeout=5)


async def test_timeout_is_clear(bus_settings, nats_client):
    slow = Rpc("slow", "op", Add, Sum)
    sub = await nats_client.subscribe(slow.subject(bus_settings.subjects))  # never answers
    with pytest.raises(RpcTimeoutError, match=r"no reply on .*slow\.op within 0\.2s"):
        await rpc.call(nats_client, bus_settings.subjects, slow, Add(a=1, b=1), timeout=0.2)
    await sub.unsubscribe()


async def test_ping(calculator, bus_settings, nats_client):
    reply = await ping(nats_client, bus_settings.subjects, "calc")
    assert reply.service == "calc"
    assert reply.version == "9.9"
    assert reply.status == "ok"


@pytest.mark.parametrize("workers", [1, 3])
async def test_a_server_answers_up_to_its_workers_at_once(bus_settings, nats_client, workers):
    """Each call waits until three are in flight: only a server answering three at once
    answers them; one answering in order leaves them waiting (and the callers time out)."""
    all_in = asyncio.Event()
    arrived = 0

    async def gathered(req: Add) -> Sum:
        nonlocal arrived
        arrived += 1
        if arrived == 3:
            all_in.set()
        await asyncio.wait_for(all_in.wait(), timeout=2)
        return Sum(total=req.a + req.b)

    broker = make_broker(bus_settings, "gather")
    gather = Rpc("gather", "add", Add, Sum)
    rpc.serve(broker, bus_settings.subjects, gather, gathered, queue="gather", workers=workers)
    async with running(broker):
        calls = [
            rpc.call(nats_client, bus_settings.subjects, gather, Add(a=i, b=1), timeout=3)
            for i in range(3)
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)
    if workers == 3:
        assert results == [Sum(total=1), Sum(total=2), Sum(total=3)]
    else:
        assert all(isinstance(r, RemoteError | RpcTimeoutError) for r in results), results
