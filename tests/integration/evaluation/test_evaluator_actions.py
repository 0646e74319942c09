"""What rules do beyond judging new traces, on a real NATS and PostgreSQL (the provider a
local double): a rule that sends traces with a negative feedback score to an annotation queue,
once each, and a rule on a dataset whose experiments' items are judged as they are linked,
with the dataset item's expected output in the prompt."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import StreamKind
from axonal_events.annotation_queues import CreateQueue, ListQueueItems
from axonal_events.datasets import CreateDataset, CreateRunItem, UpsertDatasetItem
from axonal_events.evaluators import (
    CreateEvalRule,
    CreateEvalTemplate,
    ListEvalJobs,
    RuleFilter,
)
from axonal_events.rpcs import Evaluation, Tracking
from axonal_events.trace_reads import GetTrace
from axonal_events.traces import ScoreRecord, TraceBatch
from axonal_testing.bus import drained
from axonal_testing.waiting import wait_for

from .evaluators_setup import PROJECT, PROJECT_ID, judge_rule, publish_traces


async def _publish_scores(js, subjects, scores: list[tuple[str, str, float]]) -> None:
    """Scores ``(trace, name, value)``, each with an id of its trace and name (so sending one
    again changes nothing)."""
    now = datetime.now(UTC)
    records = [
        ScoreRecord(
            id=uuid.uuid5(uuid.NAMESPACE_URL, f"{trace}/{name}").hex,
            event_time=now,
            timestamp=now,
            name=name,
            value=value,
            trace_id=trace,
        )
        for trace, name, value in scores
    ]
    batch = TraceBatch(project_id=PROJECT_ID, project=PROJECT, received_at=now, scores=records)
    await js.publish(
        subjects.ingest(f"traces.{PROJECT_ID}"),
        batch.model_dump_json(exclude_none=True).encode(),
        headers={"Nats-Msg-Id": uuid.uuid4().hex},
    )


async def _jobs(nc, subjects, rule: str):
    query = ListEvalJobs(project_id=PROJECT_ID, rule_id=rule)
    return (await rpc.call(nc, subjects, Evaluation.list_eval_jobs, query)).data


async def _stored(nc, subjects, trace_id: str, scores: int = 0) -> bool:
    request = GetTrace(project_id=PROJECT_ID, id=trace_id)
    try:
        detail = await rpc.call(nc, subjects, Tracking.get_trace, request)
    except RemoteError:
        return False
    return len(detail.scores) >= scores


async def test_traces_with_negative_feedback_go_to_the_review_queue_once(services, nats_client):
    subjects, js = services.subjects, nats_client.jetstream()
    queue = await rpc.call(
        nats_client,
        subjects,
        Evaluation.create_queue,
        CreateQueue(project_id=PROJECT_ID, name="review"),
    )
    rule = CreateEvalRule(
        project_id=PROJECT_ID,
        project=PROJECT,
        name="unhappy-users",
        queue="review",
        filter={"names": ["chat"], "scores": [{"name": "feedback", "operator": "<", "value": 0}]},
    )
    created = await rpc.call(nats_client, subjects, Evaluation.create_eval_rule, rule)
    assert created.queue_id == queue.id
    assert created.template is None
    unhappy, happy, silent, other = (uuid.uuid4().hex for _ in range(4))
    names = [(unhappy, "chat"), (happy, "chat"), (silent, "chat"), (other, "search")]
    await publish_traces(js, subjects, [(t, name, {"answer": "4"}) for t, name in names])
    for trace_id in (unhappy, happy, silent, other):
        await wait_for(lambda t=trace_id: _stored(nats_client, subjects, t), message="stored")
    assert await _jobs(nats_client, subjects, "unhappy-users") == []  # no score yet: no match
    scores = [(unhappy, "feedback", -1.0), (happy, "feedback", 1.0), (other, "feedback", -1.0)]
    await _publish_scores(js, subjects, scores)

    async def items():
        query = ListQueueItems(project_id=PROJECT_ID, queue_id=queue.id)
        return (await rpc.call(nats_client, subjects, Evaluation.list_queue_items, query)).data

    await wait_for(lambda: _queued(items), timeout=20, message="the unhappy trace queued")
    # the same score again, and another score on the same trace: still one item, one job
    await _publish_scores(js, subjects, [(unhappy, "feedback", -1.0), (unhappy, "tone", 0.2)])
    await wait_for(lambda: _stored(nats_client, subjects, unhappy, scores=2), message="tone")
    await _evaluated(js, subjects, batches=3)  # a wrong second job would be made by now
    (item,) = await items()
    assert (item.object_id, item.object_type.value) == (unhappy, "TRACE")
    (job,) = await _jobs(nats_client, subjects, "unhappy-users")
    assert (job.trace_id, job.state, job.queue_item_id) == (unhappy, "succeeded", item.id)
    assert job.score_id is None


async def _evaluated(js, subjects, batches: int) -> None:
    """Wait until tracking announced ``batches`` stored batches and the evaluation service
    took and acknowledged every announcement and every job command they made."""
    events = subjects.stream_name(StreamKind.EVENTS)

    async def announced() -> bool:
        info = await js.stream_info(events, subjects_filter=subjects.event("trace.ingested"))
        return sum((info.state.subjects or {}).values()) >= batches

    await wait_for(announced, timeout=20, message=f"{batches} trace.ingested events")
    for stream, durable in (
        (events, "evaluation-online"),
        (subjects.stream_name(StreamKind.COMMANDS), "evaluation-jobs"),
    ):
        await wait_for(lambda s=stream, d=durable: drained(js, s, d), timeout=20, message=durable)


async def _queued(items) -> bool:
    return len(await items()) >= 1


async def test_a_rule_on_a_dataset_judges_its_experiment_items_as_they_are_linked(
    services, nats_client, double
):
    subjects, js = services.subjects, nats_client.jetstream()
    await judge_rule(nats_client, subjects, double.base_url, name="unused", active=False)
    await rpc.call(
        nats_client,
        subjects,
        Evaluation.create_eval_template,
        CreateEvalTemplate(
            project_id=PROJECT_ID,
            name="correctness",
            prompt="Expected: {{expected}}\nOutput: {{output}}",
        ),
    )
    await rpc.call(
        nats_client,
        subjects,
        Evaluation.create_dataset,
        CreateDataset(project_id=PROJECT_ID, name="qa"),
    )
    item = await rpc.call(
        nats_client,
        subjects,
        Evaluation.upsert_dataset_item,
        UpsertDatasetItem(
            project_id=PROJECT_ID, dataset_name="qa", input="2+2?", expected_output="SCORE=0.7"
        ),
    )
    rule = CreateEvalRule(
        project_id=PROJECT_ID,
        project=PROJECT,
        name="qa-correctness",
        template="correctness",
        connection="judge",
        model="gpt-judge",
        filter={"datasets": ["qa"]},
        mapping={"expected": "dataset_item.expected_output", "output": "output"},
    )
    await rpc.call(nats_client, subjects, Evaluation.create_eval_rule, rule)
    missing = rule.model_copy(update={"name": "nope", "filter": RuleFilter(datasets=["absent"])})
    with pytest.raises(RemoteError, match=r"filter\.datasets: no dataset 'absent'"):
        await rpc.call(nats_client, subjects, Evaluation.create_eval_rule, missing)

    ran, production = uuid.uuid4().hex, uuid.uuid4().hex
    await publish_traces(js, subjects, [(ran, "task", "four"), (production, "task", "five")])
    for trace_id in (ran, production):
        await wait_for(lambda t=trace_id: _stored(nats_client, subjects, t), message="stored")
    link = CreateRunItem(
        project_id=PROJECT_ID, run_name="exp-1", dataset_item_id=item.id, trace_id=ran
    )
    linked = await rpc.call(nats_client, subjects, Evaluation.create_run_item, link)
    await rpc.call(nats_client, subjects, Evaluation.create_run_item, link)  # again: no new job

    async def judged() -> bool:
        jobs = await _jobs(nats_client, subjects, "qa-correctness")
        return bool(jobs) and all(j.state == "succeeded" for j in jobs)

    await wait_for(judged, timeout=20, message="the experiment item judged")
    (job,) = await _jobs(nats_client, subjects, "qa-correctness")
    assert (job.trace_id, job.score_value) == (ran, 0.7)
    assert (job.dataset_item_id, job.dataset_run_id) == (item.id, linked.dataset_run_id)
    prompts = [r.body["messages"][0]["content"] for r in double.requests]
    assert "Expected: SCORE=0.7\nOutput: four" in prompts
