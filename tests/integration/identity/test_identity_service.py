"""The identity service end to end: RPC -> outbox -> JetStream -> audit consumer."""

import json
import uuid

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_bus.outbox import event_headers
from axonal_bus.ping import ping
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest
from axonal_events.rpcs import Identity
from axonal_identity.app import SERVICE
from axonal_testing.bus import read_stream
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for


async def create(nats_client, settings, owner, name):
    request = CreateProjectRequest(owner=owner, name=name)
    return await rpc.call(nats_client, settings.subjects, Identity.create_project, request)


async def audited(database_url, event_type):
    conn = await connect(database_url)
    try:
        return await conn.fetch(
            "SELECT event_id, data FROM identity.audit_log WHERE type = $1", event_type
        )
    finally:
        await conn.close()


async def test_ping_reports_the_database(identity, nats_client):
    reply = await ping(nats_client, identity.subjects, "identity")
    assert reply.checks == {"database": "ok"}
    assert reply.version == SERVICE.version


async def test_create_project_emits_one_event_that_is_audited(identity, nats_client, database_url):
    owner = f"org-{uuid.uuid4().hex[:6]}"
    project = await create(nats_client, identity, owner, "vision")
    assert (project.owner, project.name) == (owner, "vision")

    listed = await rpc.call(
        nats_client, identity.subjects, Identity.list_projects, ListProjectsRequest(owner=owner)
    )
    assert [p.id for p in listed.projects] == [project.id]

    js = nats_client.jetstream()
    events = await wait_for(
        lambda: read_stream(
            js, identity.subjects.stream_name(StreamKind.EVENTS), identity.subjects.events()
        ),
        message="project.created published",
    )
    created = [json.loads(data) for _, data, _ in events]
    assert [e["data"]["project_id"] for e in created] == [project.id]
    assert created[0]["type"] == "axonal.project.created"

    rows = await wait_for(
        lambda: audited(database_url, "axonal.project.created"), message="audited"
    )
    assert [r["event_id"] for r in rows] == [created[0]["id"]]


@pytest.mark.parametrize(
    ("owner", "name", "message"),
    [
        ("acme", "Bad Name", "project name 'Bad Name' must start"),
        ("ACME", "ok", "owner 'ACME' must start"),
    ],
)
async def test_invalid_project_is_rejected_with_the_rule(
    identity, nats_client, owner, name, message
):
    with pytest.raises(RemoteError, match=message) as raised:
        await create(nats_client, identity, owner, name)
    assert raised.value.code is ErrorCode.INVALID


async def test_duplicate_project_is_rejected(identity, nats_client):
    owner = f"org-{uuid.uuid4().hex[:6]}"
    await create(nats_client, identity, owner, "dup")
    with pytest.raises(RemoteError, match=f"project {owner}/dup already exists") as raised:
        await create(nats_client, identity, owner, "dup")
    assert raised.value.code is ErrorCode.CONFLICT


async def test_malformed_event_is_dead_lettered_and_auditing_goes_on(
    identity, nats_client, database_url
):
    js = nats_client.jetstream()
    subjects = identity.subjects
    await js.publish(subjects.event("run.running"), b"{oops", headers={"Nats-Msg-Id": "bad-1"})
    good = run_event()
    await js.publish(subjects.event(good.event_type), good.to_json(), headers=event_headers(good))
    rows = await wait_for(lambda: audited(database_url, good.type), message="good event audited")
    assert good.id in {r["event_id"] for r in rows}
    dead = await wait_for(
        lambda: read_stream(js, subjects.stream_name(StreamKind.DLQ)), message="dead letter"
    )
    assert [d[0] for d in dead] == [subjects.dlq("identity-audit")]
    assert dead[0][1] == b"{oops"
