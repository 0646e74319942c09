"""A trusted integration's NATS user, on a nats-server that enforces it: it publishes its own
events onto the EVENTS stream and nothing else (the permissions ``axonal_events.integrations``
renders for the server's configuration)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import nats
import pytest

from axonal_bus.provision import provision
from axonal_events import StreamKind, Subjects
from axonal_events.external import ExternalEvent
from axonal_events.integrations import integration_inbox, nats_user, password_variable
from axonal_stack.nats_server import NatsServer
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

SUBJECTS = Subjects("secured")


@pytest.fixture
def secured_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[NatsServer]:
    monkeypatch.setenv("TEST_ADMIN_PASSWORD", "admin-secret")
    monkeypatch.setenv(password_variable("warehouse"), "warehouse-secret")
    accounts = (
        "accounts: { AXONAL: { jetstream: enabled, users: ["
        '{user: "admin", password: $TEST_ADMIN_PASSWORD}, '
        f"{nats_user(SUBJECTS, 'warehouse')}"
        "] } }"
    )
    server = NatsServer(tmp_path, extra_config=accounts)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def event(event_id: str) -> bytes:
    return ExternalEvent(specversion="1.0", id=event_id, source="/warehouse",
                         type="dataset.updated", data={"uri": "s3://x"}).to_json()  # fmt: skip


async def test_the_integration_publishes_its_own_events_and_nothing_else(secured_server):
    admin = await nats.connect(secured_server.url, user="admin", password="admin-secret")
    await provision(admin.jetstream(), SUBJECTS, replicas=1)
    errors: list[str] = []

    async def noted(exc: Exception) -> None:
        errors.append(str(exc))

    integration = await nats.connect(
        secured_server.url,
        user="ext-warehouse",
        password="warehouse-secret",
        inbox_prefix=integration_inbox(SUBJECTS, "warehouse"),
        error_cb=noted,
    )
    js = integration.jetstream(timeout=2)
    ack = await js.publish(SUBJECTS.external("warehouse", "dataset.updated"), event("e1"))
    assert ack.stream == SUBJECTS.stream_name(StreamKind.EVENTS)

    for forbidden in (SUBJECTS.event("run.succeeded"), SUBJECTS.external("other", "x.y")):
        with pytest.raises((nats.errors.TimeoutError, nats.errors.NoRespondersError)):
            await js.publish(forbidden, event("e2"))
    await integration.subscribe(SUBJECTS.events())  # it cannot read the bus either

    def refused(what: str) -> bool:
        return any("permissions violation" in e.lower() and what in e.lower() for e in errors)

    await wait_for(lambda: refused("subscription"), message="the subscription refused")
    assert refused("publish"), errors

    stored = await read_stream(admin.jetstream(), SUBJECTS.stream_name(StreamKind.EVENTS))
    assert [(s, json.loads(d)["id"]) for s, d, _ in stored] == [
        (SUBJECTS.external("warehouse", "dataset.updated"), "e1")
    ]
    await integration.close()
    await admin.close()

    with pytest.raises(nats.errors.Error):  # a wrong password gets no connection at all
        await nats.connect(secured_server.url, user="ext-warehouse", password="nope",
                           max_reconnect_attempts=0, allow_reconnect=False)  # fmt: skip
