"""Metric batches off the bus, decoded fast.

The contract is :class:`axonal_events.metrics.MetricBatch`. Decoding thousands of points into
pydantic models costs more than storing them, so batches are decoded with msgspec structs that
mirror the contract (same names, bounds and lax coercions: a value may be the string ``"NaN"``,
``"Infinity"`` or ``"-Infinity"``) and fall back to the contract itself only when msgspec
refuses a batch: it then either explains the refusal or, for input the contract accepts in a
way msgspec does not (a time as a number), decodes it. A batch holds a few names thousands of
times, so names are checked against the pattern once per batch and name, not once per point.
Either way the result is a :class:`~axonal_tracking.domain.points.Batch`.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

import msgspec
from pydantic import ValidationError

from axonal_bus.errors import Permanent
from axonal_events.metrics import MAX_POINTS_PER_BATCH, METRIC_NAME_PATTERN, MetricBatch
from axonal_tracking.domain.points import Batch

__all__ = ["decode_batch"]

_NAME = re.compile(METRIC_NAME_PATTERN)


class _Point(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    name: str  # checked once per batch and name, see decode_batch
    step: Annotated[int, msgspec.Meta(ge=0, le=2**62)]
    value: float
    at: datetime


class _Batch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    run_uuid: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{32}$")]
    points: Annotated[list[_Point], msgspec.Meta(min_length=1, max_length=MAX_POINTS_PER_BATCH)]


# Lax: strings are read as the numbers they spell, as the contract reads them.
_decoder = msgspec.json.Decoder(_Batch, strict=False)


def decode_batch(raw: bytes) -> Batch:
    """A valid batch; :class:`Permanent` naming the first bad field otherwise."""
    try:
        fast = _decoder.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError):
        pass
    else:
        if all(_NAME.fullmatch(name) for name in {p.name for p in fast.points}):
            return fast
    try:
        return MetricBatch.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise Permanent(f"not a metric batch: {where}: {first['msg']}") from None
