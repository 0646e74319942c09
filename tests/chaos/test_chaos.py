"""Chaos: faults injected one after the other into the clustered platform under steady load.

For each fault: every service replica SIGKILLed on its own, then both replicas of a service
at once; one NATS node restarted, then all three; PostgreSQL restarted; the webhook receiver
answering 503 for a while. After each, every metric point, span and DAG acknowledged since the
suite began must be stored exactly once (each DAG op run in one run, which succeeded), every
run that succeeded must have been delivered to the webhook, and the report gives the recovery
time: from the fault until the platform is healthy and takes every kind of load again (a
metric batch and a span batch acknowledged, a DAG submitted after the fault run to the end and
its webhook delivered).

``make chaos`` runs every fault; ``make test`` the ones not marked ``chaos``: a replica of a
service, both replicas of another, a NATS node, PostgreSQL and the receiver.
"""

from __future__ import annotations

import json
import time

import pytest

from axonal_testing.waiting import wait_for_sync

from .conftest import NAME, OWNER, REPORT, Load, Row
from .faults import RECEIVER_PAUSE, Fault, catalog
from .ledger import Tally, dag_tally, metric_tally, query, span_tally, succeeded_runs, webhook_tally

pytestmark = pytest.mark.slow  # a cluster of real processes, killed and restarted

IN_CI = {
    "SIGKILL tracking",
    "SIGKILL scheduler + scheduler-2",
    "restart nats-1",
    "restart PostgreSQL",
    f"webhook receiver answers 503 for {RECEIVER_PAUSE:.0f}s",
}
FAULTS = [
    pytest.param(fault, id=fault.name, marks=() if fault.name in IN_CI else pytest.mark.chaos)
    for fault in catalog()
]


def _dag_done_and_announced(load: Load, since: float) -> bool:
    """A DAG acknowledged after ``since`` succeeded and its webhook was delivered."""
    after = [n for n, at in list(load.dags.acked_at.items()) if at > since]
    if not after:
        return False
    dag = load.dags.uuids[after[0]]
    rows = query(load.stack.database_url, "SELECT status FROM scheduler.runs WHERE uuid = $1", dag)
    if not rows or rows[0]["status"] != "succeeded":
        return False
    return any(
        status < 300 and json.loads(body)["data"]["run_uuid"].replace("-", "") == dag
        for (_, body), status in zip(load.receiver.posts, load.receiver.statuses, strict=False)
    )


def _recovered(load: Load, since: float) -> bool:
    return (
        load.metrics.acked_since(since) > 0
        and load.spans.acked_since(since) > 0
        and _dag_done_and_announced(load, since)
        and bool(load.stack.refresh()["healthy"])
    )


def _tallies(load: Load, acked: dict[str, list[int]], expected_hooks: set[str]) -> list[Tally]:
    url = load.stack.database_url
    return [
        metric_tally(url, load.metrics, acked["metrics"]),
        span_tally(url, load.project_id, load.spans, acked["spans"]),
        dag_tally(url, load.dags, acked["dags"]),
        webhook_tally(load.receiver, expected_hooks),
    ]


@pytest.mark.parametrize("fault", FAULTS)
def test_after_the_fault_everything_acknowledged_is_stored_once(fault: Fault, load: Load) -> None:
    refused_before, started = load.refusals(), time.monotonic()
    fault.inject(load.stack, load.receiver)
    held = fault.held
    wait_for_sync(
        lambda: _recovered(load, started + held),
        timeout=180,
        interval=0.25,
        message=f"the platform takes every kind of load again after: {fault.name}",
    )
    recovery = time.monotonic() - started - held
    refused = [now - then for now, then in zip(load.refusals(), refused_before, strict=True)]

    # what was acknowledged so far, checked once the DAGs among it have run
    acked = {
        "metrics": list(load.metrics.acked),
        "spans": list(load.spans.acked),
        "dags": list(load.dags.acked),
    }
    hooks = succeeded_runs(load.stack.database_url, OWNER, NAME)

    def settled() -> list[Tally] | None:
        found = _tallies(load, acked, hooks)
        return found if all(t.lost == 0 for t in found) else None

    try:
        wait_for_sync(settled, timeout=180, interval=0.5, message="everything acknowledged stored")
    finally:  # the report shows what was stored, even when something is missing
        stored = time.monotonic() - started - held
        tallies = _tallies(load, acked, hooks)
        REPORT.extend(
            Row(fault.name, tally, count, recovery, stored)
            for tally, count in zip(tallies, refused, strict=True)
        )
    for tally in tallies:
        assert tally.exact, tally
    if held:
        assert refused[-1] > 0, "no delivery was refused while the receiver was paused"
