"""Prompt management through the unmodified Langfuse SDK: text and chat prompts created, read
by label and by version, labels moved, variables and placeholders compiled, a fallback when a
prompt is missing, a composed prompt resolved; bad requests refused naming the field."""

from __future__ import annotations

import asyncio
import uuid

import nats

from axonal_bus import rpc
from axonal_events import Subjects
from axonal_events.prompts import SetPromptLabels
from axonal_events.rpcs import Registry
from axonal_testing.waiting import wait_for_sync

from .conftest import LangfuseServer

SDK_SCRIPT = r"""
import json, sys
from urllib.parse import quote
from langfuse import Langfuse
from langfuse.api import Prompt_Chat, Prompt_Text, PromptMetaListResponse

tag = sys.argv[1]
lf = Langfuse()
name = f"support/greet-{tag}"
first = lf.create_prompt(name=name, prompt="Hi {{name}}, about {{ topic }}", labels=["production"],
                         tags=["support"], config={"model": "gpt-4o-mini"}, commit_message="first")
second = lf.create_prompt(name=name, prompt="Hello {{name}}!", labels=["staging"])
prod = lf.get_prompt(name, cache_ttl_seconds=0)
by_version = lf.get_prompt(name, version=2, cache_ttl_seconds=0)
staging = lf.get_prompt(name, label="staging", cache_ttl_seconds=0)
updated = lf.update_prompt(name=name, version=2, new_labels=["production"])
prod_after = lf.get_prompt(name, cache_ttl_seconds=0)
v1_after = lf.get_prompt(name, version=1, cache_ttl_seconds=0)

chat_name = f"chat-{tag}"
lf.create_prompt(name=chat_name, type="chat", labels=["production"], prompt=[
    {"role": "system", "content": "You help {{user}}."},
    {"type": "placeholder", "name": "history"},
    {"role": "user", "content": "{{question}}"},
])
chat = lf.get_prompt(chat_name, type="chat", cache_ttl_seconds=0)
chat_raw = lf.api.prompts.get(quote(chat_name, safe=""), label="production")
compiled_chat = chat.compile(user="Ada", question="Why?",
                             history=[{"role": "user", "content": "earlier"}])

fallback = lf.get_prompt(f"missing-{tag}", fallback="Fallback {{x}}", max_retries=0,
                         cache_ttl_seconds=0)
try:
    lf.get_prompt(f"missing-{tag}", max_retries=0, cache_ttl_seconds=0)
    missing = None
except Exception as exc:
    missing = type(exc).__name__

lf.create_prompt(name=f"base-{tag}", prompt="be brief", labels=["production"])
lf.create_prompt(name=f"top-{tag}", labels=["production"],
                 prompt=f"Rules: @@@langfusePrompt:name=base-{tag}|label=production@@@ {{{{x}}}}")
top = lf.get_prompt(f"top-{tag}", cache_ttl_seconds=0)
raw = lf.api.prompts.get(quote(f"top-{tag}", safe=""), resolve=False)
listed = lf.api.prompts.list(name=name)
lf.shutdown()
print(json.dumps({
    "first": [first.version, first.labels, first.tags, first.config, first.commit_message],
    "second": [second.version, second.labels, second.tags],
    "prod": [prod.version, prod.compile(name="Ada", topic="tea")],
    "by_version": [by_version.version, by_version.prompt],
    "staging": staging.version,
    "updated": [isinstance(updated, Prompt_Text), updated.labels],
    "prod_after": [prod_after.version, prod_after.labels],
    "v1_after": v1_after.labels,
    "chat": [isinstance(chat_raw, Prompt_Chat), compiled_chat, chat_raw.prompt[1].dict()],
    "fallback": [fallback.is_fallback, fallback.compile(x="1")],
    "missing": missing,
    "top": [top.compile(x="now"), top.version],
    "raw": [raw.prompt, raw.resolution_graph],
    "listed": [isinstance(listed, PromptMetaListResponse), listed.dict()],
}, default=str))
"""


def test_prompts_through_the_langfuse_sdk(langfuse: LangfuseServer):
    tag = uuid.uuid4().hex[:8]
    out = langfuse.run_sdk(SDK_SCRIPT, tag)
    assert out["first"] == [1, ["latest", "production"], ["support"], {"model": "gpt-4o-mini"},
                            "first"]  # fmt: skip
    assert out["second"] == [2, ["latest", "staging"], ["support"]]
    assert out["prod"] == [1, "Hi Ada, about tea"]
    assert out["by_version"] == [2, "Hello {{name}}!"]
    assert out["staging"] == 2
    assert out["updated"] == [True, ["latest", "production", "staging"]]
    assert out["prod_after"] == [2, ["latest", "production", "staging"]]
    assert out["v1_after"] == []
    assert out["chat"] == [
        True,
        [
            {"role": "system", "content": "You help Ada."},
            {"role": "user", "content": "earlier"},
            {"role": "user", "content": "Why?"},
        ],
        {"type": "placeholder", "name": "history"},
    ]
    assert out["fallback"] == [True, "Fallback 1"]
    assert out["missing"] == "NotFoundError"
    assert out["top"] == ["Rules: be brief now", 1]
    raw_text, graph = out["raw"]
    assert raw_text == f"Rules: @@@langfusePrompt:name=base-{tag}|label=production@@@ {{{{x}}}}"
    assert graph is None
    parsed, listed = out["listed"]
    assert parsed
    assert [(m["name"], m["versions"], m["labels"]) for m in listed["data"]] == [
        (f"support/greet-{tag}", [1, 2], ["latest", "production", "staging"])
    ]
    assert listed["meta"]["totalItems"] == 1


def test_bad_prompt_requests_are_refused_naming_the_field(langfuse: LangfuseServer):
    tag = uuid.uuid4().hex[:8]
    http = langfuse.http
    name = f"folder/bad-{tag}"
    created = http.post("/api/public/v2/prompts", json={"name": name, "prompt": "x"})
    assert created.status_code == 201, created.text
    assert created.json()["labels"] == ["latest"]

    encoded = name.replace("/", "%2F")
    moved = http.patch(f"/api/public/v2/prompts/{encoded}/versions/5", json={"newLabels": ["a"]})
    assert moved.status_code == 404
    assert moved.json() == {
        "message": f"version: prompt '{name}' has no version 5",
        "error": "LangfuseNotFoundError",
    }
    wrong_type = http.post(
        "/api/public/v2/prompts", json={"name": name, "type": "chat", "prompt": "not a list"}
    )
    assert wrong_type.status_code == 400
    assert "a chat prompt is a list of messages" in wrong_type.json()["message"]
    bad_label = http.post(
        "/api/public/v2/prompts", json={"name": name, "prompt": "y", "labels": ["Prod"]}
    )
    assert bad_label.status_code == 400
    assert bad_label.json()["message"].startswith("labels: ")
    cycle = http.post(
        "/api/public/v2/prompts",
        json={"name": name, "prompt": f"@@@langfusePrompt:name={name}|version=1@@@"},
    )
    assert cycle.status_code == 400
    assert f"cycle: {name} v2 -> {name} v1" in cycle.json()["message"]
    missing = http.get(f"/api/public/v2/prompts/{encoded}", params={"label": "nope"})
    assert missing.status_code == 404
    assert missing.json()["message"] == f"Prompt not found: '{name}' with label 'nope'"
    for query, field in (({"version": "two"}, "version"), ({"resolve": "maybe"}, "resolve")):
        refused = http.get(f"/api/public/v2/prompts/{encoded}", params=query)
        assert refused.status_code == 400, refused.text
        assert refused.json()["message"].startswith(f"{field}: ")

    deleted = http.delete(f"/api/public/v2/prompts/{encoded}")
    assert deleted.status_code == 204
    assert http.get(f"/api/public/v2/prompts/{encoded}", params={"version": 1}).status_code == 404


LINK_SCRIPT = r"""
import json, sys
from langfuse import Langfuse

tag = sys.argv[1]
lf = Langfuse()
name = f"linked/{tag}"
lf.create_prompt(name=name, prompt="Answer {{q}}", labels=["production"])
prompt = lf.get_prompt(name, cache_ttl_seconds=0)
with lf.start_as_current_observation(name="answer", as_type="generation", prompt=prompt,
                                     model="gpt-4o-mini",
                                     usage_details={"input": 10, "output": 5},
                                     cost_details={"total": 0.25}) as generation:
    trace_id = lf.get_current_trace_id()
    generation_id = generation.id
lf.create_score(name="quality", value=0.75, trace_id=trace_id, observation_id=generation_id)
lf.flush()
lf.shutdown()
print(json.dumps({"trace_id": trace_id, "generation_id": generation_id}))
"""


def test_generations_that_linked_a_prompt_show_it(langfuse: LangfuseServer):
    tag = uuid.uuid4().hex[:8]
    out = langfuse.run_sdk(LINK_SCRIPT, tag)
    trace = langfuse.trace(out["trace_id"], observations=1, scores=1)
    generation = next(o for o in trace["observations"] if o["id"] == out["generation_id"])
    prompt = langfuse.get(f"/api/public/v2/prompts/linked%2F{tag}")
    assert (generation["promptName"], generation["promptVersion"]) == (f"linked/{tag}", 1)
    assert generation["promptId"] == prompt["id"]
    v2 = langfuse.get("/api/public/v2/observations", traceId=out["trace_id"], fields="core,prompt")
    assert v2["data"][0]["promptId"] == prompt["id"]

    api = langfuse.stack.http(timeout=10)
    reply = api.get(f"/api/v1/acme/llm/prompt-generations/linked/{tag}", params={"version": 1})
    assert reply.status_code == 200, reply.text
    page = reply.json()
    [linked] = page["data"]
    assert (linked["id"], linked["prompt_version"], linked["total_cost"]) == (
        out["generation_id"],
        1,
        0.25,
    )
    assert linked["latency"] is not None
    assert linked["scores"] == [{"name": "quality", "value": 0.75, "string_value": None}]
    [usage] = page["versions"]
    assert (usage["version"], usage["generations"], usage["scores"]) == (1, 1, {"quality": 0.75})


def test_a_write_through_another_api_reaches_the_kept_reads_by_event(langfuse: LangfuseServer):
    """A label moved over the bus (as another api replica would) shows in this api's reads
    once the registry's event arrives, though the read before it was kept."""
    tag = uuid.uuid4().hex[:8]
    http = langfuse.http
    for text in ("one", "two"):
        reply = http.post(
            "/api/public/v2/prompts", json={"name": f"kept-{tag}", "prompt": text, "labels": []}
        )
        assert reply.status_code == 201, reply.text
    first = http.get(f"/api/public/v2/prompts/kept-{tag}", params={"label": "latest"})
    assert first.json()["labels"] == ["latest"]
    project_id = first.json()["projectId"]

    async def move() -> None:
        nc = await nats.connect(langfuse.stack.nats_url)
        try:
            request = SetPromptLabels(
                project_id=project_id, name=f"kept-{tag}", version=2, new_labels=["staging"]
            )
            await rpc.call(nc, Subjects(), Registry.set_prompt_labels, request)
        finally:
            await nc.close()

    asyncio.run(move())

    def moved() -> list[str] | None:
        found = http.get(f"/api/public/v2/prompts/kept-{tag}", params={"label": "latest"})
        labels: list[str] = found.json()["labels"]
        return labels if "staging" in labels else None

    assert wait_for_sync(
        moved, timeout=5, message="label seen"
    )  # under the 10 s expiry == ["latest", "staging"]


def test_protected_labels_and_the_axonal_prompt_routes(langfuse: LangfuseServer):
    api = langfuse.stack.http(timeout=10)
    with api:
        path = "/api/v1/acme/llm/prompt-protected-labels"
        stored = api.put(path, json={"labels": ["production", "staging"]})
        assert stored.json() == {"labels": ["production", "staging"]}
        assert api.get(path).json() == {"labels": ["production", "staging"]}
        bad = api.put(path, json={"labels": ["Prod"]})
        assert bad.status_code == 400
        assert bad.json()["message"].startswith("labels: ")

        tag = uuid.uuid4().hex[:8]
        made = api.post("/api/v1/acme/llm/prompts", json={"name": f"cli/{tag}", "prompt": "x"})
        assert made.status_code == 201, made.text
        moved = api.patch(
            f"/api/v1/acme/llm/prompts/cli/{tag}/versions/1", json={"labels": ["production"]}
        )
        assert moved.json()["labels"] == ["latest", "production"]
        versions = api.get(f"/api/v1/acme/llm/prompt-versions/cli/{tag}").json()["versions"]
        assert [v["version"] for v in versions] == [1]
        missing = api.get(f"/api/v1/acme/llm/prompts/cli/{tag}", params={"label": "nope"})
        assert missing.status_code == 404
        assert missing.json()["code"] == "not_found"
