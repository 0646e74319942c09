"""The platform as a cluster on one machine (``axonal up --cluster``): three NATS nodes as one
JetStream cluster, streams with three replicas, two replicas of every service.

First the same tests as on the embedded stack, run here on the cluster (this module's
``stack`` is the cluster): jobs, a DAG, logs and metrics of the run lifecycle, read-your-writes,
and traces from the Langfuse SDK, the Axonal SDK and OpenTelemetry. Then a NATS node is
killed while metrics stream in (the chaos suite, ``tests/chaos``, restarts them under more
load), and every acknowledged point is stored
exactly once while the platform goes on. A module of its own, so that one worker starts the
cluster, once, and stops it when the module is done.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from typing import Any

import httpx
import nats
import pytest

from axonal_events import StreamKind, Subjects
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

from ..chaos.ledger import stored_steps  # noqa: TID252 - the chaos suite's load
from ..chaos.load import MetricStream  # noqa: TID252
from ..integration.langfuse import conftest as langfuse_setup  # noqa: TID252 - its tests run here
from ..integration.langfuse import test_langfuse_sdk as langfuse_sdk  # noqa: TID252
from ..integration.tracing import conftest as tracing_setup  # noqa: TID252
from ..integration.tracing import test_tracing_roundtrip as tracing  # noqa: TID252
from . import test_read_your_writes as read_your_writes
from . import test_run_lifecycle as lifecycle
from .lifecycle_support import User, job

pytestmark = pytest.mark.slow  # a whole cluster of real processes

# The same tests as on the embedded stack, with the fixtures they need, here on the cluster.
test_job_exit_zero_succeeds = lifecycle.test_job_exit_zero_succeeds
test_a_job_logs_metrics_that_show_on_its_run = (
    lifecycle.test_a_job_logs_metrics_that_show_on_its_run
)
test_logs_are_readable_while_running_and_after = (
    lifecycle.test_logs_are_readable_while_running_and_after
)
test_dag_passes_an_output_through_ref = lifecycle.test_dag_passes_an_output_through_ref
test_a_stop_is_seen_by_the_next_read = read_your_writes.test_a_stop_is_seen_by_the_next_read
langfuse = langfuse_setup.langfuse
test_the_langfuse_sdk_traces_and_scores_read_back = (
    langfuse_sdk.test_the_langfuse_sdk_traces_and_scores_read_back
)
traced, sdk_trace = tracing_setup.traced, tracing_setup.sdk_trace
test_the_sdk_trace_reads_back_field_by_field = tracing.test_the_sdk_trace_reads_back_field_by_field
test_the_plain_opentelemetry_sdk_round_trip = tracing.test_the_plain_opentelemetry_sdk_round_trip

INGEST = Subjects().stream_name(StreamKind.INGEST)


@pytest.fixture(scope="module")
def stack(cluster_stack: RunningStack) -> RunningStack:
    """Every test of this module (those taken from others too) runs on the cluster."""
    return cluster_stack


def test_the_cluster_runs_three_nats_nodes_and_two_replicas_of_each_service(stack: RunningStack):
    status = stack.refresh()
    assert status["healthy"], status["down"]
    assert len(stack.nats_servers) == 3
    state = stack.state()
    assert state["cluster"]
    assert sorted(state["nats_nodes"]) == ["nats-1", "nats-2", "nats-3"]
    by_service: dict[str, list[int]] = {}
    for health in status["services"]:
        service = state["services"][health["service"]]["service"]
        by_service.setdefault(service, []).append(health["replica"])
    assert all(sorted(numbers) == [1, 2] for numbers in by_service.values()), by_service
    apis = [h["url"] for h in status["services"] if h["url"]]
    assert len(set(apis)) == 2  # each api replica on its own port
    assert all(httpx.get(f"{url}/healthz", timeout=10).status_code == 200 for url in apis)
    streams = asyncio.run(_streams(stack))
    assert set(streams.values()) == {3}, streams


async def _streams(stack: RunningStack) -> dict[str, int]:
    nc = await nats.connect(stack.nats_servers, connect_timeout=5)
    try:
        js = nc.jetstream()
        return {s.config.name: s.config.num_replicas for s in await js.streams_info()}
    finally:
        await nc.close()


async def _leader(stack: RunningStack, stream: str) -> dict[str, Any]:
    """``stream``'s leader and whether each of its other replicas is current."""
    nc = await nats.connect(stack.nats_servers, connect_timeout=5)
    try:
        info = await nc.jetstream().stream_info(stream)
    finally:
        await nc.close()
    assert info.cluster is not None
    replicas = {peer.name: bool(peer.current) for peer in info.cluster.replicas or []}
    return {"leader": info.cluster.leader, "replicas": replicas}


def _restarted(stack: RunningStack, node: str) -> dict[str, Any] | None:
    server: dict[str, Any] = stack.state()["servers"][node]
    return server if server["restarts"] == 1 and server["up"] else None


def test_a_nats_node_killed_while_metrics_stream_in_loses_and_repeats_nothing(
    stack: RunningStack, user: User
):
    uuid = user.run(job(["true"]))  # a run to report points to
    assert user.wait_done(uuid)["status"] == "succeeded"
    apis = [h["url"] for h in stack.refresh()["services"] if h["url"]]
    stream = MetricStream(apis, stack.admin_token, f"{user.base}/{uuid}/metrics", uuid)
    stream.start()
    try:
        stream.wait_acked(40)
        node = asyncio.run(_leader(stack, INGEST))["leader"]  # the most disruptive to lose
        killed_at = time.monotonic()
        os.kill(stack.state()["nats_nodes"][node]["process"]["pid"], signal.SIGKILL)
        stream.wait_acked(40)  # the platform goes on meanwhile
        went_on = time.monotonic() - killed_at
        wait_for_sync(lambda: _restarted(stack, node), timeout=60, message=f"{node} restarted")
        stream.wait_acked(40)
    finally:
        stream.finish()
    acked, maybe = stream.steps(stream.acked), stream.steps(stream.given_up)

    def all_stored() -> list[int] | None:
        steps = stored_steps(stack.database_url, uuid)
        return steps if acked <= set(steps) else None

    steps = wait_for_sync(all_stored, timeout=90, interval=0.5, message="every point stored")
    assert len(steps) == len(set(steps))  # exactly once each
    assert set(steps) <= acked | maybe  # and nothing that was never sent
    series = user.cli_json("ops", "metrics", uuid, "--points", "10")["series"]
    assert [(s["name"], s["total"]) for s in series] == [("chaos", len(steps))]

    def caught_up() -> bool:
        replicas = asyncio.run(_leader(stack, INGEST))["replicas"]
        return len(replicas) == 2 and all(replicas.values())

    wait_for_sync(caught_up, timeout=60, interval=0.5, message=f"{node} caught up on {INGEST}")
    wait_for_sync(lambda: stack.refresh()["healthy"], timeout=60, message="healthy again")
    again = user.run(job([sys.executable, "-c", "print('after the kill')"]))
    assert user.wait_done(again)["status"] == "succeeded"
    print(
        f"\nkilled {node}, the {INGEST} leader: {len(stream.acked)} batches acknowledged "
        f"({stream.points} points), {stream.retries} posts retried, 40 more acknowledged "
        f"{went_on:.1f}s after the kill"
    )
