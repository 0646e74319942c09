"""Project API keys over RPC: created once with their secret, verified, listed, revoked."""

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events.api_keys import (
    ApiKeyCreated,
    ApiKeyInfo,
    ApiKeyList,
    CreateApiKeyRequest,
    ListApiKeysRequest,
    RevokeApiKeyRequest,
    VerifyApiKeyRequest,
)
from axonal_events.identity import CreateProjectRequest, Project

from . import test_identity_service as identity_tests

identity = identity_tests.identity  # the service under test


def call(nats_client, settings, method, payload, reply):
    subject = settings.subjects.rpc("identity", method)
    return rpc.request(nats_client, subject, payload, reply)


async def test_a_key_is_created_verified_listed_and_revoked(identity, nats_client, database_url):
    project = await call(
        nats_client,
        identity,
        "create_project",
        CreateProjectRequest(owner="acme", name="llm"),
        Project,
    )
    created = await call(
        nats_client,
        identity,
        "create_api_key",
        CreateApiKeyRequest(project="acme/llm", note="ci"),
        ApiKeyCreated,
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
        "verify_api_key",
        VerifyApiKeyRequest(public_key=created.public_key, secret_key=created.secret_key),
        ApiKeyInfo,
    )
    assert (verified.project.owner, verified.project.name) == ("acme", "llm")
    with pytest.raises(RemoteError, match="invalid API key"):
        await call(
            nats_client,
            identity,
            "verify_api_key",
            VerifyApiKeyRequest(public_key=created.public_key, secret_key="sk-ax-wrong"),
            ApiKeyInfo,
        )

    listed = await call(
        nats_client, identity, "list_api_keys", ListApiKeysRequest(project="acme/llm"), ApiKeyList
    )
    assert [k.public_key for k in listed.keys] == [created.public_key]
    assert "secret_key" not in listed.model_dump()["keys"][0]

    left = await call(
        nats_client,
        identity,
        "revoke_api_key",
        RevokeApiKeyRequest(project="acme/llm", public_key=created.public_key),
        ApiKeyList,
    )
    assert left.keys == []
    with pytest.raises(RemoteError, match="invalid API key"):
        await call(
            nats_client,
            identity,
            "verify_api_key",
            VerifyApiKeyRequest(public_key=created.public_key, secret_key=created.secret_key),
            ApiKeyInfo,
        )


async def test_keys_of_an_unknown_project_are_refused(identity, nats_client):
    with pytest.raises(RemoteError, match="not found"):
        await call(
            nats_client,
            identity,
            "create_api_key",
            CreateApiKeyRequest(project="no/such"),
            ApiKeyCreated,
        )
