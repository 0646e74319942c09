import json
import uuid
from datetime import UTC, datetime

import pytest

from axonal_events import (
    CATALOG,
    DataValidationError,
    EnvelopeError,
    NotJSONError,
    RunDone,
    RunStatus,
    UnknownEventTypeError,
    UnknownVersionError,
    new_event,
    uuid7,
)
from axonal_testing.factories import run_event


def test_uuid7_is_version_7_time_ordered_and_unique():
    ids = [uuid7() for _ in range(5000)]
    assert all(i.version == 7 and i.variant == uuid.RFC_4122 for i in ids)
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    ms = ids[0].int >> 80
    assert abs(ms - datetime.now(UTC).timestamp() * 1000) < 5000


def test_envelope_is_cloudevents_structured_json():
    event = run_event(RunStatus.RUNNING, run_uuid="r1")
    doc = json.loads(event.to_json())
    assert doc["specversion"] == "1.0"
    assert doc["type"] == "axonal.run.running"
    assert doc["dataschema"] == "urn:axonal:event:run.running:v1"
    assert doc["subject"] == "r1"
    assert doc["datacontenttype"] == "application/json"
    assert doc["project"] == "acme/demo"
    assert doc["correlationid"] == doc["id"]
    assert doc["data"]["status"] == "running"
    assert "traceparent" not in doc  # unset extensions are omitted
    assert uuid.UUID(doc["id"]).version == 7


def test_round_trip_through_the_catalog():
    event = run_event(RunStatus.FAILED, reason="OOMKilled")
    decoded = CATALOG.decode(event.to_json())
    assert decoded == event
    assert decoded.data.status is RunStatus.FAILED


def test_every_run_status_has_an_event_type():
    for status in RunStatus:
        assert f"run.{status.value}" in CATALOG
    for name in ("run.done", "metric.crossed", "hook.requested"):
        assert name in CATALOG
    assert "notification.delivered" in CATALOG
    assert "notification.failed" in CATALOG


@pytest.mark.parametrize(
    ("mutate", "error", "fragment"),
    [
        (lambda raw: b"not json", NotJSONError, "not JSON"),
        (lambda raw: b"[1, 2]", NotJSONError, "list"),
        (lambda raw: b"{}", EnvelopeError, "source"),
        (lambda raw: raw.replace(b":v1", b":v7"), UnknownVersionError, "version 7"),
        (
            lambda raw: raw.replace(b"run.failed", b"run.exploded"),
            UnknownEventTypeError,
            "run.exploded",
        ),
        (
            lambda raw: raw.replace(b'"status":"failed"', b'"status":"weird"'),
            DataValidationError,
            "status",
        ),
        (
            lambda raw: raw.replace(b'"specversion":"1.0"', b'"specversion":"0.3"'),
            EnvelopeError,
            "specversion",
        ),
    ],
)
def test_malformed_messages_name_the_problem(mutate, error, fragment):
    raw = run_event(RunStatus.FAILED).to_json()
    with pytest.raises(error, match=fragment):
        CATALOG.decode(mutate(raw))


def test_type_and_dataschema_must_agree():
    doc = json.loads(run_event(RunStatus.FAILED).to_json())
    doc["type"] = "axonal.run.succeeded"
    with pytest.raises(EnvelopeError, match="disagrees"):
        CATALOG.decode(json.dumps(doc))


def test_data_must_describe_the_envelope_type():
    doc = json.loads(run_event(RunStatus.FAILED).to_json())
    doc["type"] = "axonal.run.succeeded"
    doc["dataschema"] = "urn:axonal:event:run.succeeded:v1"
    with pytest.raises(DataValidationError, match=r"describes run\.failed"):
        CATALOG.decode(json.dumps(doc))


def test_unknown_fields_in_data_are_rejected():
    doc = json.loads(run_event().to_json())
    doc["data"]["surprise"] = 1
    with pytest.raises(DataValidationError, match="surprise"):
        CATALOG.decode(json.dumps(doc))


def test_run_done_carries_the_final_status():
    done = RunDone(
        run_uuid="r9", project="acme/p", status=RunStatus.SUCCEEDED, finished_at=datetime.now(UTC)
    )
    event = new_event(done, source="/axonal/scheduler", correlation_id="c-1")
    assert event.type == "axonal.run.done"
    assert event.correlationid == "c-1"
    assert CATALOG.decode(event.to_json()).data == done


def test_naive_time_is_rejected():
    doc = json.loads(run_event().to_json())
    doc["time"] = "2026-01-01T00:00:00"
    with pytest.raises(EnvelopeError, match="timezone"):
        CATALOG.decode(json.dumps(doc))
