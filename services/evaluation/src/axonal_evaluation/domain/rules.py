"""Which targets an online rule evaluates: its filter, and its sampling decision.

Sampling is decided from the rule's and the target's ids, so a redelivered event (or another
replica) decides the same way.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from axonal_events.evaluators import RuleFilter, ScoreCondition

__all__ = [
    "JUDGE_TRACE_PREFIX",
    "job_id",
    "matches",
    "sampled",
    "score_holds",
    "target_key",
]

#: The ids of the judges' own traces start so: no rule reads them.
JUDGE_TRACE_PREFIX = "eval-judge-"


_COMPARE = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def score_holds(condition: ScoreCondition, score: Mapping[str, Any]) -> bool:
    """Whether one score (``name``, ``value``, ``string_value``) meets ``condition``: numbers
    compare with numeric and boolean scores, text with a categorical score's label."""
    if score.get("name") != condition.name:
        return False
    if isinstance(condition.value, str):
        label = score.get("string_value")
        return (
            condition.operator in ("=", "!=")
            and label is not None
            and bool(_COMPARE[condition.operator](label, condition.value))
        )
    value = score.get("value")
    return value is not None and bool(_COMPARE[condition.operator](value, condition.value))


def matches(
    rule_filter: RuleFilter,
    target: Mapping[str, Any],
    trace: Mapping[str, Any],
    scores: Sequence[Mapping[str, Any]] = (),
) -> bool:
    """Whether ``target`` (a trace, or an observation of ``trace``) passes ``rule_filter``.

    Names, environments, types and metadata are the target's own; tags and ``scores`` are
    the trace's (each condition met by at least one of them).
    """
    if rule_filter.names and target.get("name") not in rule_filter.names:
        return False
    if rule_filter.environments and target.get("environment") not in rule_filter.environments:
        return False
    if rule_filter.types and target.get("type") not in rule_filter.types:
        return False
    tags = set(trace.get("tags") or [])
    if not set(rule_filter.tags) <= tags:
        return False
    metadata = target.get("metadata") or {}
    if any(metadata.get(key) != value for key, value in rule_filter.metadata.items()):
        return False
    return all(any(score_holds(c, s) for s in scores) for c in rule_filter.scores)


def sampled(rate: float, rule_id: str, key: str) -> bool:
    """Whether the target ``key`` falls in the rule's sample (``rate`` in [0, 1])."""
    if rate >= 1.0:
        return True
    if rate <= 0.0:
        return False
    digest = hashlib.sha256(f"{rule_id}\0{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < rate


def target_key(trace_id: str, observation_id: str | None) -> str:
    """What a rule scores once: a trace, or one observation of it."""
    return f"{trace_id}/{observation_id}" if observation_id else trace_id


def job_id(rule_id: str, key: str) -> str:
    """The one job a rule ever has for a target (see :func:`target_key`)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:eval:{rule_id}:{key}").hex
