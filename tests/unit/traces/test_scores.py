"""Score objects (``POST /scores``, ``score-create``) -> score records."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from axonal_events.traces import ScoreDataType, ScoreSource
from axonal_traces import InvalidRecord, score_record

from .conftest import fixture

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def test_the_fixture_score_array():
    scores = [score_record(b, event_time=NOW) for b in fixture("scores.json")["body"]]
    boolean, numeric, categorical, session = scores
    assert (boolean.data_type, boolean.value, boolean.string_value) == (
        ScoreDataType.BOOLEAN,
        0.0,
        "False",
    )
    assert boolean.observation_id == "a1a1a1a1a1a1a1a1"
    assert (numeric.data_type, numeric.value, numeric.comment) == (
        ScoreDataType.NUMERIC,
        0.75,
        "mostly right",
    )
    assert (categorical.string_value, categorical.value) == ("positive", None)
    assert session.session_id == "sess-fixtures"
    assert session.trace_id is None
    assert numeric.environment == "fixtures"
    assert numeric.timestamp == datetime(2026, 3, 14, 9, 26, 54, 200000, tzinfo=UTC)
    assert numeric.source is ScoreSource.API


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"name": "s", "value": 1}, "traceId"),
        ({"traceId": "t", "value": 1}, "name"),
        ({"traceId": "t", "name": "s", "value": "x", "dataType": "NUMERIC"}, "NUMERIC"),
        ({"traceId": "t", "name": "s", "value": 2, "dataType": "BOOLEAN"}, "BOOLEAN"),
        ({"traceId": "t", "name": "s", "value": 1, "dataType": "CATEGORICAL"}, "string"),
        ({"traceId": "t", "name": "s", "value": "", "dataType": "TEXT"}, "TEXT"),
        ({"traceId": "t", "name": "s", "value": 1, "dataType": "WHAT"}, "WHAT"),
        ({"traceId": "t", "name": "s", "value": None}, "required"),
        ({"traceId": "t", "name": "s", "value": 1, "source": "ME"}, "ME"),
        ({"traceId": "t", "name": "s", "value": 1, "timestamp": "then"}, "then"),
        ({"traceId": "t", "name": "s", "value": 1, "metadata": [1]}, "metadata"),
    ],
)
def test_invalid_scores_say_why(body, reason):
    with pytest.raises(InvalidRecord, match=reason):
        score_record(body, event_time=NOW)


def test_defaults_text_scores_and_targets():
    text = score_record(
        {"datasetRunId": "r", "name": "n", "value": "fine", "dataType": "TEXT", "source": "EVAL"},
        event_time=NOW,
    )
    assert (text.string_value, text.source, text.event_time) == ("fine", ScoreSource.EVAL, NOW)
    assert len(text.id) == 32
    assert text.environment == "default"
    assert score_record({"traceId": "t", "name": "n", "value": True}, event_time=NOW).value == 1.0
