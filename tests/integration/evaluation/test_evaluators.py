"""LLM-as-a-judge online rules on a real NATS and PostgreSQL, the provider a local double:
each matching trace is scored once; a failing job says why."""

from __future__ import annotations

import uuid

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events.evaluators import (
    CreateEvalRule,
    DeleteLlmConnection,
    GetEvalJob,
    ListEvalJobs,
    ListLlmConnections,
    SetRuleActive,
)
from axonal_events.rpcs import Evaluation
from axonal_testing.llm_double import llm_double
from axonal_testing.waiting import wait_for

from .evaluators_setup import PROJECT, PROJECT_ID, judge_rule, publish_traces


async def _jobs(nc, subjects, state=None):
    query = ListEvalJobs(project_id=PROJECT_ID, rule_id="chat-helpfulness", state=state)
    return (await rpc.call(nc, subjects, Evaluation.list_eval_jobs, query)).data


async def test_connections_are_encrypted_and_masked(services, nats_client, database_url):
    subjects = services.subjects
    with llm_double() as double:
        await judge_rule(nats_client, subjects, double.base_url)
    page = await rpc.call(
        nats_client,
        subjects,
        Evaluation.list_llm_connections,
        ListLlmConnections(project_id=PROJECT_ID),
    )
    (found,) = page.data
    assert found.display_secret_key == "sk-...6789"
    assert page.meta.total_items == 1
    conn = await connect(database_url)
    stored = await conn.fetchval("SELECT secret_encrypted FROM evaluation.llm_connections")
    await conn.close()
    assert "sk-test" not in stored
    deleted = await rpc.call(
        nats_client,
        subjects,
        Evaluation.delete_llm_connection,
        DeleteLlmConnection(project_id=PROJECT_ID, id=found.id),
    )
    assert deleted.message


async def test_a_rule_without_its_connection_refuses_to_activate(services, nats_client, double):
    subjects = services.subjects
    rule = await judge_rule(nats_client, subjects, double.base_url)
    request = CreateEvalRule(
        project_id=PROJECT_ID,
        project=PROJECT,
        name="orphan",
        template="helpfulness",
        connection="missing",
        model="m",
    )
    with pytest.raises(RemoteError, match="no LLM connection 'missing'"):
        await rpc.call(nats_client, subjects, Evaluation.create_eval_rule, request)
    inactive = await rpc.call(
        nats_client,
        subjects,
        Evaluation.create_eval_rule,
        request.model_copy(update={"active": False}),
    )
    assert not inactive.active
    with pytest.raises(RemoteError, match="no LLM connection 'missing'"):
        await rpc.call(
            nats_client,
            subjects,
            Evaluation.set_eval_rule_active,
            SetRuleActive(project_id=PROJECT_ID, id="orphan", active=True),
        )
    off = await rpc.call(
        nats_client,
        subjects,
        Evaluation.set_eval_rule_active,
        SetRuleActive(project_id=PROJECT_ID, id=rule.id, active=False),
    )
    assert not off.active


async def test_matching_traces_are_scored_once_and_failures_say_why(
    services, nats_client, database_url, double
):
    subjects, js = services.subjects, nats_client.jetstream()
    double.configure(faults=["429", "500"], retry_after=0.05, when={"BREAK": "off_schema"})
    await judge_rule(nats_client, subjects, double.base_url)
    good = [uuid.uuid4().hex for _ in range(3)]
    missing, breaking, other = (uuid.uuid4().hex for _ in range(3))
    traces = [(t, "chat", {"answer": "4 SCORE=0.9"}) for t in good]
    traces += [(missing, "chat", {"text": "no answer field"})]
    traces += [(breaking, "chat", {"answer": "BREAK"}), (other, "other", {"answer": "4"})]
    await publish_traces(js, subjects, traces)
    await publish_traces(js, subjects, traces)  # the same traces again: no second job

    async def settled() -> bool:
        jobs = await _jobs(nats_client, subjects)
        return len(jobs) == 5 and all(j.state in ("succeeded", "failed") for j in jobs)

    await wait_for(settled, timeout=30, message="5 jobs done")
    jobs = {j.trace_id: j for j in await _jobs(nats_client, subjects)}
    assert other not in jobs
    assert {jobs[t].state for t in good} == {"succeeded"}
    assert {jobs[t].score_value for t in good} == {0.9}
    assert jobs[missing].state == "failed"
    assert "variable 'answer'" in jobs[missing].reason
    assert "output.answer" in jobs[missing].reason
    broken = await rpc.call(
        nats_client,
        subjects,
        Evaluation.get_eval_job,
        GetEvalJob(project_id=PROJECT_ID, id=jobs[breaking].id),
    )
    assert broken.state == "failed"
    assert "breaks the output schema" in broken.reason
    assert broken.answer == {"verdict": "good"}
    assert len(await _jobs(nats_client, subjects, "failed")) == 2

    conn = await connect(database_url)

    async def scored() -> bool:
        sql = "SELECT count(*) FROM tracking.scores WHERE project_id = $1 AND source = 'EVAL'"
        return await conn.fetchval(sql, PROJECT_ID) >= 3

    await wait_for(scored, timeout=20, message="3 scores")
    judged = "SELECT count(*) FROM tracking.observations WHERE environment = $1 AND model = $2"
    await wait_for(
        lambda: conn.fetchval(judged, "langfuse-llm-as-a-judge", "gpt-judge"),
        timeout=20,
        message="judge calls traced",
    )
    rows = await conn.fetch(
        "SELECT trace_id, value, comment FROM tracking.scores WHERE project_id = $1", PROJECT_ID
    )
    await conn.close()
    assert sorted(r["trace_id"] for r in rows) == sorted(good)
    assert {r["value"] for r in rows} == {0.9}
    first = double.requests[0].body
    assert first["model"] == "gpt-judge"
    assert first["response_format"]["json_schema"]["schema"]["required"] == ["score", "reasoning"]
    assert "Question: what is 2+2?" in first["messages"][0]["content"]
