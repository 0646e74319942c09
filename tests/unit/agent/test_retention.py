"""termination.ttl: the deadline of an attempt's folder and the command that carries it."""

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from axonal_agent.domain.retention import seconds_left
from axonal_events.commands import ExecuteRun

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def test_seconds_left_until_the_deadline():
    assert seconds_left(NOW + timedelta(seconds=1.5), NOW) == 1.5


def test_a_passed_deadline_deletes_at_once():
    assert seconds_left(NOW - timedelta(hours=1), NOW) == 0.0


def test_execute_run_carries_an_optional_ttl():
    base = {"run_uuid": "a" * 32, "attempt": 1, "owner": "o", "project": "p", "queue": "q"}
    assert ExecuteRun(**base, run={}).ttl_seconds is None
    assert ExecuteRun(**base, run={}, ttl_seconds=0).ttl_seconds == 0
    with pytest.raises(ValidationError):
        ExecuteRun(**base, run={}, ttl_seconds=-1)
