"""Each service's NATS user on a nats-server that enforces the generated permissions: it uses
its own subjects and the server refuses the rest; every service starts and answers ping with
its own user (binding its durables, serving its RPCs)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
from importlib.metadata import entry_points

import nats
import pytest
from nats.aio.client import Client

from axonal_bus import rpc
from axonal_bus.broker import connect_nats
from axonal_bus.errors import AxonalError
from axonal_bus.ping import ping
from axonal_bus.service import ServiceSettings
from axonal_events import StreamKind
from axonal_events.access import ADMIN_USER, RUN_USER
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun
from axonal_testing.bus import read_stream
from axonal_testing.nats_server import SecuredBus
from axonal_testing.waiting import wait_for

SERVICES = {ep.name: ep.module for ep in entry_points(group="axonal.services")}


async def connect_as(bus: SecuredBus, user: str, errors: list[str]) -> Client:
    async def noted(exc: Exception) -> None:
        errors.append(str(exc).lower())

    return await connect_nats(
        bus.settings(user),
        name=f"test-{user}",
        inbox_prefix=bus.subjects.inbox_prefix(user),
        error_cb=noted,
    )


def refused(errors: list[str], what: str, subject: str) -> bool:
    return any("permissions violation" in e and what in e and subject.lower() in e for e in errors)


async def test_a_service_uses_its_own_subjects_and_is_refused_the_rest(secured_bus: SecuredBus):
    subjects = secured_bus.subjects
    errors: list[str] = []
    registry = await connect_as(secured_bus, "registry", errors)
    js = registry.jetstream(timeout=2)
    own = subjects.event("model.version.created")
    ack = await js.publish(own, b"{}")
    assert ack.stream == subjects.stream_name(StreamKind.EVENTS)

    forged = subjects.event("run.done")
    with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
        await js.publish(forged, b"{}")
    await registry.subscribe(subjects.events())  # it may not read the bus at large
    with pytest.raises(AxonalError):  # nor call an RPC it has no use for
        await rpc.call(registry, subjects, Scheduler.get_run, GetRun.model_construct(), timeout=1)

    await wait_for(lambda: refused(errors, "subscription", subjects.events()), timeout=5)
    assert refused(errors, "publish", forged), errors
    assert refused(errors, "publish", Scheduler.get_run.subject(subjects)), errors
    assert "violation" in secured_bus.server_log().lower()  # the server reports them too

    admin = await nats.connect(
        secured_bus.url, user=ADMIN_USER, password=secured_bus.passwords[ADMIN_USER]
    )
    stored = await read_stream(admin.jetstream(), subjects.stream_name(StreamKind.EVENTS))
    assert [s for s, _, _ in stored] == [own]  # nothing forged landed
    await admin.close()
    await registry.close()

    with pytest.raises(nats.errors.Error):  # a wrong password gets no connection at all
        await nats.connect(secured_bus.url, user="registry", password="nope",
                           max_reconnect_attempts=0, allow_reconnect=False)  # fmt: skip


async def test_a_run_may_only_send_its_metrics(secured_bus: SecuredBus):
    subjects = secured_bus.subjects
    errors: list[str] = []
    run = await connect_as(secured_bus, RUN_USER, errors)
    js = run.jetstream(timeout=2)
    ack = await js.publish(subjects.ingest("metrics.r1"), b"{}")
    assert ack.stream == subjects.stream_name(StreamKind.INGEST)
    with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
        await js.publish(subjects.event("run.done"), b"{}")
    assert refused(errors, "publish", subjects.event("run.done")), errors
    await run.close()


def _settings_type(module: str) -> type[ServiceSettings]:
    settings_module = importlib.import_module(f"{module}.settings")
    return next(
        value
        for value in vars(settings_module).values()
        if inspect.isclass(value)
        and issubclass(value, ServiceSettings)
        and value.__module__ == settings_module.__name__
    )


@pytest.mark.parametrize("service", sorted(set(SERVICES) - {"api"}))
async def test_each_service_starts_with_its_own_user(
    service: str, secured_bus: SecuredBus, database_url: str, tmp_path
):
    bus = secured_bus.settings(service).model_dump(by_alias=False)
    settings = _settings_type(SERVICES[service]).model_validate(
        {
            **bus,
            "nats_password": secured_bus.passwords[service],
            "database_url": database_url,
            "log_json": True,
            **({"work_root": tmp_path / "runs"} if service == "agent" else {}),
        }
    )
    app = importlib.import_module(f"{SERVICES[service]}.app").build_app(settings)
    task = asyncio.create_task(app.run())
    errors: list[str] = []
    admin = await connect_as(secured_bus, ADMIN_USER, errors)
    try:

        async def healthy() -> bool:
            if task.done():
                task.result()
                raise RuntimeError(f"{service} stopped while starting")
            try:
                return (await ping(admin, secured_bus.subjects, service, 0.5)).status == "ok"
            except AxonalError:
                return False

        await wait_for(healthy, timeout=30, message=f"{service} answers ping")
        # its own health check, run with its own credentials
        own = await connect_as(secured_bus, service, errors)
        assert (await ping(own, secured_bus.subjects, service, 2)).status == "ok"
        await own.close()
        assert errors == []
    finally:
        app.exit()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 15)
        await admin.close()
    assert "violation" not in secured_bus.server_log().lower()
