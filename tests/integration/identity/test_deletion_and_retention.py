"""A project's retention set and read, announced once per change; a deleted project gone with
its keys, announced, its audited events purged but the records of its deletion."""

from __future__ import annotations

import json

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind
from axonal_events.api_keys import CreateApiKeyRequest, VerifyApiKeyRequest
from axonal_events.identity import CreateProjectRequest
from axonal_events.retention import (
    DeleteProjectRequest,
    ProjectRef,
    RetentionPolicy,
    SetRetentionRequest,
)
from axonal_events.rpcs import Identity
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for


async def events_of(js, subjects, event_type: str) -> list[dict]:
    found = await read_stream(
        js, subjects.stream_name(StreamKind.EVENTS), subjects.event(event_type)
    )
    return [json.loads(data) for _, data, _ in found]


async def test_retention_is_kept_and_announced(identity, nats_client):
    subjects, js = identity.subjects, nats_client.jetstream()
    call = lambda method, request: rpc.call(nats_client, subjects, method, request)  # noqa: E731
    project = await call(Identity.create_project, CreateProjectRequest(owner="acme", name="kept"))
    ref = ProjectRef(owner="acme", name="kept")
    assert (await call(Identity.get_retention, ref)).retention == RetentionPolicy()

    policy = RetentionPolicy(traces=30, artifacts=365)
    request = SetRetentionRequest(owner="acme", name="kept", retention=policy)
    assert (await call(Identity.set_retention, request)).retention == policy
    assert (await call(Identity.get_retention, ref)).retention == policy

    async def announced():
        found = await events_of(js, subjects, "project.retention.changed")
        return found or None

    [event] = await wait_for(announced, message="project.retention.changed")
    assert event["data"]["project_id"] == project.id
    assert RetentionPolicy.model_validate(event["data"]["retention"]) == policy

    with pytest.raises(RemoteError) as err:
        await call(Identity.get_retention, ProjectRef(owner="acme", name="nope"))
    assert err.value.code is ErrorCode.NOT_FOUND


async def test_a_deleted_project_goes_with_its_keys_and_its_audit(
    identity, nats_client, database_url
):
    subjects, js = identity.subjects, nats_client.jetstream()
    call = lambda method, request: rpc.call(nats_client, subjects, method, request)  # noqa: E731
    project = await call(Identity.create_project, CreateProjectRequest(owner="acme", name="gone"))
    key = await call(Identity.create_api_key, CreateApiKeyRequest(project="acme/gone"))
    conn = await connect(database_url)
    try:

        async def audited(*types: str) -> list[str]:
            rows = await conn.fetch(
                "SELECT type FROM identity.audit_log WHERE project = 'acme/gone' ORDER BY type"
            )
            found = [r["type"] for r in rows]
            return found if found == list(types) else []

        await wait_for(lambda: audited("axonal.project.created"), message="creation audited")
        accepted = await call(
            Identity.delete_project, DeleteProjectRequest(owner="acme", name="gone")
        )
        assert accepted.target == project.id

        async def confirmed():
            found = await events_of(js, subjects, "deletion.completed")
            return found or None

        [done] = await wait_for(confirmed, message="identity confirmed")
        assert done["data"] | {"rows": 0} == {
            "scope": "project", "target": project.id, "request_id": accepted.request_id,
            "service": "identity", "rows": 0,
        }  # fmt: skip
        # what the audit keeps of the project: that it was deleted, and by whom confirmed
        await wait_for(
            lambda: audited("axonal.deletion.completed", "axonal.project.deleted"),
            message="only the deletion records audited",
        )
    finally:
        await conn.close()

    with pytest.raises(RemoteError) as err:
        await call(Identity.delete_project, DeleteProjectRequest(owner="acme", name="gone"))
    assert err.value.code is ErrorCode.NOT_FOUND
    secret = VerifyApiKeyRequest(public_key=key.public_key, secret_key=key.secret_key)
    with pytest.raises(RemoteError) as err:
        await call(Identity.verify_api_key, secret)
    assert err.value.code is ErrorCode.FORBIDDEN
