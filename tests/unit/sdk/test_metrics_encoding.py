"""The SDK's hand-written batch JSON is what the contract reads back, value for value."""

from __future__ import annotations

import json
import math
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from axonal._metrics import Writer
from axonal_events.metrics import METRIC_NAME_PATTERN, MetricBatch

RUN = uuid.uuid4().hex


class NoSender:
    def send(self, msg_id: str, body: bytes) -> None:
        raise AssertionError("not sent in these tests")

    def close(self) -> None:
        pass


points = st.lists(
    st.tuples(
        st.from_regex(METRIC_NAME_PATTERN, fullmatch=True),
        st.integers(min_value=0, max_value=2**62),
        st.floats(),
        st.floats(min_value=0, max_value=4e9),
    ),
    min_size=1,
    max_size=50,
)


@given(points)
def test_every_point_reads_back_exactly(
    tmp_path_factory: pytest.TempPathFactory, batch: list[tuple[str, int, float, float]]
) -> None:
    writer = Writer(RUN, NoSender, tmp_path_factory.mktemp("spool") / "spool.jsonl")
    try:
        decoded = MetricBatch.model_validate_json(writer._encode(batch))
    finally:
        writer.close(timeout=0.1)
    assert decoded.run_uuid == RUN
    for (name, step, value, at), point in zip(batch, decoded.points, strict=True):
        assert (point.name, point.step) == (name, step)
        assert point.value == value or (math.isnan(point.value) and math.isnan(value))
        assert math.copysign(1, point.value) == math.copysign(1, value) or math.isnan(value)
        assert point.at == datetime.fromtimestamp(int(at * 1000) / 1000, UTC)


def test_the_body_is_plain_compact_json(tmp_path: Path) -> None:
    writer = Writer(RUN, NoSender, tmp_path / "spool.jsonl")
    try:
        body = writer._encode([("val/acc", 3, 0.25, 1_764_583_200.1234)])
    finally:
        writer.close(timeout=0.1)
    assert json.loads(body) == {
        "run_uuid": RUN,
        "points": [
            {"name": "val/acc", "step": 3, "value": 0.25, "at": "2025-12-01T10:00:00.123+00:00"}
        ],
    }


def refuse(token: str) -> None:
    raise AssertionError(f"not standard JSON: {token}")


def test_nan_and_infinities_are_spelled_as_strings(tmp_path: Path) -> None:
    writer = Writer(RUN, NoSender, tmp_path / "spool.jsonl")
    try:
        body = writer._encode(
            [("nan", 0, math.nan, 0.0), ("inf", 1, math.inf, 0.0), ("x", 2, -math.inf, 0.0)]
        )
    finally:
        writer.close(timeout=0.1)
    values = [p["value"] for p in json.loads(body, parse_constant=refuse)["points"]]
    assert values == ["NaN", "Infinity", "-Infinity"]
