"""Experiments (dataset runs): the run items a trace's experiment attributes declare, the page
cursors of experiment lists, and runs compared item by item."""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from axonal_events.datasets import (
    ComparisonCell,
    ComparisonRow,
    DatasetItem,
    DatasetRun,
    ExperimentComparison,
    RunItem,
)
from axonal_events.trace_reads import ObservationView, ScoreView, TraceDetail

__all__ = [
    "RunLink",
    "compare",
    "decode_cursor",
    "encode_cursor",
    "links_of",
    "parse_version",
    "run_item_id",
]

_SEVERITY = {"DEBUG": 0, "DEFAULT": 1, "WARNING": 2, "ERROR": 3}


class RunLink(NamedTuple):
    """A run (and what the trace says of it) with one of its items."""

    run: DatasetRun
    item: RunItem


def run_item_id(run_id: str, dataset_item_id: str, trace_id: str) -> str:
    """The same id for the same link, however often it is stored."""
    key = "\x1f".join((run_id, dataset_item_id, trace_id))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def parse_version(text: str | None) -> datetime | None:
    """An ``item.version`` attribute as a time; ``None`` if it is none."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def _head(group: list[ObservationView]) -> ObservationView:
    roots = [o for o in group if o.parent_observation_id is None]
    return min(roots or group, key=lambda o: o.start_time)


def _link(project_id: str, group: list[ObservationView], now: datetime) -> RunLink:
    head = _head(group)
    exp = head.experiment
    assert exp is not None  # grouped on it
    assert exp.item_id is not None
    run = DatasetRun(
        id=exp.id,
        project_id=project_id,
        name=exp.name or exp.id,
        description=exp.description,
        metadata=exp.metadata,
        dataset_id=exp.dataset_id,
        created_at=now,
        updated_at=now,
    )
    ends = [o.end_time for o in group if o.end_time is not None]
    level = max((o.level.value for o in group), key=lambda v: _SEVERITY.get(v, 1))
    item = RunItem(
        id=run_item_id(exp.id, exp.item_id, head.trace_id),
        project_id=project_id,
        dataset_run_id=exp.id,
        dataset_run_name=run.name,
        dataset_item_id=exp.item_id,
        dataset_id=exp.dataset_id,
        trace_id=head.trace_id,
        observation_id=exp.item_root_observation_id or head.id,
        dataset_version=parse_version(exp.item_version),
        item_metadata=exp.item_metadata,
        expected_output=exp.item_expected_output,
        start_time=min(o.start_time for o in group),
        end_time=max(ends) if ends else None,
        level=level,
        environment=head.environment,
        created_at=now,
        updated_at=now,
    )
    return RunLink(run, item)


def links_of(detail: TraceDetail, now: datetime) -> list[RunLink]:
    """The run items a trace's observations declare by their experiment attributes, one per
    experiment and item."""
    groups: dict[tuple[str, str], list[ObservationView]] = {}
    for obs in detail.observations:
        exp = obs.experiment
        if exp is not None and exp.item_id:
            groups.setdefault((exp.id, exp.item_id), []).append(obs)
    return [_link(detail.trace.project_id, group, now) for group in groups.values()]


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode()


def decode_cursor(cursor: str | None) -> int:
    """The offset a cursor stands for; :class:`ValueError` if it is no cursor of ours."""
    if not cursor:
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise ValueError("cursor: not a cursor of this list") from None
    kind, _, number = text.partition(":")
    if kind != "o" or not number.isdigit():
        raise ValueError("cursor: not a cursor of this list")
    return int(number)


def _score_value(score: ScoreView) -> float | str | None:
    return score.value if score.string_value is None else score.string_value


def _cell(item: RunItem, detail: TraceDetail | None) -> ComparisonCell:
    if detail is None:
        return ComparisonCell(run_id=item.dataset_run_id, trace_id=item.trace_id, level=item.level)
    scores = {s.name: _score_value(s) for s in sorted(detail.scores, key=lambda s: s.timestamp)}
    return ComparisonCell(
        run_id=item.dataset_run_id,
        trace_id=item.trace_id,
        output=detail.trace.output,
        scores=scores,
        latency=detail.trace.latency,
        total_cost=detail.trace.total_cost,
        level=item.level,
    )


def _averages(runs: Sequence[DatasetRun], rows: list[ComparisonRow]) -> list[dict[str, float]]:
    found: list[dict[str, float]] = []
    for index in range(len(runs)):
        cells = [row.cells[index] for row in rows if row.cells[index] is not None]
        sums: dict[str, list[float]] = {}
        for cell in cells:
            assert cell is not None
            for name, value in cell.scores.items():
                if isinstance(value, int | float):
                    sums.setdefault(name, []).append(float(value))
            if cell.latency is not None:
                sums.setdefault("latency", []).append(cell.latency)
            sums.setdefault("total_cost", []).append(cell.total_cost)
        found.append({name: sum(v) / len(v) for name, v in sorted(sums.items())})
    return found


def _created(item: DatasetItem | None) -> datetime:
    return item.created_at if item else datetime.min.replace(tzinfo=UTC)


def compare(
    runs: Sequence[DatasetRun],
    items: dict[str, list[RunItem]],
    dataset_items: dict[str, DatasetItem],
    details: dict[str, TraceDetail],
) -> ExperimentComparison:
    """One row per dataset item any run ran (in the dataset's order, then the runs'):
    each run's output, scores, latency and cost for it, ``None`` where a run did not run it."""
    order: list[str] = []
    cells: dict[str, dict[str, RunItem]] = {}
    for run in runs:
        for item in items.get(run.id, []):
            if item.dataset_item_id not in cells:
                order.append(item.dataset_item_id)
            cells.setdefault(item.dataset_item_id, {}).setdefault(run.id, item)
    position = {item_id: index for index, item_id in enumerate(order)}
    order.sort(key=lambda i: (i not in dataset_items, _created(dataset_items.get(i)), position[i]))
    rows = []
    for item_id in order:
        source = dataset_items.get(item_id)
        by_run = cells[item_id]
        first = next(iter(by_run.values()))
        expected: Any = source.expected_output if source else first.expected_output
        rows.append(
            ComparisonRow(
                dataset_item_id=item_id,
                input=source.input if source else None,
                expected_output=expected,
                cells=[
                    _cell(by_run[run.id], details.get(by_run[run.id].trace_id))
                    if run.id in by_run
                    else None
                    for run in runs
                ],
            )
        )
    return ExperimentComparison(runs=list(runs), rows=rows, averages=_averages(runs, rows))
