"""Alert rules: consecutive points, one crossing per excursion, hysteresis, redelivery."""

import pytest

from axonal_events import Comparison
from axonal_tracking.domain.alerts import AlertRule, AlertState, Crossing, advance

LOSS_ABOVE_5_FOR_3 = AlertRule("r", "acme/demo", "loss", Comparison.GT, 5.0, for_points=3)


START = AlertState()


def run(rule, values, state=START, start=0):
    return advance(rule, state, [(start + i, v) for i, v in enumerate(values)])


def test_three_consecutive_points_cross_once():
    state, crossings = run(LOSS_ABOVE_5_FOR_3, [6, 7, 4, 6, 6, 6, 9, 9, 9, 9])
    assert crossings == [Crossing(5, 6.0)]  # 6,7 then 4 resets; 6,6,6 crosses; then firing
    assert state.firing


def test_it_crosses_again_only_after_clearing():
    rule = AlertRule("r", "p", "loss", Comparison.GT, 5.0, for_points=1, hysteresis=1.0)
    _, crossings = run(rule, [6, 4.5, 6, 3.9, 6])
    assert crossings == [Crossing(0, 6.0), Crossing(4, 6.0)]  # 4.5 is within the margin


def test_points_are_taken_in_step_order_and_seen_steps_are_ignored():
    state, first = advance(LOSS_ABOVE_5_FOR_3, AlertState(), [(2, 6), (0, 6), (1, 6)])
    assert first == [Crossing(2, 6.0)]
    again, second = advance(LOSS_ABOVE_5_FOR_3, state, [(0, 6), (1, 6), (2, 6)])
    assert (again, second) == (state, [])  # a redelivered batch changes nothing


@pytest.mark.parametrize(
    ("comparison", "value", "breached"),
    [
        (Comparison.GT, 5, False),
        (Comparison.GTE, 5, True),
        (Comparison.LT, 4.9, True),
        (Comparison.LTE, 5.1, False),
        (Comparison.EQ, 5, True),
    ],
)
def test_comparisons(comparison, value, breached):
    assert AlertRule("r", "p", "m", comparison, 5.0).breached(value) is breached


def test_a_streak_carries_over_between_batches():
    state, crossings = run(LOSS_ABOVE_5_FOR_3, [6, 6])
    assert crossings == []
    state, crossings = run(LOSS_ABOVE_5_FOR_3, [6], state, start=2)
    assert crossings == [Crossing(2, 6.0)]
