"""LLM connections through the unmodified Langfuse SDK: upserted by provider, listed with the
secret masked, deleted; a bad adapter refused with a 400 naming the field."""

from __future__ import annotations

from .conftest import LangfuseServer

SDK_SCRIPT = r"""
import json
from langfuse import Langfuse

lf = Langfuse()
created = lf.api.llm_connections.upsert(
    provider="my-gateway", adapter="openai", secret_key="sk-secret-0123456789",
    base_url="http://127.0.0.1:9/v1", custom_models=["judge-1"], with_default_models=False,
    extra_headers={"X-Team": "evals"},
)
again = lf.api.llm_connections.upsert(
    provider="my-gateway", adapter="openai", secret_key="sk-other-9876543210",
)
listed = lf.api.llm_connections.list(page=1, limit=10)
deleted = lf.api.llm_connections.delete(created.id)
after = lf.api.llm_connections.list()
print(json.dumps({
    "created": created.dict(by_alias=True), "again": again.dict(by_alias=True),
    "listed": [c.dict(by_alias=True) for c in listed.data], "total": listed.meta.total_items,
    "deleted": deleted.message, "after": len(after.data),
}, default=str))
"""


def test_llm_connections_with_the_sdk(langfuse: LangfuseServer):
    out = langfuse.run_sdk(SDK_SCRIPT)
    created, again = out["created"], out["again"]
    assert created["provider"] == "my-gateway"
    assert created["adapter"] == "openai"
    assert created["displaySecretKey"] == "sk-...6789"
    assert created["baseURL"] == "http://127.0.0.1:9/v1"
    assert created["customModels"] == ["judge-1"]
    assert created["withDefaultModels"] is False
    assert created["extraHeaderKeys"] == ["X-Team"]
    assert again["id"] == created["id"], "upserted on the provider name"
    assert again["displaySecretKey"] == "sk-...3210"
    assert "0123456789" not in str(out["listed"])
    assert out["total"] == 1
    assert out["deleted"]
    assert out["after"] == 0


def test_a_bad_adapter_is_a_400_naming_it(langfuse: LangfuseServer):
    reply = langfuse.http.put(
        "/api/public/llm-connections",
        json={"provider": "x", "adapter": "nope", "secretKey": "sk"},
    )
    assert reply.status_code == 400, reply.text
    assert "adapter" in reply.text
    missing = langfuse.http.put("/api/public/llm-connections", json={"provider": "x"})
    assert missing.status_code == 422, missing.text  # as every body the api cannot read
    assert "body.secretKey" in missing.text
