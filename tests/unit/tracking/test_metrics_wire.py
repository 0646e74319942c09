"""The fast metric batch decoder agrees with the contract on what it accepts and what it means."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from axonal_bus.errors import Permanent
from axonal_events.metrics import MetricBatch
from axonal_tracking.metrics.wire import decode_batch

RUN = "0123456789abcdef0123456789abcdef"
AT = "2026-12-01T10:00:00.123+00:00"


def body(points: list[dict[str, Any]], run: str = RUN, **extra: Any) -> bytes:
    return json.dumps({"run_uuid": run, "points": points, **extra}).encode()


def point(**overrides: Any) -> dict[str, Any]:
    return {"name": "loss", "step": 3, "value": 0.5, "at": AT, **overrides}


def same_as_contract(raw: bytes) -> None:
    try:
        expected = MetricBatch.model_validate_json(raw)
    except ValidationError:
        with pytest.raises(Permanent, match="not a metric batch"):
            decode_batch(raw)
        return
    got = decode_batch(raw)
    assert got.run_uuid == expected.run_uuid
    assert [(p.name, p.step, p.at) for p in got.points] == [
        (p.name, p.step, p.at) for p in expected.points
    ]
    for mine, theirs in zip(got.points, expected.points, strict=True):
        assert mine.value == theirs.value or (math.isnan(mine.value) and math.isnan(theirs.value))


@pytest.mark.parametrize(
    "raw",
    [
        body([point()]),
        body([point(), point(name="val/acc", step=4, value=1)]),
        body([point(step="3")]),  # lax: a numeric string is a step for the contract
        body([point(at=1_764_583_200)]),  # lax: a unix time
        body([point(at="2026-12-01T10:00:00Z")]),
        body([point(value=1e308)]),
        body([point(name=".hidden")]),
        body([point(name="x" * 201)]),
        body([point(step=-1)]),
        body([point(step=2**62 + 1)]),
        body([point(value="nope")]),
        body([point(value="NaN")]),
        body([point(value="Infinity"), point(step=4, value="-Infinity")]),
        body([point(value="nan")]),
        body([point(value="-inf")]),
        body([point(value="1.5")]),
        body([point(value=None)]),
        body([point(name="loss\n")]),
        body([point(), point(name="bad name", step=4)]),
        body([point(extra=1)]),
        body([point()], extra=1),
        body([]),
        body([point()] * 10_001),
        body([point()], run="not-a-run"),
        b'{"run_uuid": "' + RUN.encode() + b'", "points": [{"name": "a", "step": 1, '
        b'"value": 1e999, "at": "' + AT.encode() + b'"}]}',
        b"not json",
    ],
)
def test_each_case_is_decided_as_the_contract_decides(raw: bytes) -> None:
    same_as_contract(raw)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        (body([point(value="NaN")]), math.nan),
        (body([point(value="Infinity")]), math.inf),
        (body([point(value="-Infinity")]), -math.inf),
        (body([point(value=float("nan"))]), math.nan),  # Python's bare NaN token
        (b'{"run_uuid":"' + RUN.encode() + b'","points":[{"name":"a","step":1,'
         b'"value":1e999,"at":"' + AT.encode() + b'"}]}', math.inf),
    ],
)  # fmt: skip
def test_non_finite_values_are_read(raw: bytes, value: float) -> None:
    got = decode_batch(raw).points[0].value
    assert got == value or (math.isnan(got) and math.isnan(value))


def test_a_bad_name_among_good_ones_is_refused() -> None:
    with pytest.raises(Permanent, match=r"points\.1\.name"):
        decode_batch(body([point(), point(name="bad name", step=4)]))


def test_a_refusal_names_the_field() -> None:
    with pytest.raises(Permanent, match=r"points\.0\.value"):
        decode_batch(body([point(value="nope")]))


@settings(max_examples=300)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "name": st.from_regex(r"[A-Za-z0-9_.:/-]{1,12}", fullmatch=True),
                "step": st.integers(min_value=-5, max_value=2**63),
                "value": st.one_of(
                    st.floats(), st.sampled_from(["NaN", "Infinity", "-Infinity", "1e3", "x"])
                ),
                "at": st.sampled_from([AT, "2026-12-01T10:00:00Z", "yesterday"]),
            }
        ),
        min_size=1,
        max_size=5,
    )
)
def test_generated_batches_are_decided_as_the_contract_decides(
    points: list[dict[str, Any]],
) -> None:
    same_as_contract(body(points))
