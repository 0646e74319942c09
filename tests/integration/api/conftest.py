"""The api app on real NATS, with the scheduler and identity played by fakes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio
import uvicorn

from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_testing.api_fakes import OPERATOR, OPERATOR_TOKEN, FakePlatform
from axonal_testing.bus import make_broker, running
from axonal_testing.waiting import wait_for


def api_settings(bus_settings, **extra) -> ApiSettings:
    return ApiSettings(
        nats_url=bus_settings.nats_url,
        namespace=bus_settings.namespace,
        api_rpc_timeout=2.0,
        api_apply_wait=0.0,  # the fake scheduler reads commands but announces nothing
        **{"api_token": OPERATOR_TOKEN, **extra},
    )


@pytest.fixture
def make_app(bus_settings):
    """A factory: the api app for this test's namespace, with extra settings."""
    return lambda **extra: build_app(api_settings(bus_settings, **extra))


@pytest_asyncio.fixture
async def platform(bus_settings) -> AsyncIterator[FakePlatform]:
    fake = FakePlatform()
    broker = make_broker(bus_settings, service="fakes")
    fake.serve(broker, bus_settings.subjects)
    async with running(broker):
        yield fake


@pytest_asyncio.fixture
async def client(bus_settings, platform) -> AsyncIterator[httpx.AsyncClient]:
    app = build_app(api_settings(bus_settings))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://api", headers=OPERATOR
        ) as http:
            yield http


@pytest_asyncio.fixture
async def live_url(make_app, platform) -> AsyncIterator[str]:
    """The api served by a real uvicorn on a free port (streams need a real server)."""
    server = uvicorn.Server(
        uvicorn.Config(make_app(), host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    task = asyncio.create_task(server.serve())
    await wait_for(lambda: server.started, message="uvicorn started")
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """schemathesis gives every operation's test its function's node id: each gets its own
    (with the operation, as in its name), or pytest-xdist would run one of them only."""
    for item in items:
        if item.__class__.__name__ == "SchemathesisFunction" and item.parent is not None:
            item._id = item.parent.id.child(item.name)
