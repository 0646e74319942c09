"""Which steps a series read covers, and whether they come back whole or in buckets."""

from axonal_tracking.domain.series import Window, window


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
