"""Pure scheduling rules: status machine, pipeline status, triggers, admission, early stop."""

from datetime import UTC, datetime, timedelta

import pytest

from axonal_events import RunStatus as S
from axonal_scheduler.domain.admission import Waiting, admit
from axonal_scheduler.domain.early_stopping import should_stop
from axonal_scheduler.domain.liveness import is_lost
from axonal_scheduler.domain.pipeline import pipeline_status
from axonal_scheduler.domain.statuses import can_transition
from axonal_scheduler.domain.triggers import Decision, decide, evaluate


@pytest.mark.parametrize(
    ("current", "new", "ok"),
    [
        (None, S.CREATED, True),
        (None, S.RUNNING, False),
        (S.CREATED, S.COMPILED, True),
        (S.COMPILED, S.QUEUED, True),
        (S.QUEUED, S.SCHEDULED, True),
        (S.SCHEDULED, S.STARTING, True),
        (S.STARTING, S.RUNNING, True),
        (S.RUNNING, S.SUCCEEDED, True),
        (S.RUNNING, S.STARTING, False),
        (S.RUNNING, S.CREATED, False),
        (S.RUNNING, S.RUNNING, False),
        (S.STOPPING, S.RUNNING, False),
        (S.STOPPING, S.STOPPED, True),
        (S.STOPPING, S.FAILED, True),
        (S.SUCCEEDED, S.FAILED, False),
        (S.FAILED, S.RETRYING, False),
        (S.RUNNING, S.RETRYING, True),
        (S.RETRYING, S.COMPILED, True),
        (S.QUEUED, S.STOPPED, True),
    ],
)
def test_transitions(current, new, ok):
    assert can_transition(current, new) is ok


def test_done_is_final_unless_resumed_by_force():
    assert not can_transition(S.STOPPED, S.RESUMING)
    assert can_transition(S.STOPPED, S.RESUMING, force=True)
    assert not can_transition(S.STOPPED, S.RUNNING, force=True)


@pytest.mark.parametrize(
    ("children", "expected"),
    [
        ([S.RUNNING, S.SUCCEEDED], None),
        ([S.SUCCEEDED, S.FAILED, S.UPSTREAM_FAILED], S.FAILED),
        ([S.STOPPED, S.STOPPED], S.STOPPED),
        ([S.SUCCEEDED, S.STOPPED, S.SKIPPED], S.SUCCEEDED),
        ([S.SKIPPED, S.UPSTREAM_FAILED], S.SUCCEEDED),
    ],
)
def test_pipeline_status(children, expected):
    assert pipeline_status(children) is expected


def test_pipeline_status_of_an_early_stop():
    done = [S.SUCCEEDED, S.STOPPED]
    assert pipeline_status(done, stopping_reason="MetricEarlyStopping") is S.SUCCEEDED
    assert pipeline_status(done, stopping_reason="FailureEarlyStopping") is S.FAILED
    assert pipeline_status(done, stopping_reason="Stopped") is S.STOPPED
    assert pipeline_status([S.RUNNING], stopping_reason="Stopped") is None


START, WAIT, UF = Decision.START, Decision.WAIT, Decision.UPSTREAM_FAILED


@pytest.mark.parametrize(
    ("policy", "upstream", "expected"),
    [
        (None, [], START),
        (None, [S.SUCCEEDED, S.RUNNING], WAIT),
        ("all_succeeded", [S.SUCCEEDED, S.SUCCEEDED], START),
        ("all_succeeded", [S.SUCCEEDED, S.FAILED], UF),
        ("all_succeeded", [S.FAILED, S.RUNNING], WAIT),
        ("all_failed", [S.FAILED, S.FAILED], START),
        ("all_failed", [S.FAILED, S.SUCCEEDED], UF),
        ("all_done", [S.FAILED, S.SKIPPED], START),
        ("all_done", [S.FAILED, S.QUEUED], WAIT),
        ("one_succeeded", [S.SUCCEEDED, S.RUNNING], START),
        ("one_succeeded", [S.FAILED, S.RUNNING], WAIT),
        ("one_succeeded", [S.FAILED, S.STOPPED], UF),
        ("one_failed", [S.FAILED, S.RUNNING], START),
        ("one_failed", [S.SUCCEEDED, S.SUCCEEDED], UF),
        ("one_done", [S.STOPPED, S.RUNNING], START),
        ("one_done", [S.RUNNING, S.QUEUED], WAIT),
    ],
)
def test_trigger_policies(policy, upstream, expected):
    assert evaluate(policy, upstream) is expected


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="unknown trigger policy"):
        evaluate("some_done", [S.SUCCEEDED])


def test_skip_on_upstream_skip():
    assert decide(None, [S.SKIPPED], skip_on_upstream_skip=True) is Decision.SKIPPED
    assert decide("all_done", [S.SKIPPED]) is START
    assert decide(None, [S.SKIPPED]) is UF


def test_admission_priority_then_fifo():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    waiting = [
        Waiting("late-high", 5, t0 + timedelta(seconds=3)),
        Waiting("first", 0, t0),
        Waiting("second", 0, t0 + timedelta(seconds=1)),
        Waiting("early-high", 5, t0 + timedelta(seconds=2)),
    ]
    assert admit(waiting, active=0, concurrency=3) == ["early-high", "late-high", "first"]
    assert admit(waiting, active=2, concurrency=3) == ["early-high"]
    assert admit(waiting, active=4, concurrency=3) == []
    assert len(admit(waiting, active=100, concurrency=None)) == 4


def test_admission_keeps_a_project_within_its_room():
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    waiting = [
        Waiting(f"a{i}", 0, t0 + timedelta(seconds=i), project="acme/a") for i in range(3)
    ] + [Waiting("b0", 0, t0 + timedelta(seconds=9), project="acme/b")]
    assert admit(waiting, active=0, concurrency=10, room={"acme/a": 1}) == ["a0", "b0"]
    assert admit(waiting, active=0, concurrency=10, room={"acme/a": 0}) == ["b0"]
    assert admit(waiting, active=0, concurrency=2, room={"acme/a": 2}) == ["a0", "a1"]
    assert admit(waiting, active=0, concurrency=None, room={"acme/b": 0}) == ["a0", "a1", "a2"]


def test_early_stopping():
    fail = {"kind": "failure_early_stopping", "percent": 50}
    assert should_stop([fail], [S.FAILED, S.SUCCEEDED]) == "FailureEarlyStopping"
    assert should_stop([fail], [S.FAILED, S.SUCCEEDED, S.RUNNING]) is None
    metric = {"kind": "metric_early_stopping", "metric": "loss", "value": 0.1}
    minimize = {**metric, "optimization": "minimize"}
    assert should_stop([minimize], [], {"loss": 0.05}) == "MetricEarlyStopping"
    assert should_stop([minimize], [], {"loss": 0.5}) is None
    assert should_stop([metric], [], {"loss": 0.5}) == "MetricEarlyStopping"
    assert should_stop([metric], [], {"acc": 0.5}) is None


def test_agent_liveness():
    seen = datetime(2026, 1, 1, tzinfo=UTC)
    assert not is_lost(seen, 5.0, seen + timedelta(seconds=14))
    assert is_lost(seen, 5.0, seen + timedelta(seconds=15))
