"""A project's quotas set and read (unset: the default), announced once per change."""

from __future__ import annotations

import json

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode, StreamKind
from axonal_events.identity import CreateProjectRequest
from axonal_events.quotas import QuotaLimits, SetQuotasRequest
from axonal_events.retention import ProjectRef
from axonal_events.rpcs import Identity
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for


async def test_quotas_are_kept_and_announced(identity, nats_client):
    subjects, js = identity.subjects, nats_client.jetstream()
    call = lambda method, request: rpc.call(nats_client, subjects, method, request)  # noqa: E731
    project = await call(Identity.create_project, CreateProjectRequest(owner="acme", name="q"))
    ref = ProjectRef(owner="acme", name="q")
    assert (await call(Identity.get_quotas, ref)).quotas == QuotaLimits()

    limits = QuotaLimits(concurrent_runs=2, spans_per_second=50, storage_bytes=10**6)
    set_request = SetQuotasRequest(owner="acme", name="q", quotas=limits)
    assert (await call(Identity.set_quotas, set_request)).quotas == limits
    found = await call(Identity.get_quotas, ref)
    assert (found.quotas, found.project_id) == (limits, project.id)
    assert found.updated_at is not None

    async def announced():
        stream = subjects.stream_name(StreamKind.EVENTS)
        events = await read_stream(js, stream, subjects.event("project.quotas.changed"))
        return [json.loads(data) for _, data, _ in events] or None

    [event] = await wait_for(announced, message="project.quotas.changed")
    assert event["data"]["project_id"] == project.id
    assert QuotaLimits.model_validate(event["data"]["quotas"]) == limits

    missing = SetQuotasRequest(owner="acme", name="nope", quotas=limits)
    with pytest.raises(RemoteError) as err:
        await call(Identity.set_quotas, missing)
    assert err.value.code is ErrorCode.NOT_FOUND
