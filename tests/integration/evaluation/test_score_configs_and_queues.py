"""Score configs and annotation queues over RPC on a real NATS and PostgreSQL: configs and
their archiving, idempotent items, completion emitting its scores through the outbox once
per score, and bad requests refused naming the field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_evaluation.queues.review import add_to_queue
from axonal_events import ErrorCode, StreamKind
from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationScore,
    CompleteQueueItem,
    CreateQueue,
    ListQueueItems,
    QueueAssignment,
    QueueItemRef,
    QueueStatus,
    UpdateQueueItem,
)
from axonal_events.rpcs import Evaluation
from axonal_events.score_configs import (
    CreateScoreConfig,
    GetScoreConfigs,
    ListScoreConfigs,
    UpdateScoreConfig,
)
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

P = "project-1"


async def configs(call):
    quality = await call(
        Evaluation.create_score_config,
        CreateScoreConfig(
            project_id=P, name="quality", data_type="NUMERIC", min_value=0, max_value=1
        ),
    )
    tone = await call(
        Evaluation.create_score_config,
        CreateScoreConfig(
            project_id=P,
            name="tone",
            data_type="CATEGORICAL",
            categories=[{"label": "good", "value": 1}, {"label": "bad", "value": 0}],
        ),
    )
    return quality, tone


async def test_configs_are_created_listed_changed_and_archived(call):
    quality, tone = await configs(call)
    boolean = await call(
        Evaluation.create_score_config,
        CreateScoreConfig(project_id=P, name="correct", data_type="BOOLEAN"),
    )
    assert [(c.label, c.value) for c in boolean.categories] == [("True", 1), ("False", 0)]
    listed = await call(Evaluation.list_score_configs, ListScoreConfigs(project_id=P, limit=2))
    assert listed.meta.total_items == 3
    assert [c.name for c in listed.data] == ["correct", "tone"]

    changed = await call(
        Evaluation.update_score_config,
        UpdateScoreConfig(project_id=P, id=quality.id, max_value=10, is_archived=True),
    )
    assert (changed.max_value, changed.min_value, changed.is_archived) == (10, 0, True)
    with pytest.raises(RemoteError) as caught:
        await call(
            Evaluation.update_score_config,
            UpdateScoreConfig(project_id=P, id=quality.id, min_value=20),
        )
    assert caught.value.code is ErrorCode.INVALID
    assert "maxValue" in str(caught.value)
    many = await call(
        Evaluation.get_score_configs, GetScoreConfigs(project_id=P, ids=[tone.id, "nope"])
    )
    assert [c.id for c in many.data] == [tone.id]
    other = await call(
        Evaluation.get_score_configs, GetScoreConfigs(project_id="other", ids=[tone.id])
    )
    assert other.data == []


async def test_items_are_added_once_and_completion_emits_each_score_once(
    call, evaluation, nats_client
):
    quality, tone = await configs(call)
    queue = await call(
        Evaluation.create_queue,
        CreateQueue(project_id=P, name="review", score_config_ids=[quality.id, tone.id]),
    )
    add = AddQueueItem(project_id=P, queue_id=queue.id, object_id="trace-1", object_type="TRACE")
    item = await call(Evaluation.add_queue_item, add)
    assert (await call(Evaluation.add_queue_item, add)).id == item.id
    conn = await connect(evaluation.database_url, schema="evaluation")
    try:
        again = await add_to_queue(conn, P, queue.id, "trace-1")
        other = await add_to_queue(conn, P, queue.id, "trace-2")
    finally:
        await conn.close()
    assert again.id == item.id
    assert other.id != item.id

    complete = CompleteQueueItem(
        project_id=P,
        project="acme/app",
        queue_id=queue.id,
        item_id=item.id,
        scores=[
            AnnotationScore(name="quality", value=0.8, comment="fine"),
            AnnotationScore(config_id=tone.id, value="good"),
        ],
    )
    done = await call(Evaluation.complete_queue_item, complete)
    assert done.item.status is QueueStatus.COMPLETED
    assert done.item.completed_at is not None
    repeated = await call(Evaluation.complete_queue_item, complete)
    assert repeated.score_ids == done.score_ids

    js = nats_client.jetstream()
    subjects = evaluation.subjects

    async def published() -> list[Any] | None:
        found = await read_stream(js, subjects.stream_name(StreamKind.EVENTS), subjects.events())
        return found if found and len(found) >= 4 else None

    events = [json.loads(data) for _, data, _ in await wait_for(published, message="events")]
    scores = [e["data"]["score"] for e in events if e["type"] == "axonal.score.created"]
    assert {s["id"] for s in scores} == set(done.score_ids)
    tone_score = next(s for s in scores if s["name"] == "tone")
    assert (tone_score["value"], tone_score["string_value"]) == (1.0, "good")
    assert all(s["source"] == "ANNOTATION" and s["queue_id"] == queue.id for s in scores)
    assert all(s["trace_id"] == "trace-1" for s in scores)

    pending = await call(
        Evaluation.list_queue_items,
        ListQueueItems(project_id=P, queue_id=queue.id, status="PENDING"),
    )
    assert [i.object_id for i in pending.data] == ["trace-2"]


async def test_a_score_that_breaks_the_queue_configs_leaves_the_item_pending(call):
    quality, _ = await configs(call)
    queue = await call(
        Evaluation.create_queue, CreateQueue(project_id=P, name="q", score_config_ids=[quality.id])
    )
    item = await call(
        Evaluation.add_queue_item,
        AddQueueItem(project_id=P, queue_id=queue.id, object_id="t", object_type="TRACE"),
    )
    bad = CompleteQueueItem(
        project_id=P,
        project="acme/app",
        queue_id=queue.id,
        item_id=item.id,
        scores=[AnnotationScore(name="quality", value=5)],
    )
    with pytest.raises(RemoteError) as caught:
        await call(Evaluation.complete_queue_item, bad)
    assert caught.value.code is ErrorCode.INVALID
    assert "Value exceeds maximum value of 1" in str(caught.value)
    ref = QueueItemRef(project_id=P, queue_id=queue.id, item_id=item.id)
    assert (await call(Evaluation.get_queue_item, ref)).status is QueueStatus.PENDING

    status_only = UpdateQueueItem(**ref.model_dump(), status="COMPLETED")
    assert (await call(Evaluation.update_queue_item, status_only)).status is QueueStatus.COMPLETED
    assigned = QueueAssignment(project_id=P, queue_id=queue.id, user_id="u1")
    assert (await call(Evaluation.assign_queue, assigned)).user_id == "u1"
    assert (await call(Evaluation.unassign_queue, assigned)).success
    assert (await call(Evaluation.delete_queue_item, ref)).success
    with pytest.raises(RemoteError) as missing:
        await call(Evaluation.get_queue_item, ref)
    assert missing.value.code is ErrorCode.NOT_FOUND


async def test_queues_refuse_unknown_configs_and_duplicate_names(call):
    await configs(call)
    with pytest.raises(RemoteError) as unknown:
        await call(
            Evaluation.create_queue, CreateQueue(project_id=P, name="q", score_config_ids=["x"])
        )
    assert "scoreConfigIds" in str(unknown.value)
    await call(Evaluation.create_queue, CreateQueue(project_id=P, name="q"))
    with pytest.raises(RemoteError) as duplicate:
        await call(Evaluation.create_queue, CreateQueue(project_id=P, name="q"))
    assert duplicate.value.code is ErrorCode.CONFLICT
