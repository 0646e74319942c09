"""Score configs and annotation queues through the unmodified Langfuse SDK: configs of each
type created, read, listed and archived; a queue with items and assignments; an item
completed with its scores (``axonal queues complete``), read back by ``queueId``; and scores
that break their config refused with the reason, at ingestion and at ``/scores``. Every
answer parses with the SDK's own models."""

from __future__ import annotations

import uuid

from axonal_testing.waiting import wait_for_sync

from .conftest import LangfuseServer

SETUP = r"""
import json, sys
from langfuse import Langfuse
from langfuse.api import (
    AnnotationQueue, AnnotationQueueItem, ConfigCategory, CreateAnnotationQueueAssignmentResponse,
    DeleteAnnotationQueueAssignmentResponse, DeleteAnnotationQueueItemResponse,
    PaginatedAnnotationQueueItems, PaginatedAnnotationQueues, ScoreConfig, ScoreConfigs,
)

tag, trace_id = sys.argv[1], sys.argv[2]
lf = Langfuse()
configs = lf.api.score_configs
num = configs.create(name=f"quality-{tag}", data_type="NUMERIC", min_value=0, max_value=1,
                     description="how good")
cat = configs.create(name=f"tone-{tag}", data_type="CATEGORICAL",
                     categories=[ConfigCategory(label="good", value=1),
                                 ConfigCategory(label="bad", value=0)])
boolean = configs.create(name=f"correct-{tag}", data_type="BOOLEAN")
old = configs.create(name=f"old-{tag}", data_type="NUMERIC")
archived = configs.update(old.id, is_archived=True, description="retired")
got = configs.get_by_id(num.id)
listed = configs.get(page=1, limit=100)

queues = lf.api.annotation_queues
queue = queues.create_queue(name=f"review-{tag}", score_config_ids=[num.id, cat.id],
                            description="negative feedback")
got_queue = queues.get_queue(queue.id)
all_queues = queues.list_queues()
item = queues.create_queue_item(queue.id, object_id=trace_id, object_type="TRACE")
again = queues.create_queue_item(queue.id, object_id=trace_id, object_type="TRACE")
other = queues.create_queue_item(queue.id, object_id=f"other-{tag}", object_type="SESSION")
got_item = queues.get_queue_item(queue.id, item.id)
pending = queues.list_queue_items(queue.id, status="PENDING")
assigned = queues.create_queue_assignment(queue.id, user_id="ada")
unassigned = queues.delete_queue_assignment(queue.id, user_id="ada")
patched = queues.update_queue_item(queue.id, other.id, status="COMPLETED")
deleted = queues.delete_queue_item(queue.id, other.id)
print(json.dumps({
    "models": [isinstance(num, ScoreConfig), isinstance(listed, ScoreConfigs),
               isinstance(queue, AnnotationQueue),
               isinstance(all_queues, PaginatedAnnotationQueues),
               isinstance(item, AnnotationQueueItem),
               isinstance(pending, PaginatedAnnotationQueueItems),
               isinstance(assigned, CreateAnnotationQueueAssignmentResponse),
               isinstance(unassigned, DeleteAnnotationQueueAssignmentResponse),
               isinstance(deleted, DeleteAnnotationQueueItemResponse)],
    "num": [num.data_type, num.min_value, num.max_value, num.is_archived, num.description],
    "cat": [c.dict() for c in cat.categories],
    "boolean": sorted((c.label, c.value) for c in boolean.categories),
    "archived": [archived.is_archived, archived.description, archived.name],
    "got": got.name,
    "listed": [listed.meta.total_items, sorted(c.name for c in listed.data)],
    "queue": [got_queue.name, got_queue.score_config_ids, got_queue.description],
    "queues": [q.id for q in all_queues.data],
    "items": [item.id, again.id, got_item.status, item.object_type],
    "pending": [i.object_id for i in pending.data],
    "assignment": [assigned.user_id, assigned.queue_id, unassigned.success],
    "patched": [patched.status, patched.completed_at is not None],
    "deleted": deleted.success,
    "ids": {"num": num.id, "cat": cat.id, "old": old.id, "queue": queue.id, "item": item.id},
}, default=str))
"""

READ = r"""
import json, sys, time
from langfuse import Langfuse
from langfuse.api import GetScoresV3Response

queue_id, cat_id, trace_id = sys.argv[1], sys.argv[2], sys.argv[3]
lf = Langfuse()
lf.create_score(name="ignored", value="bad", trace_id=trace_id, config_id=cat_id,
                data_type="CATEGORICAL", score_id=f"sdk-{queue_id}")
lf.flush()
deadline = time.time() + 30
while True:
    found = lf.api.scores.get_many(queue_id=queue_id, fields="details,annotation,subject")
    sdk = lf.api.scores.get_many(id=f"sdk-{queue_id}", fields="details")
    if (len(found.data) >= 2 and sdk.data) or time.time() > deadline:
        break
    time.sleep(0.5)
lf.shutdown()
print(json.dumps({
    "parsed": isinstance(found, GetScoresV3Response),
    "scores": sorted([s.name, s.value, s.source, s.queue_id, s.config_id, s.comment]
                     for s in found.data),
    "sdk": [[s.name, s.value, s.config_id] for s in sdk.data],
}, default=str))
"""


def test_configs_queues_and_completion_through_the_langfuse_sdk(langfuse: LangfuseServer):
    tag = uuid.uuid4().hex[:8]
    trace_id = f"trace-{tag}"
    out = langfuse.run_sdk(SETUP, tag, trace_id)
    assert all(out["models"]), out["models"]
    assert out["num"] == ["NUMERIC", 0.0, 1.0, False, "how good"]
    assert out["cat"] == [{"value": 1.0, "label": "good"}, {"value": 0.0, "label": "bad"}]
    assert out["boolean"] == [["False", 0.0], ["True", 1.0]]
    assert out["archived"] == [True, "retired", f"old-{tag}"]
    assert out["got"] == f"quality-{tag}"
    total, names = out["listed"]
    assert {f"quality-{tag}", f"tone-{tag}", f"correct-{tag}", f"old-{tag}"} <= set(names)
    assert total >= 4
    ids = out["ids"]
    assert out["queue"] == [f"review-{tag}", [ids["num"], ids["cat"]], "negative feedback"]
    assert ids["queue"] in out["queues"]
    item_id, again_id, status, object_type = out["items"]
    assert (again_id, status, object_type) == (item_id, "PENDING", "TRACE")
    assert out["pending"] == [trace_id, f"other-{tag}"]
    assert out["assignment"] == ["ada", ids["queue"], True]
    assert out["patched"] == ["COMPLETED", True]
    assert out["deleted"] is True

    stack = langfuse.stack
    v1 = f"/api/v1/acme/llm/annotation-queues/{ids['queue']}"
    with stack.http(timeout=10) as api:
        scored_with = api.get(f"{v1}/score-configs").json()["data"]
        assert [c["name"] for c in scored_with] == [f"quality-{tag}", f"tone-{tag}"]
        assert api.get(v1).json()["name"] == f"review-{tag}"
    refused = stack.cli(
        "queues", "complete", ids["queue"], item_id, "-s", f"quality-{tag}=5", "-p", "acme/llm"
    )
    assert refused.returncode != 0
    assert "Value exceeds maximum value of 1" in refused.stdout + refused.stderr
    done = stack.cli_json(
        "queues", "complete", ids["queue"], item_id, "-p", "acme/llm",
        "-s", f"quality-{tag}=0.8", "-s", f"tone-{tag}=good", "--comment", "checked",
    )  # fmt: skip
    assert done["item"]["status"] == "COMPLETED"
    assert len(done["score_ids"]) == 2
    items = stack.cli_json("queues", "items", ids["queue"], "-p", "acme/llm")
    assert [(i["object_id"], i["status"]) for i in items] == [(trace_id, "COMPLETED")]

    read = langfuse.run_sdk(READ, ids["queue"], ids["cat"], trace_id)
    assert read["parsed"]
    assert read["scores"] == [
        [f"quality-{tag}", 0.8, "ANNOTATION", ids["queue"], ids["num"], "checked"],
        [f"tone-{tag}", "good", "ANNOTATION", ids["queue"], ids["cat"], "checked"],
    ]
    # the SDK's score named a config: it takes the config's name
    assert read["sdk"] == [[f"tone-{tag}", "bad", ids["cat"]]]


def test_scores_that_break_their_config_are_refused_with_the_reason(langfuse: LangfuseServer):
    tag = uuid.uuid4().hex[:8]
    http = langfuse.http
    num = http.post(
        "/api/public/score-configs",
        json={"name": f"q-{tag}", "dataType": "NUMERIC", "minValue": 0, "maxValue": 1},
    ).json()
    cat = http.post(
        "/api/public/score-configs",
        json={
            "name": f"t-{tag}",
            "dataType": "CATEGORICAL",
            "categories": [{"label": "good", "value": 1}],
        },
    ).json()
    old = http.post("/api/public/score-configs", json={"name": f"o-{tag}", "dataType": "BOOLEAN"})
    old_id = old.json()["id"]
    assert http.patch(f"/api/public/score-configs/{old_id}", json={"isArchived": True}).is_success

    def score(event_id: str, **body):
        body = {"traceId": f"t-{tag}", "name": "x", **body}
        return {"id": event_id, "type": "score-create", "timestamp": "2026-01-01T00:00:00Z",
                "body": body}  # fmt: skip

    batch = [
        score("ok", value=0.5, configId=num["id"]),
        score("high", value=3, configId=num["id"]),
        score("label", value="meh", configId=cat["id"]),
        score("archived", value=1, configId=old_id),
        score("unknown", value=1, configId="nope"),
        score("type", value=0.5, configId=num["id"], dataType="BOOLEAN"),
    ]
    reply = http.post("/api/public/ingestion", json={"batch": batch})
    assert reply.status_code == 207
    body = reply.json()
    assert [s["id"] for s in body["successes"]] == ["ok"]
    errors = {e["id"]: e for e in body["errors"]}
    assert "Value exceeds maximum value of 1 defined in config" in errors["high"]["error"]
    assert "Value meh does not map to a valid category" in errors["label"]["error"]
    assert "Config is archived" in errors["archived"]["error"]
    assert errors["unknown"]["status"] == 404
    assert "does not match a valid config" in errors["unknown"]["error"]
    assert "expected NUMERIC, got BOOLEAN" in errors["type"]["error"]
    assert {e["status"] for k, e in errors.items() if k != "unknown"} == {400}

    one = http.post(
        "/api/public/scores",
        json={"traceId": f"t-{tag}", "name": "x", "value": -1, "configId": num["id"]},
    )
    assert one.status_code == 400
    assert "Value is below minimum value of 0 defined in config" in one.json()["message"]
    unknown = http.post(
        "/api/public/scores", json={"traceId": "t", "name": "x", "value": 1, "configId": "nope"}
    )
    assert unknown.status_code == 404
    many = http.post(
        "/api/public/scores",
        json=[
            {"traceId": "t", "name": "x", "value": 0.2, "configId": num["id"]},
            {"traceId": "t", "name": "x", "value": "bad", "configId": cat["id"]},
        ],
    )
    assert many.status_code == 207
    assert many.json()["accepted"] == 1
    assert "does not map to a valid category" in many.json()["errors"][0]["message"]

    bad = http.post(
        "/api/public/score-configs",
        json={"name": f"r-{tag}", "dataType": "NUMERIC", "minValue": 2, "maxValue": 1},
    )
    assert bad.status_code == 400
    assert "maxValue" in bad.text


def test_an_observation_item_is_scored_on_its_trace(langfuse: LangfuseServer):
    tag = uuid.uuid4().hex[:8]
    http = langfuse.http
    trace_id, span_id = f"trace-{tag}", f"span-{tag}"
    events = [
        {"id": f"e1-{tag}", "type": "trace-create", "timestamp": "2026-01-01T00:00:00Z",
         "body": {"id": trace_id, "name": "answer"}},
        {"id": f"e2-{tag}", "type": "span-create", "timestamp": "2026-01-01T00:00:00Z",
         "body": {"id": span_id, "traceId": trace_id, "name": "retrieve"}},
    ]  # fmt: skip
    assert http.post("/api/public/ingestion", json={"batch": events}).status_code == 207
    langfuse.trace(trace_id, observations=1)
    config = http.post(
        "/api/public/score-configs", json={"name": f"ok-{tag}", "dataType": "BOOLEAN"}
    ).json()
    queue = http.post(
        "/api/public/annotation-queues",
        json={"name": f"spans-{tag}", "scoreConfigIds": [config["id"]]},
    ).json()
    item = http.post(
        f"/api/public/annotation-queues/{queue['id']}/items",
        json={"objectId": span_id, "objectType": "OBSERVATION"},
    ).json()
    done = langfuse.stack.cli_json(
        "queues", "complete", queue["id"], item["id"], "-s", f"ok-{tag}=1", "-p", "acme/llm"
    )
    assert done["item"]["status"] == "COMPLETED"
    found = wait_for_sync(
        lambda: (
            http.get(
                "/api/public/v3/scores", params={"queueId": queue["id"], "fields": "subject"}
            ).json()["data"]
            or None
        ),
        timeout=30,
        message="observation score stored",
    )
    assert found[0]["value"] is True
    assert found[0]["subject"]["traceId"] == trace_id
