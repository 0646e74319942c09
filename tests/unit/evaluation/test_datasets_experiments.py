"""Run items from a trace's experiment attributes, experiment cursors, runs compared."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from axonal_evaluation.domain.experiments import (
    compare,
    decode_cursor,
    encode_cursor,
    links_of,
    parse_version,
    run_item_id,
)
from axonal_events.datasets import DatasetItem, DatasetRun, RunItem
from axonal_events.trace_reads import ObservationView, ScoreView, TraceDetail, TraceView
from axonal_events.traces import ExperimentLink

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _obs(obs_id: str, parent: str | None, start: int, end: int, **fields) -> ObservationView:
    return ObservationView(
        id=obs_id, project_id="p", trace_id="t1", type="SPAN", parent_observation_id=parent,
        start_time=T0 + timedelta(seconds=start), end_time=T0 + timedelta(seconds=end),
        created_at=T0, updated_at=T0, environment="sdk-experiment", **fields,
    )  # fmt: skip


def _trace(trace_id: str, output, scores: dict[str, float | str], latency=1.5, cost=0.01):
    views = [
        ScoreView(
            id=f"{trace_id}-{name}", project_id="p", name=name,
            data_type="CATEGORICAL" if isinstance(value, str) else "NUMERIC",
            value=None if isinstance(value, str) else value,
            string_value=value if isinstance(value, str) else None,
            source="API", trace_id=trace_id, timestamp=T0, created_at=T0, updated_at=T0,
        )
        for name, value in scores.items()
    ]  # fmt: skip
    trace = TraceView(
        id=trace_id, project_id="p", timestamp=T0, output=output, created_at=T0, updated_at=T0,
        latency=latency, total_cost=cost,
    )  # fmt: skip
    return TraceDetail(trace=trace, observations=[], scores=views)


LINK = ExperimentLink(
    id="exp1", name="run-a", description="first", dataset_id="d1", item_id="item1",
    item_version="2026-01-01T00:00:00Z", item_root_observation_id="task",
    item_expected_output="Paris", item_metadata={"level": 1},
)  # fmt: skip


def test_a_traces_experiment_attributes_make_one_run_item_per_experiment_and_item():
    detail = TraceDetail(
        trace=TraceView(id="t1", project_id="p", timestamp=T0, created_at=T0, updated_at=T0),
        observations=[
            _obs("root", None, 0, 3, experiment=LINK),
            _obs("task", "root", 1, 2, experiment=LINK, level="ERROR"),
            _obs("plain", "root", 1, 2),
        ],
        scores=[],
    )
    [link] = links_of(detail, T0)
    assert link.run.id == "exp1"
    assert link.run.name == "run-a"
    assert link.run.dataset_id == "d1"
    item = link.item
    assert item.id == run_item_id("exp1", "item1", "t1")
    assert (item.trace_id, item.observation_id, item.dataset_item_id) == ("t1", "task", "item1")
    assert item.start_time == T0
    assert item.end_time == T0 + timedelta(seconds=3)
    assert item.level == "ERROR"
    assert item.environment == "sdk-experiment"
    assert item.expected_output == "Paris"
    assert item.dataset_version == T0


def test_observations_without_an_experiment_item_make_none():
    no_item = LINK.model_copy(update={"item_id": None})
    detail = TraceDetail(
        trace=TraceView(id="t1", project_id="p", timestamp=T0, created_at=T0, updated_at=T0),
        observations=[_obs("a", None, 0, 1), _obs("b", None, 0, 1, experiment=no_item)],
        scores=[],
    )
    assert links_of(detail, T0) == []


def test_run_item_ids_are_stable_and_versions_parse():
    assert run_item_id("r", "i", "t") == run_item_id("r", "i", "t")
    assert run_item_id("r", "i", "t") != run_item_id("r", "i", "t2")
    assert parse_version("not a time") is None
    assert parse_version(None) is None


def test_cursors_round_trip_and_a_foreign_one_is_refused():
    assert decode_cursor(encode_cursor(150)) == 150
    assert decode_cursor(None) == 0
    with pytest.raises(ValueError, match="cursor"):
        decode_cursor("bm9wZQ==")
    with pytest.raises(ValueError, match="cursor"):
        decode_cursor("***")


def _run(run_id: str) -> DatasetRun:
    return DatasetRun(id=run_id, project_id="p", name=run_id, created_at=T0, updated_at=T0)


def _run_item(run_id: str, item_id: str, trace_id: str) -> RunItem:
    return RunItem(
        id=f"{run_id}{item_id}", project_id="p", dataset_run_id=run_id, dataset_run_name=run_id,
        dataset_item_id=item_id, trace_id=trace_id, start_time=T0, created_at=T0, updated_at=T0,
        expected_output="from the link",
    )  # fmt: skip


def test_runs_compared_item_by_item_with_a_gap_and_averages():
    runs = [_run("a"), _run("b")]
    items = {
        "a": [_run_item("a", "fr", "ta1"), _run_item("a", "jp", "ta2")],
        "b": [_run_item("b", "jp", "tb2")],
    }
    dataset_items = {
        "fr": DatasetItem(
            id="fr", project_id="p", dataset_id="d", dataset_name="qa", input={"c": "France"},
            expected_output="Paris", created_at=T0, updated_at=T0, version=T0,
        )
    }  # fmt: skip
    details = {
        "ta1": _trace("ta1", "Paris", {"exact": 1.0, "tone": "ok"}),
        "ta2": _trace("ta2", "Tokyo", {"exact": 1.0}, latency=0.5),
        "tb2": _trace("tb2", "Paris", {"exact": 0.0}, latency=None, cost=0.02),
    }
    found = compare(runs, items, dataset_items, details)
    assert [r.dataset_item_id for r in found.rows] == ["fr", "jp"]
    fr, jp = found.rows
    assert fr.input == {"c": "France"}
    assert fr.expected_output == "Paris"
    assert fr.cells[1] is None
    assert fr.cells[0] is not None
    assert fr.cells[0].scores == {"exact": 1.0, "tone": "ok"}
    assert jp.expected_output == "from the link"  # the item is gone: the run's copy
    assert [c.output for c in jp.cells if c] == ["Tokyo", "Paris"]
    assert found.averages[0] == {"exact": 1.0, "latency": 1.0, "total_cost": 0.01}
    assert found.averages[1] == {"exact": 0.0, "total_cost": 0.02}


def test_a_trace_not_stored_yet_is_an_empty_cell():
    found = compare([_run("a"), _run("b")], {"a": [_run_item("a", "fr", "gone")]}, {}, {})
    cell = found.rows[0].cells[0]
    assert cell is not None
    assert (cell.trace_id, cell.output, cell.scores, cell.latency) == ("gone", None, {}, None)
