"""``axonal queues``: list and create queues, list and add items, complete one with scores."""

from __future__ import annotations

from .conftest import FakeApi, invoke

BASE = "/api/v1/acme/demo/annotation-queues"
AT = "2026-01-01T10:00:00Z"
QUEUE = {
    "id": "q1",
    "project_id": "p1",
    "name": "review",
    "description": "negative feedback",
    "score_config_ids": ["c1", "c2"],
    "created_at": AT,
    "updated_at": AT,
}
ITEM = {
    "id": "i1",
    "queue_id": "q1",
    "project_id": "p1",
    "object_id": "trace-1",
    "object_type": "TRACE",
    "status": "PENDING",
    "created_at": AT,
    "updated_at": AT,
}
META = {"page": 1, "limit": 100, "total_items": 1, "total_pages": 1}


def test_ls_and_create(fake_api: FakeApi):
    fake_api.answer("GET", BASE, {"data": [QUEUE], "meta": META})
    listed = invoke("queues", "ls")
    assert listed.exit_code == 0, listed.output
    assert "review" in listed.output
    assert "negative feedback" in listed.output
    fake_api.answer("POST", BASE, QUEUE)
    made = invoke("queues", "create", "review", "-c", "c1", "-c", "c2")
    assert made.exit_code == 0, made.output
    assert "created review q1" in made.output


def test_items_enqueue_and_complete(fake_api: FakeApi):
    fake_api.answer("GET", f"{BASE}/q1/items", {"data": [ITEM], "meta": META})
    listed = invoke("queues", "items", "q1", "--status", "pending")
    assert listed.exit_code == 0, listed.output
    assert "trace-1" in listed.output
    fake_api.answer("POST", f"{BASE}/q1/items", ITEM)
    added = invoke("queues", "enqueue", "q1", "trace-1")
    assert added.exit_code == 0, added.output
    done = {"item": ITEM | {"status": "COMPLETED", "completed_at": AT}, "score_ids": ["s1", "s2"]}
    fake_api.answer("POST", f"{BASE}/q1/items/i1/complete", done)
    completed = invoke("queues", "complete", "q1", "i1", "-s", "quality=0.8", "-s", "tone=good")
    assert completed.exit_code == 0, completed.output
    assert "completed i1  2 score(s) created" in completed.output


def test_a_refused_score_and_a_bad_score_option_say_what_to_do(fake_api: FakeApi):
    refusal = {"code": "invalid", "message": "quality: Value exceeds maximum value of 1"}
    fake_api.answer("POST", f"{BASE}/q1/items/i1/complete", refusal, status=400)
    refused = invoke("queues", "complete", "q1", "i1", "-s", "quality=3")
    assert refused.exit_code == 1
    assert "Value exceeds maximum value of 1" in refused.output
    assert "--score quality=0.8" in refused.output
    malformed = invoke("queues", "complete", "q1", "i1", "-s", "quality")
    assert malformed.exit_code == 1
    assert "is not name=value" in malformed.output
    missing = invoke("queues", "items", "nope")
    assert missing.exit_code == 1
    assert "axonal queues ls" in missing.output
