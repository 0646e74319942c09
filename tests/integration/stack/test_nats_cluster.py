"""The NATS cluster of ``axonal up --cluster`` on its own: three real nodes, the streams
provisioned with three replicas as soon as the nodes answer, and a publish acknowledged while
any one node is down."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import nats
import pytest
from nats.js import JetStreamContext

from axonal_bus.provision import provision_when_ready
from axonal_events import StreamKind, Subjects
from axonal_events.access import ADMIN_USER
from axonal_stack.nats_server import NatsServer
from axonal_stack.servers import nats_cluster
from axonal_stack.settings import StackSettings
from axonal_stack.users import read_passwords, with_credentials

pytestmark = pytest.mark.slow  # three real servers

SUBJECTS = Subjects()


@pytest.fixture
def settings(tmp_path: Path) -> StackSettings:
    return StackSettings(home=tmp_path, cluster=True, nats_port=0, nats_cluster_port=0)


@pytest.fixture
def nodes(settings: StackSettings) -> Iterator[dict[str, NatsServer]]:
    passwords = read_passwords(settings.paths.nats_users, SUBJECTS)
    started = nats_cluster(settings, {}, passwords)
    try:
        for node in started.values():
            node.start()
        yield started
    finally:
        for node in started.values():
            node.stop()


def admin_urls(settings: StackSettings, nodes: dict[str, NatsServer]) -> list[str]:
    password = read_passwords(settings.paths.nats_users, SUBJECTS)[ADMIN_USER]
    return [with_credentials(node.url, ADMIN_USER, password) for node in nodes.values()]


async def publish(js: JetStreamContext, number: int) -> None:
    """Publish until acknowledged (a leader may be being elected), with the same message id."""
    for _ in range(100):
        try:
            await js.publish(
                SUBJECTS.ingest("metrics.x"), b"{}", headers={"Nats-Msg-Id": str(number)}
            )
        except (nats.errors.TimeoutError, nats.js.errors.NoStreamResponseError):
            await asyncio.sleep(0.1)
        else:
            return
    raise AssertionError(f"message {number} never acknowledged")


async def test_streams_get_three_replicas_and_survive_a_node(
    settings: StackSettings, nodes: dict[str, NatsServer]
):
    nc = await nats.connect(admin_urls(settings, nodes), connect_timeout=5)
    try:
        js = nc.jetstream()
        # right after the nodes answer: no leader yet, and peers still meeting
        results = await provision_when_ready(js, SUBJECTS, replicas=3, timeout=30)
        assert {r.action for r in results} == {"created"}
        stream = SUBJECTS.stream_name(StreamKind.INGEST)
        info = await js.stream_info(stream)
        assert info.config.num_replicas == 3
        assert info.cluster is not None
        leader = nodes[info.cluster.leader]
        await publish(js, 0)
        leader.stop()  # the stream's leader goes: another node takes over
        for number in range(1, 20):
            await publish(js, number)
        leader.start()
        for number in range(20):
            await publish(js, number)  # a repeat is a duplicate, not a new message
        info = await js.stream_info(stream)
        assert info.state.messages == 20
    finally:
        await nc.close()
