"""Request/reply: results, error replies and clear failures."""

import time

import pytest
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_bus.errors import NoRespondersError, Permanent, RemoteError, RpcTimeoutError
from axonal_bus.ping import ping, serve_ping
from axonal_testing.bus import make_broker, running


class Add(BaseModel):
    a: int
    b: int


class Sum(BaseModel):
    total: int


async def add(req: Add) -> Sum:
    if req.a < 0:
        raise Permanent("negative numbers are not supported")
    if req.a == 13:
        raise ZeroDivisionError("unlucky")
    return Sum(total=req.a + req.b)


@pytest.fixture
async def calculator(bus_settings):
    broker = make_broker(bus_settings, "calc")
    rpc.serve(
        broker,
        bus_settings.subjects.rpc("calc", "add"),
        queue="calc",
        request_model=Add,
        handler=add,
    )
    serve_ping(broker, bus_settings.subjects, service="calc", version="9.9")
    async with running(broker):
        yield bus_settings.subjects.rpc("calc", "add")


async def test_result(calculator, nats_client):
    assert await rpc.request(nats_client, calculator, Add(a=2, b=3), Sum) == Sum(total=5)


async def test_permanent_error_becomes_an_error_reply(calculator, nats_client):
    with pytest.raises(RemoteError, match="rejected: negative numbers") as info:
        await rpc.request(nats_client, calculator, Add(a=-1, b=3), Sum)
    assert info.value.code == "rejected"


async def test_unexpected_error_is_an_internal_error_reply_not_a_timeout(calculator, nats_client):
    started = time.monotonic()
    with pytest.raises(RemoteError, match="internal") as info:
        await rpc.request(nats_client, calculator, Add(a=13, b=0), Sum, timeout=5)
    assert time.monotonic() - started < 4  # answered, not cut by the 5 s timeout
    assert "unlucky" not in str(info.value)  # no internals leak to the caller


async def test_invalid_request_is_named(calculator, nats_client):
    class Wrong(BaseModel):
        a: str

    with pytest.raises(RemoteError, match="invalid_request") as info:
        await rpc.request(nats_client, calculator, Wrong(a="x"), Sum)
    assert "a" in info.value.remote_message


async def test_no_responders_is_immediate_and_clear(bus_settings, nats_client):
    subject = bus_settings.subjects.rpc("nobody", "home")
    with pytest.raises(NoRespondersError, match=r"no service answers on .*nobody\.home"):
        await rpc.request(nats_client, subject, Add(a=1, b=1), Sum, timeout=5)


async def test_timeout_is_clear(bus_settings, nats_client):
    subject = bus_settings.subjects.rpc("slow", "op")
    sub = await nats_client.subscribe(subject)  # listens, never answers
    with pytest.raises(RpcTimeoutError, match=r"no reply on .*slow\.op within 0\.2s"):
        await rpc.request(nats_client, subject, Add(a=1, b=1), Sum, timeout=0.2)
    await sub.unsubscribe()


async def test_ping(calculator, bus_settings, nats_client):
    reply = await ping(nats_client, bus_settings.subjects, "calc")
    assert reply.service == "calc"
    assert reply.version == "9.9"
    assert reply.status == "ok"
