"""The chaos suite's platform, load and report.

One cluster stack for the whole suite (``axonal up --cluster``: three NATS nodes, streams
with three replicas, two replicas of every service), under a steady load that runs from the
first fault to the last: metric points, OTLP spans, DAG runs, and a webhook for each run that
succeeds. Webhook retries are quick here (a second or two apart, the breaker cools in 3 s),
so that a receiver back from a pause is caught up within seconds rather than the default
minutes.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from axonal_testing.receiver import Receiver, receiving
from axonal_testing.stack import RunningStack, running_stack

from .ledger import Tally
from .load import DagStream, MetricStream, SpanStream

OWNER, NAME = "chaos", "load"
PROJECT = f"{OWNER}/{NAME}"
CHAOS_ENV = {
    "AXONAL_NOTIFICATIONS_RETRY_SCHEDULE": "0.5,1,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2",
    "AXONAL_NOTIFICATIONS_BREAKER_COOLDOWN": "3",
}


@dataclass(frozen=True)
class Row:
    """A line of the report: one kind of data after one fault; ``refused`` counts the posts
    of that data the platform did not acknowledge while the fault lasted (the webhook
    receiver's 503s for webhooks): the fault was felt. ``recovery``: seconds until the
    platform took every kind of load again; ``stored``: until everything acknowledged by then
    was stored (what a killed consumer held comes again after its ack wait)."""

    fault: str
    tally: Tally
    refused: int
    recovery: float
    stored: float


REPORT: list[Row] = []


@dataclass
class Load:
    """The platform under load: the streams, the receiver, and the project they write to."""

    stack: RunningStack
    receiver: Receiver
    project_id: str
    metrics: MetricStream
    spans: SpanStream
    dags: DagStream

    @property
    def streams(self) -> list[MetricStream | SpanStream | DagStream]:
        return [self.metrics, self.spans, self.dags]

    def refusals(self) -> list[int]:
        """Posts not acknowledged so far, per stream, then the receiver's refusals."""
        return [s.retries for s in self.streams] + [
            sum(1 for status in self.receiver.statuses if status >= 300)
        ]


def _api_urls(stack: RunningStack) -> list[str]:
    return sorted({h["url"] for h in stack.refresh()["services"] if h["url"]})


def _setup_project(stack: RunningStack, receiver: Receiver) -> tuple[str, tuple[str, str]]:
    """The project, its webhook (every run that succeeds) and its keys (for OTLP)."""
    with stack.http(timeout=30) as api:
        created = api.post("/api/v1/projects", json={"owner": OWNER, "name": NAME})
        assert created.status_code == 201, created.text
        hook = api.post(
            f"/api/v1/{PROJECT}/webhooks",
            json={"url": receiver.url(), "events": ["run.done"], "statuses": ["succeeded"]},
        )
        assert hook.status_code == 201, hook.text
        key = api.post(f"/api/v1/projects/{PROJECT}/api-keys", json={})
        assert key.status_code in (200, 201), key.text
        found = key.json()
    return found["project"]["id"], (found["public_key"], found["secret_key"])


def _metric_run(stack: RunningStack, apis: list[str]) -> str:
    """A run for the metric points: a job that ends at once (points may come after)."""
    job = '{"kind": "job", "container": {"image": "python", "command": ["true"]}}'
    with httpx.Client(base_url=apis[0], timeout=30) as api:
        reply = api.post(
            f"/api/v1/{PROJECT}/runs",
            json={"content": f"version: 1.1\nkind: component\nrun: {job}\n"},
            headers={"Authorization": f"Bearer {stack.admin_token}"},
        )
        assert reply.status_code == 202, reply.text
    return str(reply.json()["uuid"]).replace("-", "")


@pytest.fixture(scope="module")
def chaos_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningStack]:
    with running_stack(tmp_path_factory, "chaos", CHAOS_ENV, cluster=True) as running:
        yield running


@pytest.fixture(scope="module")
def load(chaos_stack: RunningStack) -> Iterator[Load]:
    stack = chaos_stack
    apis = _api_urls(stack)
    with receiving() as receiver:
        project_id, keys = _setup_project(stack, receiver)
        run_uuid = _metric_run(stack, apis)
        running = Load(
            stack=stack,
            receiver=receiver,
            project_id=project_id,
            metrics=MetricStream(
                apis, stack.admin_token, f"/api/v1/{PROJECT}/runs/{run_uuid}/metrics", run_uuid
            ),
            spans=SpanStream(apis, keys, prefix=secrets.token_hex(2)),
            dags=DagStream(apis, stack.admin_token, PROJECT),
        )
        for stream in running.streams:
            stream.start()
        try:
            for stream in running.streams:
                stream.wait_acked(3, timeout=120)
            yield running
        finally:
            for stream in running.streams:
                stream.finish()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The report: for each fault, each kind of data sent, stored, twice, missing, and how
    long the platform took to take every kind of load again."""
    if not REPORT:
        return
    write = terminalreporter.write_line
    terminalreporter.section("chaos report")
    header = f"{'fault':<40} {'data':<14} {'sent':>7} {'stored':>7} {'dup':>4} {'lost':>4}"
    write(f"{header} {'refused':>8} {'recovery':>9} {'all stored':>11}")
    for row in REPORT:
        t = row.tally
        write(
            f"{row.fault:<40} {t.kind:<14} {t.sent:>7} {t.stored:>7} {t.duplicates:>4} "
            f"{t.lost:>4} {row.refused:>8} {row.recovery:>8.1f}s {row.stored:>10.1f}s"
        )
