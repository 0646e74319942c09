"""Schedules' slots and catch-up policies (pure)."""

from datetime import UTC, datetime, timedelta

import pytest

from axonal_scheduler.domain.schedules import BACKFILL_LIMIT, Timetable

T0 = datetime(2026, 12, 4, 10, 0, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)  # the grace: a slot reached over a second late was missed


def s(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def interval(**extra: object) -> Timetable:
    return Timetable.parse(
        {"kind": "interval", "frequency": 10, "startAt": T0.isoformat(), **extra}
    )


def test_an_interval_starts_at_its_start_and_keeps_its_phase() -> None:
    table = Timetable.parse({"kind": "interval", "frequency": 2})
    assert table.first(T0) == T0  # no startAt: the first run starts at once
    assert interval().after(T0) == s(10)
    assert interval(endAt=s(15).isoformat()).after(s(10)) is None


def test_cron_ticks_in_its_time_zone() -> None:
    table = Timetable.parse({"kind": "cron", "cron": "0 9 * * *", "timezone": "Europe/Paris"})
    first = table.first(T0)  # 10:00 UTC is 11:00 in Paris: the next 09:00 there is tomorrow
    assert first == datetime(2026, 12, 5, 8, 0, tzinfo=UTC)
    assert table.after(first) == datetime(2026, 12, 6, 8, 0, tzinfo=UTC)
    minutely = Timetable.parse({"kind": "cron", "cron": "* * * * *"})
    assert minutely.first(s(0.5)) == s(60)  # the next minute boundary


def test_a_datetime_schedule_has_one_slot() -> None:
    table = Timetable.parse({"kind": "datetime", "startAt": s(30).isoformat()})
    assert table.first(T0) == s(30)
    assert table.after(s(30)) is None


def test_a_slot_reached_in_time_fires_and_the_next_is_set() -> None:
    due = interval().due(s(10), s(10.2), fired=0, missed_before=s(10.2) - SECOND)
    assert (due.fire, due.next_at) == ([s(10)], s(20))


def test_missed_slots_follow_the_policy() -> None:
    now = s(35.5)  # slots 0, 10, 20, 30 passed while the platform was down; 40 is next
    skip = interval().due(T0, now, fired=0, missed_before=now - SECOND)
    assert (skip.fire, skip.next_at) == ([], s(40))
    last = interval(catchup="last").due(T0, now, fired=0, missed_before=now - SECOND)
    assert (last.fire, last.next_at) == ([s(30)], s(40))
    every = interval(catchup="all").due(T0, now, fired=0, missed_before=now - SECOND)
    assert (every.fire, every.next_at) == ([T0, s(10), s(20), s(30)], s(40))


def test_a_long_outage_is_jumped_over_not_walked() -> None:
    due = interval(catchup="last").due(
        T0, s(10 * 10_000_000 + 3), fired=0, missed_before=s(10 * 10_000_000 + 3) - SECOND
    )
    assert due.fire == [s(10 * 10_000_000)]


def test_max_runs_counts_runs_created_and_ends_the_schedule() -> None:
    table = interval(maxRuns=3, catchup="all")
    due = table.due(T0, s(45), fired=1, missed_before=s(45) - SECOND)
    assert (due.fire, due.next_at) == ([T0, s(10)], None)


def test_depends_on_past_fires_one_slot_at_a_time() -> None:
    due = interval(dependsOnPast=True, catchup="all").due(
        T0, s(25), fired=0, missed_before=s(25) - SECOND
    )
    assert (due.fire, due.next_at) == ([T0], s(10))


def test_a_slot_a_running_clock_reaches_late_is_late_not_missed() -> None:
    # the clock has been healthy since before the slots: a busy clock, not a platform down
    due = interval().due(T0, s(25), fired=0, missed_before=T0 - SECOND)
    assert (due.fire, due.next_at) == ([T0, s(10), s(20)], s(30))


def test_a_released_slot_fires_however_late() -> None:
    due = interval(dependsOnPast=True).due(
        T0, s(25), fired=0, missed_before=s(25) - SECOND, on_time=True
    )
    assert (due.fire, due.next_at) == ([T0], s(10))


def test_backfill_lists_the_window_slots() -> None:
    assert interval().slots(s(5), s(30)) == [s(10), s(20), s(30)]
    cron = Timetable.parse({"kind": "cron", "cron": "*/30 * * * *"})
    assert cron.slots(T0, s(3600)) == [T0, s(1800), s(3600)]
    with pytest.raises(ValueError, match="narrow it"):
        interval().slots(T0, s(10 * (BACKFILL_LIMIT + 1)))


@pytest.mark.parametrize(
    ("section", "field"),
    [
        ({"kind": "interval", "frequency": 0}, "schedule.frequency"),
        ({"kind": "datetime"}, "schedule.startAt"),
        ({"kind": "weekly"}, "schedule.kind"),
        ({"kind": "interval", "frequency": 5, "maxRuns": "many"}, "schedule:"),
    ],
)
def test_a_bad_section_names_its_field(section: dict[str, object], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        Timetable.parse(section)
