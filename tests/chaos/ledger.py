"""What the load sent against what the platform stored: for each kind of data, how much was
acknowledged, how much of it is stored, what is stored twice and what is missing."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import asyncpg

from axonal_testing.receiver import Receiver

from .load import DAG_OPS, METRIC, DagStream, MetricStream, SpanStream

__all__ = [
    "Tally",
    "dag_tally",
    "metric_tally",
    "query",
    "span_tally",
    "stored_steps",
    "succeeded_runs",
    "webhook_tally",
]


@dataclass(frozen=True)
class Tally:
    """One kind of data: ``sent`` were acknowledged, ``stored`` of those are stored."""

    kind: str
    sent: int
    stored: int
    duplicates: int
    lost: int
    unexpected: int = 0  # stored though never sent: always a defect

    @property
    def exact(self) -> bool:
        return self.sent == self.stored and not (self.duplicates or self.lost or self.unexpected)


def query(database_url: str, sql: str, *args: object) -> list[asyncpg.Record]:
    """``sql`` straight on the platform's database (as its admin)."""

    async def fetch() -> list[asyncpg.Record]:
        conn = await asyncpg.connect(database_url, timeout=5)
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    return asyncio.run(fetch())


def _counted(
    kind: str, wanted: set[Any], stored: set[Any], copies: Counter[Any], unexpected: int = 0
) -> Tally:
    """``wanted`` against what is ``stored``; ``copies``: how many times each stored one is."""
    return Tally(
        kind=kind,
        sent=len(wanted),
        stored=len(wanted & stored),
        duplicates=sum(count - 1 for count in copies.values()),
        lost=len(wanted - stored),
        unexpected=unexpected,
    )


def _tally(kind: str, acked: set[Any], maybe: set[Any], rows: list[Any]) -> Tally:
    stored = set(rows)
    return _counted(kind, acked, stored, Counter(rows), len(stored - acked - maybe))


def stored_steps(database_url: str, run_uuid: str) -> list[int]:
    """The steps of ``chaos`` stored for the run, a row each."""
    rows = query(
        database_url,
        "SELECT step FROM tracking.metric_points WHERE run_uuid = $1 AND name = $2",
        run_uuid,
        METRIC,
    )
    return [row["step"] for row in rows]


def metric_tally(database_url: str, stream: MetricStream, acked: list[int]) -> Tally:
    """Batches ``acked`` (acknowledged by ``stream``) against the rows of ``tracking``."""
    rows = stored_steps(database_url, stream.run_uuid)
    everything = stream.acked + stream.given_up
    return _tally("metric points", stream.steps(acked), stream.steps(everything), rows)


def span_tally(database_url: str, project_id: str, stream: SpanStream, acked: list[int]) -> Tally:
    rows = query(
        database_url,
        "SELECT id FROM tracking.observations WHERE project_id = $1 AND starts_with(id, $2)",
        project_id,
        stream.prefix,
    )
    everything = stream.acked + stream.given_up
    return _tally("spans", stream.ids(acked), stream.ids(everything), [r["id"] for r in rows])


def dag_tally(database_url: str, stream: DagStream, acked: list[int]) -> Tally:
    """The ops of the DAGs ``acked``: each must have run in one run, which succeeded (a run
    may take several attempts when the agent running it is killed)."""
    dags = [stream.uuids[n] for n in acked]
    rows = query(
        database_url,
        "SELECT pipeline_uuid, name, status FROM scheduler.runs WHERE pipeline_uuid = ANY($1)",
        dags,
    )
    ops = Counter((r["pipeline_uuid"], r["name"]) for r in rows)
    succeeded = {(r["pipeline_uuid"], r["name"]) for r in rows if r["status"] == "succeeded"}
    wanted = {(dag, op) for dag in dags for op in DAG_OPS}
    return _counted("DAG ops", wanted, succeeded, ops, len(set(ops) - wanted))


def succeeded_runs(database_url: str, owner: str, project: str) -> set[str]:
    rows = query(
        database_url,
        "SELECT uuid FROM scheduler.runs WHERE owner = $1 AND project = $2 AND status = $3",
        owner,
        project,
        "succeeded",
    )
    return {r["uuid"] for r in rows}


def webhook_tally(receiver: Receiver, expected: set[str]) -> Tally:
    """The ``run.done`` deliveries the receiver accepted, against the runs ``expected`` (each
    succeeded run of the project, each announced once: one ``webhook-id`` each)."""
    delivered = [
        (headers.get("webhook-id") or headers.get("Webhook-Id"), json.loads(body))
        for (headers, body), status in zip(receiver.posts, receiver.statuses, strict=False)
        if status < 300
    ]
    runs = {body["data"]["run_uuid"].replace("-", "") for _, body in delivered}
    return _counted("webhooks", expected, runs, Counter(webhook_id for webhook_id, _ in delivered))
