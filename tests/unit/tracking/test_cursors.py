"""Page cursors: what is handed out reads back; anything else is refused, never a crash."""

import base64
import json
from datetime import UTC, datetime

import pytest

from axonal_tracking.domain import cursors
from axonal_tracking.domain.cursors import InvalidCursor

AT = datetime(2026, 12, 1, 9, 30, 0, 123456, tzinfo=UTC)


def _b64(value) -> str:
    return base64.b64encode(json.dumps(value).encode()).decode()


def test_an_observation_cursor_is_langfuses_form_and_reads_back():
    cursor = cursors.encode_observation(AT, "t1", "o1")
    assert set(json.loads(base64.b64decode(cursor))) == {"lastStartTimeTo", "lastTraceId", "lastId"}
    assert cursors.decode_observation(cursor) == (AT, "t1", "o1")
    langfuse = _b64(
        {"lastStartTimeTo": "2026-12-01T09:30:00.123Z", "lastTraceId": "t", "lastId": "o"}
    )
    at, _, _ = cursors.decode_observation(langfuse)
    assert at == datetime(2026, 12, 1, 9, 30, 0, 123000, tzinfo=UTC)


@pytest.mark.parametrize(
    "cursor",
    [
        "not-a-cursor",
        _b64([1, 2]),
        _b64({"lastStartTimeTo": 5, "lastTraceId": "t", "lastId": "o"}),
        _b64({"lastStartTimeTo": "yesterday", "lastTraceId": "t", "lastId": "o"}),
        _b64({"lastStartTimeTo": "2026-12-01T00:00:00", "lastTraceId": 1, "lastId": "o"}),
        _b64({"lastTraceId": "t", "lastId": "o"}),
    ],
)
def test_anything_else_is_not_an_observation_cursor(cursor):
    with pytest.raises(InvalidCursor):
        cursors.decode_observation(cursor)


def test_a_score_cursor_reads_back_and_a_naive_time_is_utc():
    assert cursors.decode_score(cursors.encode_score(AT, "s1")) == (AT, "s1")
    naive = base64.urlsafe_b64encode(b"2026-12-01T09:30:00|s1").decode()
    assert cursors.decode_score(naive) == (datetime(2026, 12, 1, 9, 30, tzinfo=UTC), "s1")
    with pytest.raises(InvalidCursor):
        cursors.decode_score("%%%")
