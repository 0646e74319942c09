"""Tracking handlers called directly, on a stand-in for the database: what they raise, with
which code, and what they look up."""

from __future__ import annotations

from contextlib import asynccontextmanager
from datetime import UTC, datetime
from types import SimpleNamespace

import asyncpg
import pytest

from axonal_bus.errors import Invalid, NotFound, Retryable
from axonal_events import ErrorCode
from axonal_events.llm_models import DeleteModel, GetModel
from axonal_events.metrics import MetricBatch
from axonal_traces import shipped_models
from axonal_tracking.domain.runs import KnownRun, KnownRuns
from axonal_tracking.metrics import ingest
from axonal_tracking.prices import rpc as prices_rpc

RUN = "0123456789abcdef0123456789abcdef"
AT = datetime(2026, 12, 1, tzinfo=UTC)


class Database:
    """A connection that finds nothing, and counts what is asked of it."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    async def fetch(self, sql: str, *_: object) -> list[object]:
        self.queries.append(sql)
        return []

    async def fetchrow(self, sql: str, *_: object) -> None:
        self.queries.append(sql)

    async def execute(self, sql: str, *_: object) -> str:
        self.queries.append(sql)
        return ""

    @asynccontextmanager
    async def acquire(self):
        yield self

    @asynccontextmanager
    async def transaction(self, **_: object):
        yield


def context(db: Database | None = None) -> SimpleNamespace:
    return SimpleNamespace(pool=db or Database(), known_runs=KnownRuns())


def metric_batch() -> MetricBatch:
    return MetricBatch.model_validate(
        {"run_uuid": RUN, "points": [{"name": "loss", "step": 1, "value": 0.5, "at": AT}]}
    )


async def test_a_batch_of_a_run_not_heard_of_is_retried_later():
    db = Database()
    ctx = context(db)
    with pytest.raises(Retryable, match=f"unknown run {RUN}"):
        await ingest.store_batch(ctx, metric_batch())
    assert len(db.queries) == 1  # the run looked up, nothing stored


async def test_a_known_run_is_looked_up_once(monkeypatch):
    stored, evaluated = [], []

    async def copy_points(conn, batch):
        stored.append(batch.run_uuid)

    async def evaluate(ctx, conn, run, batch):
        evaluated.append(run)

    monkeypatch.setattr(ingest.store, "copy_points", copy_points)
    monkeypatch.setattr(ingest, "evaluate", evaluate)
    db = Database()
    ctx = context(db)
    run = KnownRun(RUN, "acme/demo", ["gpu"])
    ctx.known_runs.remember(run)
    await ingest.store_batch(ctx, metric_batch())
    await ingest.store_batch(ctx, metric_batch())
    # no look-up of the run: each batch only reopens the summaries of its steps
    assert db.queries == ["SELECT metric_rollups_reopen($1, $2)"] * 2
    assert (stored, evaluated) == ([RUN, RUN], [run, run])


async def test_shipped_models_are_read_but_not_deleted():
    ctx, shipped = context(), shipped_models()[0]
    found = await prices_rpc.get_model(ctx, GetModel(project_id="p", id=shipped.id))
    assert found == shipped
    with pytest.raises(Invalid, match="shipped with Axonal") as refused:
        await prices_rpc.delete_model(ctx, DeleteModel(project_id="p", id=shipped.id))
    assert refused.value.code is ErrorCode.INVALID


@pytest.mark.parametrize("method", [prices_rpc.get_model, prices_rpc.delete_model])
async def test_an_unknown_model_is_not_found(method):
    request = (GetModel if method is prices_rpc.get_model else DeleteModel)(project_id="p", id="x")
    with pytest.raises(NotFound, match="model x does not exist") as missing:
        await method(context(), request)
    assert missing.value.code is ErrorCode.NOT_FOUND


async def test_a_repeated_batch_reopens_no_summary(monkeypatch):
    async def copy_points(conn, batch):
        raise asyncpg.UniqueViolationError("stored already")

    async def insert_new_points(conn, batch):
        return 0

    async def evaluate(ctx, conn, run, batch):
        return None

    monkeypatch.setattr(ingest.store, "copy_points", copy_points)
    monkeypatch.setattr(ingest.store, "insert_new_points", insert_new_points)
    monkeypatch.setattr(ingest, "evaluate", evaluate)
    db = Database()
    ctx = context(db)
    ctx.known_runs.remember(KnownRun(RUN, "acme/demo", []))
    await ingest.store_batch(ctx, metric_batch())
    assert db.queries == []
