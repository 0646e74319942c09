"""DAG trigger policies (spec §4.2): start, wait, skip or fail an op from its upstreams."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from axonal_events import DONE_STATUSES, RunStatus

__all__ = ["POLICIES", "Decision", "decide", "evaluate"]

POLICIES = ("all_succeeded", "all_failed", "all_done", "one_succeeded", "one_failed", "one_done")


class Decision(StrEnum):
    START = "start"
    WAIT = "wait"
    UPSTREAM_FAILED = "upstream_failed"
    SKIPPED = "skipped"


def evaluate(policy: str | None, upstream: Sequence[RunStatus]) -> Decision:
    """The trigger policy alone: ``one_*`` fire on the first match, ``all_*`` once all are done.

    An op without upstream starts at once; the default policy is ``all_succeeded``.
    """
    policy = policy or "all_succeeded"
    if policy not in POLICIES:
        raise ValueError(f"unknown trigger policy {policy!r}")
    if not upstream:
        return Decision.START
    done = [s for s in upstream if s in DONE_STATUSES]
    succeeded: list[RunStatus] = [s for s in done if s is RunStatus.SUCCEEDED]
    failed: list[RunStatus] = [s for s in done if s is RunStatus.FAILED]
    scope, _, what = policy.partition("_")
    groups: dict[str, list[RunStatus]] = {"succeeded": succeeded, "failed": failed, "done": done}
    matches = groups[what]
    if scope == "one":
        if matches:
            return Decision.START
        return Decision.UPSTREAM_FAILED if len(done) == len(upstream) else Decision.WAIT
    if len(done) < len(upstream):
        return Decision.WAIT
    return Decision.START if len(matches) == len(upstream) else Decision.UPSTREAM_FAILED


def decide(
    policy: str | None, upstream: Sequence[RunStatus], *, skip_on_upstream_skip: bool = False
) -> Decision:
    """The policy, after ``skipOnUpstreamSkip``: a skipped upstream skips the op."""
    if skip_on_upstream_skip and RunStatus.SKIPPED in upstream:
        return Decision.SKIPPED
    return evaluate(policy, upstream)
