"""The registry service starts on its own schema and answers ping."""

from axonal_bus.ping import ping
from axonal_registry.app import SERVICE


async def test_ping_reports_the_database(registry, nats_client):
    reply = await ping(nats_client, registry.subjects, "registry")
    assert reply.checks == {"database": "ok"}
    assert reply.version == SERVICE.version
