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


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("comparison", "value", "breached"),
    [
        (Comparison.IS_NAN, NAN, True),
        (Comparison.IS_NAN, INF, False),
        (Comparison.IS_NAN, 0.0, False),
        (Comparison.IS_INF, INF, True),
        (Comparison.IS_INF, -INF, True),
        (Comparison.IS_INF, NAN, False),
        (Comparison.IS_INF, 1e308, False),
    ],
)
def test_value_checks(comparison, value, breached):
    rule = AlertRule("r", "p", "m", comparison, None)
    assert rule.breached(value) is breached
    assert rule.cleared(value) is not breached


def test_a_nan_rule_fires_once_per_run_of_nans():
    rule = AlertRule("r", "p", "loss", Comparison.IS_NAN, None)
    state, crossings = run(rule, [1.0, NAN, NAN, 2.0, NAN])
    assert [c.step for c in crossings] == [1, 4]
    assert all(c.value != c.value for c in crossings)  # the NaN itself is reported
    assert state.firing


def test_an_inf_rule_waits_for_its_points_in_a_row():
    rule = AlertRule("r", "p", "loss", Comparison.IS_INF, None, for_points=2)
    _, crossings = run(rule, [INF, 1.0, -INF, INF, INF])
    assert crossings == [Crossing(3, INF)]


def test_nan_neither_breaches_nor_clears_a_threshold_rule():
    rule = AlertRule("r", "p", "loss", Comparison.GT, 5.0, for_points=2)
    _, crossings = run(rule, [6, NAN, 6])
    assert crossings == []  # the NaN broke the streak
    state, crossings = run(rule, [6, 6, NAN, 6])
    assert crossings == [Crossing(1, 6.0)]  # still firing through the NaN: no second crossing
    assert state.firing


def test_infinity_is_past_every_threshold():
    assert AlertRule("r", "p", "m", Comparison.GT, 1e308).breached(INF)
    assert AlertRule("r", "p", "m", Comparison.LT, -1e308).breached(-INF)


def test_a_threshold_rule_without_a_threshold_is_refused():
    with pytest.raises(ValueError, match="needs a threshold"):
        AlertRule("r", "p", "m", Comparison.GT, None).breached(1.0)
