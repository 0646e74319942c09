"""Checks of what a run logs: metric names, values and steps, tags, JSON-ready values.

Every check raises ``ValueError`` (or ``TypeError`` for what JSON cannot hold) in the caller's
thread, before anything is queued or sent; but a metric value is never refused: it is a float
(NaN and the infinities included) or, when it is no number, ``None`` (the caller drops it).
"""

from __future__ import annotations

import json
import numbers
import re
import sys
from typing import Any

__all__ = [
    "GOOD_NAMES",
    "check_name",
    "check_step",
    "check_tags",
    "convert_values",
    "json_ready",
    "metric_value",
]

#: The names the tracking service accepts (``axonal_events.metrics.METRIC_NAME_PATTERN``).
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./:-]{0,199}")
_MAX_STEP = 2**62
_TAG_MAX = 100
#: Names already checked: a training loop logs the same few names again and again.
GOOD_NAMES: set[str] = set()
#: Metrics a value was dropped of (no number): each is told once.
DROPPED: set[str] = set()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"bad metric name {name!r}: 1 to 200 letters, digits or _ . / : - "
            "(not starting with . / : -)"
        )
    if len(GOOD_NAMES) < 10_000:
        GOOD_NAMES.add(name)
    return name


def metric_value(value: object) -> float | None:
    """``value`` as a float if ``float()`` takes it (ints, bools, numpy scalars, 0-d arrays and
    tensors; NaN and infinities as they are); ``None`` for a string or anything else."""
    if isinstance(value, str | bytes | bytearray):
        return None  # float() would parse it: a string is a label, not a metric
    try:
        return float(value)  # type: ignore[arg-type]  # whatever has __float__ or __index__
    except Exception:  # noqa: BLE001 - whatever the value's own conversion raises
        return None


def convert_values(values: dict[str, Any]) -> None:
    """Turn every value into a float, in place; drop those that are no number, saying so on
    stderr once per metric."""
    for name, value in list(values.items()):
        number = metric_value(value)
        if number is not None:
            values[name] = number
            continue
        del values[name]
        if name not in DROPPED:
            DROPPED.add(name)
            shown = repr(value)
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            print(
                f"axonal.tracking: metric {name!r}: {shown} is not a number; it is dropped "
                "(said once per metric)",
                file=sys.stderr,
                flush=True,
            )


def check_step(step: object) -> int:
    if type(step) is int and 0 <= step <= _MAX_STEP:  # the hot path
        return step
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise ValueError(f"the step must be an integer, not {step!r}")
    if not 0 <= int(step) <= _MAX_STEP:
        raise ValueError(f"the step must be between 0 and 2**62, not {step}")
    return int(step)


def check_tags(tags: Any) -> list[str]:
    if isinstance(tags, str):
        raise ValueError(f"tags must be a list of strings, not the string {tags!r}")
    for tag in tags:
        if not isinstance(tag, str) or not 1 <= len(tag) <= _TAG_MAX:
            raise ValueError(f"bad tag {tag!r}: a string of 1 to {_TAG_MAX} characters")
    return list(dict.fromkeys(tags))


def json_ready(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` once JSON can hold them (``TypeError`` here, not in the backend)."""
    loaded: dict[str, Any] = json.loads(json.dumps(values))
    return loaded
