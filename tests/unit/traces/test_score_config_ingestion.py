"""Scores that name a config are checked against it while a batch is converted."""

from datetime import UTC, datetime

import pytest

from axonal_events.score_configs import ConfigCategory, ScoreConfig
from axonal_events.traces import ScoreDataType
from axonal_traces import InvalidRecord, convert_batch, score_config_ids, score_record

NOW = datetime(2026, 1, 1, tzinfo=UTC)
CONFIGS = {
    "num": ScoreConfig(
        id="num",
        project_id="p",
        name="quality",
        data_type=ScoreDataType.NUMERIC,
        min_value=0,
        max_value=1,
        created_at=NOW,
        updated_at=NOW,
    ),
    "cat": ScoreConfig(
        id="cat",
        project_id="p",
        name="tone",
        data_type=ScoreDataType.CATEGORICAL,
        categories=[ConfigCategory(label="good", value=1), ConfigCategory(label="bad", value=0)],
        created_at=NOW,
        updated_at=NOW,
    ),
}


def score(event_id: str, **body):
    return {"id": event_id, "type": "score-create", "body": {"traceId": "t", **body}}


def test_a_batch_names_its_configs_and_each_score_is_checked():
    batch = [
        score("ok", name="quality", value=0.5, configId="num"),
        score("high", name="quality", value=3, configId="num"),
        score("label", name="anything", value="good", configId="cat"),
        score("unknown", name="x", value=1, configId="nope"),
        score("free", name="x", value=7),
    ]
    assert score_config_ids(batch) == {"num", "cat", "nope"}
    records = convert_batch(batch, received_at=NOW, score_configs=CONFIGS)
    assert records.accepted == ["ok", "label", "free"]
    errors = {e.id: e for e in records.errors}
    assert errors["high"].status == 400
    assert "Value exceeds maximum value of 1 defined in config" in errors["high"].error
    assert errors["unknown"].status == 404
    assert "does not match a valid config" in errors["unknown"].error
    label = next(r for r in records.scores if r.config_id == "cat")
    assert (label.name, label.value, label.string_value) == ("tone", 1.0, "good")


def test_a_declared_type_must_match_the_config():
    body = {"traceId": "t", "name": "q", "value": 1, "configId": "num", "dataType": "BOOLEAN"}
    with pytest.raises(InvalidRecord, match="expected NUMERIC, got BOOLEAN"):
        score_record(body, event_time=NOW, configs=CONFIGS)


def test_without_configs_nothing_is_checked():
    body = {"traceId": "t", "name": "q", "value": 3, "configId": "num"}
    assert score_record(body, event_time=NOW).value == 3
