"""When a schedule fires: its slots, and which of the due ones fire under its catch-up policy.

A slot is the time a run is due. ``interval`` slots are ``startAt + k * frequency`` (``startAt``
defaults to when the schedule started, so its first run starts at once, as Polyaxon's does);
``cron`` slots are the expression's ticks in its time zone, from ``startAt`` or the start;
``datetime`` has the one slot ``startAt``. No slot is after ``endAt``, and ``maxRuns`` counts
the runs created (a skipped slot creates none).

A due slot is missed when it came before ``missed_before``: the clock passes the older of
"now minus a grace" and "when it last became healthy" (it started, or reached the database
again), so a slot that came while the platform was down is missed, and one that a busy but
running clock reaches late is not. The policy decides what missed slots do: ``skip``
(default) fires none of them, ``last`` the latest, ``all`` every one (at most
:data:`CATCH_UP_LIMIT` per pass).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from cronsim import CronSim

__all__ = ["BACKFILL_LIMIT", "CATCH_UP_LIMIT", "Due", "Timetable"]

CATCH_UP_LIMIT = 1000
BACKFILL_LIMIT = 10_000
CatchUp = Literal["skip", "last", "all"]


def _moment(value: Any) -> datetime | None:
    if value is None or value == "":
        return None
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Due:
    """The slots to fire now, and the next slot once those are fired (``None``: no more)."""

    fire: list[datetime]
    next_at: datetime | None


@dataclass(frozen=True)
class Timetable:
    """A compiled ``schedule`` section, read once (the spec checked its fields)."""

    kind: Literal["cron", "interval", "datetime"]
    cron: str | None = None
    frequency: float | None = None
    start_at: datetime | None = None
    end_at: datetime | None = None
    max_runs: int | None = None
    depends_on_past: bool = False
    timezone: str = "UTC"
    catchup: CatchUp = "skip"

    @classmethod
    def parse(cls, section: Mapping[str, Any]) -> Timetable:
        """The timetable of a compiled ``schedule``; ``ValueError`` naming a bad field."""
        kind = section.get("kind")
        if kind not in ("cron", "interval", "datetime"):
            raise ValueError(f"schedule.kind: `{kind}` is not cron, interval or datetime")
        try:
            frequency = section.get("frequency")
            max_runs = section.get("maxRuns")
            table = cls(
                kind=kind,
                cron=section.get("cron"),
                frequency=float(frequency) if frequency is not None else None,
                start_at=_moment(section.get("startAt")),
                end_at=_moment(section.get("endAt")),
                max_runs=int(max_runs) if max_runs is not None else None,
                depends_on_past=bool(section.get("dependsOnPast") or False),
                timezone=str(section.get("timezone") or "UTC"),
                catchup=section.get("catchup") or "skip",
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(f"schedule: {exc}") from exc
        if kind == "interval" and not (table.frequency and table.frequency > 0):
            raise ValueError("schedule.frequency: an interval needs a positive number of seconds")
        if kind == "datetime" and table.start_at is None:
            raise ValueError("schedule.startAt: a datetime schedule needs its time")
        if kind == "cron" and not table.cron:
            raise ValueError("schedule.cron: a cron schedule needs its expression")
        return table

    def first(self, started: datetime) -> datetime | None:
        """The first slot of a schedule that started at ``started``."""
        if self.kind == "datetime":
            return self.start_at
        begin = self.start_at or started
        if self.kind == "interval":
            return self._within(begin)
        return self._within(self._tick_from(begin))

    def after(self, slot: datetime) -> datetime | None:
        """The slot that follows ``slot`` (``None``: the schedule has no more)."""
        if self.kind == "datetime":
            return None
        if self.kind == "interval":
            assert self.frequency is not None
            return self._within(slot + timedelta(seconds=self.frequency))
        return self._within(self._tick(slot))

    def due(self, next_at: datetime, now: datetime, *, fired: int, missed_before: datetime,
            on_time: bool = False) -> Due:  # fmt: skip
        """The slots from ``next_at`` to ``now`` that fire under the policy (``on_time``: the
        first fires however late, as a slot held by ``dependsOnPast`` does once released)."""
        left = math.inf if self.max_runs is None else self.max_runs - fired
        slots: list[datetime] = []
        slot: datetime | None = next_at if on_time else self._fast_forward(next_at, missed_before)
        while slot is not None and slot <= now and len(slots) < CATCH_UP_LIMIT:
            slots.append(slot)
            slot = self.after(slot)
        missed = [s for s in slots if s < missed_before and not (on_time and s == next_at)]
        punctual = [s for s in slots if s not in missed]
        if self.catchup == "all":
            fire = slots
        elif self.catchup == "last":
            fire = sorted(missed[-1:] + punctual)
        else:
            fire = punctual
        if self.depends_on_past and fire:  # each run waits for the one before it
            fire = fire[:1]
            slot = self.after(fire[0])
        fire = fire[: int(min(left, len(fire)))]
        if fired + len(fire) >= (self.max_runs if self.max_runs is not None else math.inf):
            slot = None
        return Due(fire, slot)

    def slots(self, start: datetime, end: datetime) -> list[datetime]:
        """Every slot from ``start`` to ``end`` (a backfill); ``ValueError`` past
        :data:`BACKFILL_LIMIT` of them."""
        if self.kind == "datetime":
            assert self.start_at is not None
            return [self.start_at] if start <= self.start_at <= end else []
        if self.kind == "interval":
            assert self.frequency is not None
            assert self.start_at is not None
            steps = max(0, math.ceil((start - self.start_at).total_seconds() / self.frequency))
            slot = self._within(self.start_at + timedelta(seconds=steps * self.frequency))
        else:
            slot = self._within(self._tick_from(start))
        found: list[datetime] = []
        while slot is not None and slot <= end:
            if len(found) == BACKFILL_LIMIT:
                raise ValueError(f"the window holds more than {BACKFILL_LIMIT} slots: narrow it")
            found.append(slot)
            slot = self.after(slot)
        return found

    def _fast_forward(self, next_at: datetime, missed_before: datetime) -> datetime:
        """For ``skip`` and ``last`` on an interval: jump over the missed slots that no policy
        fires (all but the latest missed), so a long outage costs no walk through them."""
        if self.kind != "interval" or self.catchup == "all" or next_at >= missed_before:
            return next_at
        assert self.frequency is not None
        behind = (missed_before - next_at).total_seconds()
        skipped = max(0, math.floor(behind / self.frequency) - 1)
        return next_at + timedelta(seconds=skipped * self.frequency)

    def _tick_from(self, moment: datetime) -> datetime:
        """The first tick at or after ``moment``."""
        tick = self._tick(moment - timedelta(seconds=1))
        return tick if tick >= moment else self._tick(tick)

    def _tick(self, after: datetime) -> datetime:
        assert self.cron is not None
        local = after.astimezone(ZoneInfo(self.timezone))
        return next(CronSim(self.cron, local)).astimezone(UTC)

    def _within(self, slot: datetime | None) -> datetime | None:
        if slot is None or (self.end_at is not None and slot > self.end_at):
            return None
        return slot
