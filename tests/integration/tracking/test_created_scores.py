"""``score.created`` events (an evaluator's or annotator's scores) are stored like ingested
scores: once, whatever the redeliveries."""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_bus import rpc
from axonal_bus.outbox import event_headers
from axonal_events import new_event
from axonal_events.catalog.scores import ScoreCreated
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import ListScores
from axonal_events.traces import ScoreRecord, ScoreSource
from axonal_testing.waiting import wait_for

PROJECT = "0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"


async def test_an_evaluators_score_is_stored_once(tracking, nats_client):
    js = nats_client.jetstream()
    score = ScoreRecord(
        id="judge-1", event_time=datetime(2026, 12, 1, tzinfo=UTC), name="helpfulness",
        value=0.25, source=ScoreSource.EVAL, trace_id="t-1", comment="too terse",
        queue_id=None, metadata={"job_id": "j-1"},
    )  # fmt: skip
    data = ScoreCreated(project_id=PROJECT, project="acme/llm", score=score, job_id="j-1")
    for _ in range(2):  # two events with the same score: a redelivery, a retried job
        event = new_event(data, source="/tests", project="acme/llm")
        subject = tracking.subjects.event("score.created")
        await js.publish(subject, event.to_json(), headers=event_headers(event))
    request = ListScores(project_id=PROJECT, trace_id=["t-1"])

    async def stored():
        page = await rpc.call(nats_client, tracking.subjects, Tracking.list_scores, request)
        return page if page.data else None

    page = await wait_for(stored, message="the evaluator's score is stored")
    [view] = page.data
    assert (view.name, view.value, view.source, view.comment) == (
        "helpfulness", 0.25, ScoreSource.EVAL, "too terse",
    )  # fmt: skip
    assert page.meta.total_items == 1
