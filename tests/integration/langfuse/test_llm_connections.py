"""LLM connections through the unmodified Langfuse SDK: upserted by provider, listed with the
secret masked, deleted; a bad adapter refused with a 400 naming the field. Then an online rule
made with ``axonal evals`` scores a trace the SDK sends, read back with the SDK."""

from __future__ import annotations

from axonal_testing.llm_double import llm_double
from axonal_testing.waiting import wait_for_sync

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


TRACE_SCRIPT = r"""
import json
from langfuse import Langfuse, propagate_attributes

lf = Langfuse()
with propagate_attributes(trace_name="chat"):
    with lf.start_as_current_observation(name="chat", input="what is 2+2?") as root:
        root.update(output={"answer": "4 SCORE=0.8"})
        trace_id = lf.get_current_trace_id()
lf.flush()
lf.shutdown()
print(json.dumps({"trace_id": trace_id}))
"""

SCORES_SCRIPT = r"""
import json, sys
from langfuse import Langfuse

lf = Langfuse()
found = lf.api.scores.get_many(trace_id=sys.argv[1])
print(json.dumps([s.dict(by_alias=True) for s in found.data], default=str))
"""


def test_an_online_rule_scores_an_sdk_trace(langfuse: LangfuseServer):
    stack, project = langfuse.stack, ["-p", "acme/llm"]
    with llm_double() as double:
        reply = langfuse.http.put(
            "/api/public/llm-connections",
            json={"provider": "judge", "adapter": "openai", "secretKey": "sk-judge-1234",
                  "baseURL": double.base_url},
        )  # fmt: skip
        assert reply.status_code == 200, reply.text
        prompt = "Question: {{question}} Answer: {{answer}}"
        stack.cli_json("evals", "templates", "create", "helpful", "--prompt", prompt, *project)
        rule = stack.cli_json(
            "evals", "rules", "create", "chat-rule", "--template", "helpful",
            "--connection", "judge", "--model", "gpt-judge", "--name", "chat",
            "--var", "question=input", "--var", "answer=output.answer", *project,
        )  # fmt: skip
        assert rule["active"] is True
        listed = stack.cli_json("evals", "rules", "ls", *project)
        assert [r["name"] for r in listed] == ["chat-rule"]
        trace_id = langfuse.run_sdk(TRACE_SCRIPT)["trace_id"]

        def judged() -> list[dict] | None:
            jobs = stack.cli_json("evals", "jobs", "ls", "--rule", "chat-rule", *project)
            return jobs if jobs and jobs[0]["state"] == "succeeded" else None

        (job,) = wait_for_sync(judged, timeout=60, message="the trace judged")
        shown = stack.cli_json("evals", "jobs", "get", job["id"], *project)
        off = stack.cli_json("evals", "rules", "deactivate", "chat-rule", *project)
    assert job["trace_id"] == trace_id
    assert shown["score_value"] == 0.8
    assert off["active"] is False
    langfuse.trace(trace_id, scores=1)
    (score,) = langfuse.run_sdk(SCORES_SCRIPT, trace_id)
    assert score["name"] == "helpful"
    assert score["source"] == "EVAL"
    assert score["value"] == 0.8
    refused = stack.cli("evals", "rules", "activate", "nope", *project)
    assert refused.returncode != 0
    assert "nope" in refused.stdout + refused.stderr
