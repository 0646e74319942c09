"""Retention policies: what has expired for each kind, and which are kept for ever."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from axonal_events import new_event
from axonal_events.catalog import CATALOG, ProjectDeleted, ProjectRetentionChanged
from axonal_events.retention import DATA_KINDS, RetentionPolicy

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def test_a_kind_with_days_expires_what_is_older_and_the_others_nothing():
    policy = RetentionPolicy(traces=30, logs=7)
    assert policy.cutoff("traces", NOW) == NOW - timedelta(days=30)
    assert policy.cutoff("logs", NOW) == NOW - timedelta(days=7)
    assert [k for k in DATA_KINDS if policy.cutoff(k, NOW) is None] == [
        "observations",
        "scores",
        "metrics",
        "artifacts",
    ]


@pytest.mark.parametrize("days", [0, -1, 36501])
def test_days_out_of_range_are_refused(days):
    with pytest.raises(ValidationError):
        RetentionPolicy(traces=days)


def test_the_events_round_trip_through_the_catalog():
    changed = ProjectRetentionChanged(
        project_id="p1", owner="acme", name="demo", retention=RetentionPolicy(metrics=90)
    )
    deleted = ProjectDeleted(project_id="p1", owner="acme", name="demo")
    for data in (changed, deleted):
        event = new_event(data, source="/test")
        assert CATALOG.decode(event.to_json()).data == data
