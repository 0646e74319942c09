"""Checks of what a run logs: metric names, values and steps, tags, JSON-ready values.

Every check raises ``ValueError`` (or ``TypeError`` for what JSON cannot hold) in the caller's
thread, before anything is queued or sent.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from typing import Any

__all__ = [
    "GOOD_NAMES",
    "check_name",
    "check_step",
    "check_tags",
    "check_value",
    "json_ready",
]

#: The names the tracking service accepts (``axonal_events.metrics.METRIC_NAME_PATTERN``).
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./:-]{0,199}")
_MAX_STEP = 2**62
_TAG_MAX = 100
#: Names already checked: a training loop logs the same few names again and again.
GOOD_NAMES: set[str] = set()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(
            f"bad metric name {name!r}: 1 to 200 letters, digits or _ . / : - "
            "(not starting with . / : -)"
        )
    if len(GOOD_NAMES) < 10_000:
        GOOD_NAMES.add(name)
    return name


def check_value(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"metric {name!r}: the value must be a real number, not {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"metric {name!r}: the value must be finite, not {number!r}")
    return number


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
