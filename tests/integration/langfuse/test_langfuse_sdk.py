"""The unmodified Langfuse Python SDK and the batch ingestion fixture against a real stack."""

from __future__ import annotations

import json

import pytest

from .conftest import LangfuseServer, fixture, with_fresh_ids

SDK_SCRIPT = r"""
import json
from langfuse import Langfuse, propagate_attributes

lf = Langfuse()
assert lf.auth_check()
with lf.start_as_current_observation(name="handle-request", input={"q": "2+2?"}) as root:
    with propagate_attributes(user_id="user-42", session_id="sess-7", tags=["sdk", "demo"],
                              metadata={"tenant": "acme"}, trace_name="qa-pipeline"):
        with lf.start_as_current_observation(name="agent-loop", as_type="agent") as agent:
            for kind in ("tool", "chain", "retriever", "evaluator", "embedding", "guardrail"):
                with lf.start_as_current_observation(name=f"{kind}-step", as_type=kind,
                                                     input={"kind": kind}) as step:
                    step.update(output="ok")
            with lf.start_as_current_observation(
                name="llm-counted", as_type="generation", model="gpt-4o-mini",
                usage_details={"input": 1000, "output": 100},
                model_parameters={"temperature": 0},
                input=[{"role": "user", "content": "2+2?"}],
            ) as counted:
                counted.update(output={"role": "assistant", "content": "4"})
            with lf.start_as_current_observation(
                name="llm-paid", as_type="generation", model="gpt-4o",
                usage_details={"input": 10, "output": 5},
                cost_details={"input": 0.25, "output": 0.5},
            ) as paid:
                paid.score(name="latency-ok", value=1, data_type="BOOLEAN")
        lf.create_event(name="cache-miss", input={"key": "2+2"}, level="WARNING",
                        status_message="miss")
        root.update(output={"answer": "4"})
        root.score_trace(name="correctness", value=0.9, comment="close enough")
        trace_id = lf.get_current_trace_id()
lf.create_score(name="tone", value="neutral", trace_id=trace_id, data_type="CATEGORICAL")
lf.create_score(name="session-rating", value=4, session_id="sess-7")
lf.flush()
lf.shutdown()
print(json.dumps({"trace_id": trace_id}))
"""

READ_SCRIPT = r"""
import json, sys
from langfuse import Langfuse

lf, trace_id = Langfuse(), sys.argv[1]
generations = lf.api.observations.get_many(
    trace_id=trace_id, type="GENERATION", fields="core,basic,usage,model,trace_context,io"
).data
pages, cursor = [], None
while True:
    page = lf.api.observations.get_many(trace_id=trace_id, limit=4, cursor=cursor)
    pages.append([o.id for o in page.data])
    if not (cursor := page.meta.cursor):
        break
scores = lf.api.scores.get_many(trace_id=trace_id, fields="details,subject", limit=2)
rest = lf.api.scores.get_many(
    trace_id=trace_id, fields="details,subject", cursor=scores.meta.cursor
)
print(json.dumps({
    "generations": {o.name: {
        "total_cost": o.total_cost, "cost_total": o.cost_details["total"], "user_id": o.user_id,
        "session_id": o.session_id, "trace_name": o.trace_name, "tags": sorted(o.tags),
        "model": o.model, "output": o.output,
    } for o in generations},
    "pages": pages,
    "scores": {s.name: {"value": s.value, "kind": s.subject.kind, "comment": s.comment}
               for s in scores.data + rest.data},
    "limit": scores.meta.limit,
    "project": lf.api.projects.get().data[0].id,
    "models": lf.api.models.list(limit=5).meta.total_items,
    "health": lf.api.health.health().status,
}))
"""

TYPES = {
    "SPAN",
    "AGENT",
    "TOOL",
    "CHAIN",
    "RETRIEVER",
    "EVALUATOR",
    "EMBEDDING",
    "GUARDRAIL",
    "GENERATION",
    "EVENT",
}


def test_the_langfuse_sdk_traces_and_scores_read_back(langfuse: LangfuseServer):
    trace_id = langfuse.run_sdk(SDK_SCRIPT)["trace_id"]
    trace = langfuse.trace(trace_id, observations=11, scores=3)
    assert trace["name"] == "qa-pipeline"
    assert (trace["userId"], trace["sessionId"]) == ("user-42", "sess-7")
    assert sorted(trace["tags"]) == ["demo", "sdk"]
    assert trace["metadata"] == {"tenant": "acme"}
    assert (trace["input"], trace["output"]) == ({"q": "2+2?"}, {"answer": "4"})
    by_name = {o["name"]: o for o in trace["observations"]}
    assert {o["type"] for o in trace["observations"]} == TYPES
    agent = by_name["agent-loop"]
    assert by_name["tool-step"]["parentObservationId"] == agent["id"]
    assert by_name["handle-request"]["parentObservationId"] is None
    assert agent["parentObservationId"] == by_name["handle-request"]["id"]
    assert by_name["tool-step"]["input"] == {"kind": "tool"}
    event = by_name["cache-miss"]
    assert (event["type"], event["level"], event["statusMessage"]) == ("EVENT", "WARNING", "miss")

    # cost: computed from token counts, or left exactly as the client sent it
    counted = by_name["llm-counted"]
    assert counted["model"] == "gpt-4o-mini"
    assert counted["modelParameters"] == {"temperature": 0}
    assert counted["usageDetails"] == {"input": 1000, "output": 100, "total": 1100}
    assert counted["costDetails"]["input"] == pytest.approx(1000 * 0.15e-6)
    assert counted["costDetails"]["output"] == pytest.approx(100 * 0.6e-6)
    assert counted["costDetails"]["total"] == pytest.approx(1000 * 0.15e-6 + 100 * 0.6e-6)
    assert by_name["llm-paid"]["costDetails"] == {"input": 0.25, "output": 0.5, "total": 0.75}
    assert trace["totalCost"] == pytest.approx(0.75 + counted["costDetails"]["total"])

    scores = {s["name"]: s for s in trace["scores"]}
    assert scores["latency-ok"]["observationId"] == by_name["llm-paid"]["id"]
    assert (scores["latency-ok"]["dataType"], scores["latency-ok"]["value"]) == ("BOOLEAN", 1.0)
    assert (scores["correctness"]["value"], scores["correctness"]["comment"]) == (
        0.9,
        "close enough",
    )
    assert scores["tone"]["stringValue"] == "neutral"

    session = langfuse.get("/api/public/sessions/sess-7")
    assert [t["id"] for t in session["traces"]] == [trace_id]
    rating = langfuse.get("/api/public/v3/scores", sessionId="sess-7")["data"]
    assert [(s["name"], s["value"]) for s in rating] == [("session-rating", 4.0)]
    generations = langfuse.get("/api/public/v2/observations", traceId=trace_id, type="GENERATION")
    assert {o["name"] for o in generations["data"]} == {"llm-counted", "llm-paid"}
    listed = langfuse.get("/api/public/traces", userId="user-42", tags="sdk")
    assert trace_id in [t["id"] for t in listed["data"]]

    # the SDK's own read clients parse our answers
    read = langfuse.run_sdk(READ_SCRIPT, trace_id)
    generations = read["generations"]
    assert set(generations) == {"llm-counted", "llm-paid"}
    counted = generations["llm-counted"]
    assert counted["total_cost"] == pytest.approx(1000 * 0.15e-6 + 100 * 0.6e-6)
    assert counted["cost_total"] == counted["total_cost"]
    assert (counted["user_id"], counted["session_id"]) == ("user-42", "sess-7")
    assert (counted["trace_name"], counted["tags"]) == ("qa-pipeline", ["demo", "sdk"])
    assert counted["model"] == "gpt-4o-mini"
    assert json.loads(counted["output"]) == {"role": "assistant", "content": "4"}  # raw text
    assert generations["llm-paid"]["total_cost"] == pytest.approx(0.75)
    paged = [i for page in read["pages"] for i in page]
    assert sorted(paged) == sorted(o["id"] for o in trace["observations"])
    assert len(read["pages"]) == 3  # 11 observations, 4 a page
    scored = read["scores"]
    assert set(scored) == {"latency-ok", "correctness", "tone"}
    assert (scored["latency-ok"]["value"], scored["tone"]["value"]) == (True, "neutral")
    assert (scored["latency-ok"]["kind"], scored["tone"]["kind"]) == ("observation", "trace")
    assert scored["correctness"]["comment"] == "close enough"
    assert read["limit"] == 2
    assert (read["project"], read["health"]) == (langfuse.keys["project"]["id"], "OK")
    assert read["models"] > 0


def test_the_batch_fixture_answers_207_and_a_bad_event_fails_alone(langfuse: LangfuseServer):
    request = fixture("ingestion-batch.json")
    body = with_fresh_ids(request["body"])
    expected = request["response"]
    good_ids = [e["id"] for e in body["batch"]]
    body["batch"].append(
        {
            "id": "bad-1",
            "type": "span-create",
            "timestamp": "2026-11-29T21:12:22Z",
            "body": {"id": "x", "name": "no trace"},
        }
    )
    reply = langfuse.http.post("/api/public/ingestion", json=body)
    assert reply.status_code == expected["status"] == 207
    result = reply.json()
    assert [s["id"] for s in result["successes"]] == good_ids
    assert all(s["status"] == 201 for s in result["successes"])
    [error] = result["errors"]
    assert (error["id"], error["status"], error["message"]) == (
        "bad-1",
        400,
        "Invalid request data",
    )

    trace_id = body["batch"][0]["body"]["id"]
    trace = langfuse.trace(trace_id, observations=3, scores=2)
    assert (trace["name"], trace["userId"], trace["output"]) == (
        "nightly-qa",
        "user-7",
        {"answer": "Paris"},
    )
    generation = next(o for o in trace["observations"] if o["type"] == "GENERATION")
    sent = {"input": 2.1e-06, "output": 1.2e-06}
    assert generation["costDetails"] == sent | {"total": 2.1e-06 + 1.2e-06}  # as sent, totalled
    assert generation["output"] == "Paris"

    # (d) the same batch again: nothing is duplicated and nothing changes
    again = langfuse.http.post("/api/public/ingestion", json=body)
    assert again.status_code == 207
    langfuse.http.post("/api/public/ingestion", json={"batch": [body["batch"][0]]})
    after = langfuse.trace(trace_id, observations=3, scores=2)
    assert len(after["observations"]) == 3
    assert len(after["scores"]) == 2
    assert after["updatedAt"] == trace["updatedAt"]
    listed = langfuse.get("/api/public/traces", name="nightly-qa")
    assert [t["id"] for t in listed["data"]].count(trace_id) == 1


@pytest.mark.parametrize(
    ("body", "status"),
    [([1, 2], 400), ({"batch": "x"}, 400), ("not json", 400)],
)
def test_a_malformed_ingestion_body_is_a_400(langfuse: LangfuseServer, body, status):
    content = body if isinstance(body, str) else None
    reply = langfuse.http.post(
        "/api/public/ingestion", json=None if content else body, content=content
    )
    assert reply.status_code == status
    assert set(reply.json()) == {"message", "error"}


def test_wrong_keys_are_a_langfuse_shaped_401(langfuse: LangfuseServer):
    reply = langfuse.http.get("/api/public/projects", auth=("pk-ax-nope", "sk-ax-nope"))
    assert reply.status_code == 401
    assert set(reply.json()) == {"message", "error"}
    assert (
        langfuse.http.get(
            "/api/public/traces", auth=None, headers={"Authorization": ""}
        ).status_code
        == 401
    )
    projects = langfuse.get("/api/public/projects")["data"]
    assert projects[0]["id"] == langfuse.keys["project"]["id"]
