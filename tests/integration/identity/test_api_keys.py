"""Project API keys over RPC: created once with their secret, verified, listed, revoked."""

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode
from axonal_events.api_keys import (
    CreateApiKeyRequest,
    ListApiKeysRequest,
    RevokeApiKeyRequest,
    VerifyApiKeyRequest,
)
from axonal_events.identity import CreateProjectRequest
from axonal_events.rpcs import Identity


def call(nats_client, settings, method, payload):
    return rpc.call(nats_client, settings.subjects, method, payload)


async def test_a_key_is_created_verified_listed_and_revoked(identity, nats_client, database_url):
    project = await call(
        nats_client,
        identity,
        Identity.create_project,
        CreateProjectRequest(owner="acme", name="llm"),
    )
    created = await call(
        nats_client,
        identity,
        Identity.create_api_key,
        CreateApiKeyRequest(project="acme/llm", note="ci"),
    )
    assert created.public_key.startswith("pk-ax-")
    assert created.secret_key.startswith("sk-ax-")
    assert created.project.id == project.id

    conn = await connect(database_url)
    try:
        stored = await conn.fetchval("SELECT secret_hash FROM identity.api_keys")
    finally:
        await conn.close()
    assert created.secret_key not in stored

    verified = await call(
        nats_client,
        identity,
        Identity.verify_api_key,
        VerifyApiKeyRequest(public_key=created.public_key, secret_key=created.secret_key),
    )
    assert (verified.project.owner, verified.project.name) == ("acme", "llm")
    with pytest.raises(RemoteError, match="invalid API key") as wrong:
        await call(
            nats_client,
            identity,
            Identity.verify_api_key,
            VerifyApiKeyRequest(public_key=created.public_key, secret_key="sk-ax-wrong"),
        )
    assert wrong.value.code is ErrorCode.FORBIDDEN

    listed = await call(
        nats_client, identity, Identity.list_api_keys, ListApiKeysRequest(project="acme/llm")
    )
    assert [k.public_key for k in listed.keys] == [created.public_key]
    assert "secret_key" not in listed.model_dump()["keys"][0]

    left = await call(
        nats_client,
        identity,
        Identity.revoke_api_key,
        RevokeApiKeyRequest(project="acme/llm", public_key=created.public_key),
    )
    assert left.keys == []
    with pytest.raises(RemoteError, match="invalid API key"):
        await call(
            nats_client,
            identity,
            Identity.verify_api_key,
            VerifyApiKeyRequest(public_key=created.public_key, secret_key=created.secret_key),
        )


async def test_keys_of_an_unknown_project_are_refused(identity, nats_client):
    with pytest.raises(RemoteError, match="project no/such does not exist") as raised:
        await call(
            nats_client, identity, Identity.create_api_key, CreateApiKeyRequest(project="no/such")
        )
    assert raised.value.code is ErrorCode.NOT_FOUND
