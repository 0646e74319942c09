"""The evaluation service starts on its own schema and answers ping."""

from axonal_bus.ping import ping
from axonal_evaluation.app import SERVICE


async def test_ping_reports_the_database(evaluation, nats_client):
    reply = await ping(nats_client, evaluation.subjects, "evaluation")
    assert reply.checks == {"database": "ok"}
    assert reply.version == SERVICE.version
