"""Which steps a series read covers, and whether they come back whole or in buckets."""

import pytest

from axonal_tracking.domain.series import ROLLUP_STEPS, Window, summary_width, window


def test_a_series_is_read_whole_while_its_steps_span_fewer_than_the_points():
    assert window((0, 9), points=10) == Window(0, 9, None)
    assert window((0, 10), points=10) == Window(0, 10, 10)
    assert window((0, 99_999), points=1000) == Window(0, 99_999, 1000)


def test_a_step_range_narrows_the_read_and_can_make_it_whole():
    assert window((0, 99_999), 1000, first_step=50_000) == Window(50_000, 99_999, 1000)
    assert window((0, 99_999), 1000, last_step=499) == Window(0, 499, None)
    assert window((0, 99_999), 1000, 40_000, 40_500) == Window(40_000, 40_500, None)
    # a zoom past either end of what is stored covers only what is stored
    assert window((100, 200), 10, first_step=0, last_step=10**9) == Window(100, 200, 10)


def test_a_range_outside_the_stored_steps_reads_nothing():
    assert window((100, 200), 10, first_step=201) is None
    assert window((100, 200), 10, last_step=99) is None
    assert window((100, 200), 10, first_step=150, last_step=140) is None


@pytest.mark.parametrize(
    ("stored", "points", "width"),
    [
        ((0, 99_999), 1000, 100),  # 100,000 steps: the summaries as they are
        ((0, 99_998), 1000, None),  # fewer steps than 1,000 summaries: read point by point
        ((0, 29_999), 100, 300),
        ((50, 100_049), 1000, 200),  # 100 steps a bucket would make 1,001 buckets
        ((0, 2 * 10**6), 100, 20_100),
    ],
)
def test_a_long_series_is_read_in_buckets_of_whole_summaries(stored, points, width):
    assert summary_width(stored, points) == width
    if width is not None:
        first, last = stored
        assert width % ROLLUP_STEPS == 0
        assert last // width - first // width + 1 <= points
