"""``/api/v1/{owner}/{project}/traces``, ``sessions``, ``users`` and ``scores``: the api token's
reads of LLM traces (what the web UI calls), against the stack."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import PROJECT, TracedProject


@pytest.fixture(scope="module")
def v1(traced: TracedProject) -> httpx.Client:
    """The api under ``/api/v1/acme/tracing`` as a signed-in user (no project key)."""
    headers = {"Authorization": f"Bearer {traced.stack.admin_token}"}
    return httpx.Client(base_url=f"{traced.api_url}/api/v1/{PROJECT}", headers=headers, timeout=10)


def ids(reply: httpx.Response) -> list[str]:
    assert reply.status_code == 200, reply.text
    return [row["id"] for row in reply.json()["data"]]


def test_traces_carry_their_tokens_and_filter_by_score_time_and_environment(
    v1: httpx.Client, sdk_trace: dict[str, Any]
):
    trace_id = sdk_trace["trace_id"]
    reply = v1.get("/traces", params={"user": "user-1", "environment": "default"})
    [row] = [t for t in reply.json()["data"] if t["id"] == trace_id]
    assert (row["input_tokens"], row["output_tokens"], row["total_tokens"]) == (1000, 100, 1100)
    assert row["latency"] > 0
    assert row["total_cost"] > 0

    scored = {"score_name": "correctness", "limit": 100}
    assert trace_id in ids(v1.get("/traces", params=scored | {"score_min": 0.5, "score_max": 1}))
    assert trace_id not in ids(v1.get("/traces", params=scored | {"score_min": 0.95}))
    assert trace_id not in ids(v1.get("/traces", params=scored | {"score_max": 0.5}))
    assert trace_id not in ids(v1.get("/traces", params={"score_name": "nobody"}))
    assert ids(v1.get("/traces", params={"environment": "nowhere"})) == []
    assert ids(v1.get("/traces", params={"to_timestamp": "2000-01-01T00:00:00Z"})) == []
    after = {"from_timestamp": "2000-01-01T00:00:00Z", "limit": 100}
    assert trace_id in ids(v1.get("/traces", params=after))


def test_a_session_lists_with_its_totals_and_reads_with_its_traces(
    v1: httpx.Client, sdk_trace: dict[str, Any]
):
    trace_id = sdk_trace["trace_id"]
    listed = v1.get("/sessions", params={"limit": 100})
    assert listed.status_code == 200, listed.text
    [row] = [s for s in listed.json()["data"] if s["id"] == "sess-1"]
    assert trace_id in row["trace_ids"]
    assert row["trace_count"] == len(row["trace_ids"]) >= 1
    assert row["user_ids"] == ["user-1"]
    assert row["total_cost"] > 0
    assert row["first_trace_at"] <= row["last_trace_at"]

    detail = v1.get("/sessions/sess-1")
    assert detail.status_code == 200, detail.text
    traces = detail.json()["traces"]
    assert trace_id in [t["id"] for t in traces]
    assert [t["timestamp"] for t in traces] == sorted(t["timestamp"] for t in traces)
    assert v1.get("/sessions/nobody").status_code == 404


def test_users_group_traces_with_their_tokens_and_cost(v1: httpx.Client, sdk_trace: dict[str, Any]):
    reply = v1.get("/users", params={"limit": 100})
    assert reply.status_code == 200, reply.text
    [user] = [u for u in reply.json()["data"] if u["user_id"] == "user-1"]
    traces = v1.get("/traces", params={"user": "user-1", "limit": 100}).json()["meta"]
    assert user["trace_count"] == traces["total_items"] >= 1
    assert user["input_tokens"] == 1000 * user["trace_count"]
    assert user["output_tokens"] == 100 * user["trace_count"]
    assert user["total_tokens"] == 1100 * user["trace_count"]
    assert user["total_cost"] > 0
    assert user["first_seen"] <= user["last_seen"]
    assert v1.get("/users", params={"environment": "nowhere"}).json()["data"] == []


def test_scores_filter_by_name_source_data_type_and_trace(
    v1: httpx.Client, sdk_trace: dict[str, Any]
):
    trace_id = sdk_trace["trace_id"]

    def names(**params: Any) -> list[str]:
        reply = v1.get("/scores", params={"trace_id": trace_id} | params)
        assert reply.status_code == 200, reply.text
        return sorted(s["name"] for s in reply.json()["data"])

    assert names() == ["correctness", "helpful"]
    assert names(name="correctness") == ["correctness"]
    assert names(data_type="BOOLEAN") == ["helpful"]
    assert names(source="API") == ["correctness", "helpful"]
    assert names(source="ANNOTATION") == []
    [helpful] = v1.get("/scores", params={"trace_id": trace_id, "name": "helpful"}).json()["data"]
    assert helpful["observation_id"] == sdk_trace["plan_id"]
    assert helpful["trace"]["user_id"] == "user-1"
    assert v1.get("/scores", params={"data_type": "NOPE"}).status_code == 422


def test_an_unknown_project_is_not_found(traced: TracedProject):
    for path in ("sessions", "users", "scores", "sessions/sess-1"):
        with traced.stack.http(timeout=10) as api:
            reply = api.get(f"/api/v1/nobody/nothing/{path}")
        assert reply.status_code == 404, (path, reply.text)
