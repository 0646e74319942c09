"""The retry schedule: full jitter within each step, then dead."""

from datetime import UTC, datetime, timedelta

import pytest

from axonal_events.webhooks import DeliveryStatus
from axonal_notifications.domain.deliveries import Job, Outcome, judge
from axonal_notifications.domain.schedule import DEFAULT_SCHEDULE, next_delay


def test_default_schedule_is_standard_webhooks():
    assert DEFAULT_SCHEDULE == (5, 300, 1800, 7200, 18000, 36000, 36000)


@pytest.mark.parametrize("failed", range(1, len(DEFAULT_SCHEDULE) + 1))
def test_each_delay_lies_within_its_step(failed):
    step = DEFAULT_SCHEDULE[failed - 1]
    delays = [next_delay(DEFAULT_SCHEDULE, failed) for _ in range(500)]
    assert all(0 <= d <= step for d in delays)
    assert min(delays) < step * 0.1  # full jitter reaches down to zero...
    assert max(delays) > step * 0.9  # ...and up to the step


def test_bounds_of_the_draw():
    assert next_delay((5.0, 300.0), 2, draw=lambda low, high: low) == 0
    assert next_delay((5.0, 300.0), 2, draw=lambda low, high: high) == 300


def test_spent_schedule_means_dead():
    assert next_delay((1.0, 2.0), 3) is None
    with pytest.raises(ValueError, match="from 1"):
        next_delay((1.0,), 0)


def _outcome(attempts, code, round_start=0):
    job = Job("w", "e", "run.failed", "a/b", "http://x", "whsec_x", b"{}", attempts, round_start)
    return Outcome(job, datetime(2026, 1, 1, tzinfo=UTC), 1.0, code)


def test_judge_follows_the_schedule_and_restarts_it_after_a_replay():
    schedule = (10.0, 20.0)
    assert judge(_outcome(0, 204), schedule).status is DeliveryStatus.DELIVERED
    first = judge(_outcome(0, 500), schedule)
    assert first.status is DeliveryStatus.FAILED
    assert first.attempts == 1
    assert first.next_attempt_at is not None
    assert timedelta(0) <= first.next_attempt_at - _outcome(0, 500).at <= timedelta(seconds=10)
    assert judge(_outcome(2, 500), schedule).status is DeliveryStatus.DEAD
    assert judge(_outcome(3, 500, round_start=3), schedule).status is DeliveryStatus.FAILED
    assert judge(_outcome(0, 410), schedule).status is DeliveryStatus.DEAD
    assert judge(_outcome(0, None), schedule).status is DeliveryStatus.FAILED
