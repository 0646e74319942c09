"""Request/reply: metric series (downsampled in SQL) and latest values."""

from __future__ import annotations

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_events.metrics import (
    AlertRuleInfo,
    AlertRuleList,
    AlertRuleSpec,
    DeleteAlertRule,
    LatestMetrics,
    ListAlertRules,
    ReadLatest,
    ReadSeries,
    SeriesList,
)
from axonal_tracking import alerts_store, store

__all__ = ["register"]


def register(ctx: ServiceContext) -> None:
    async def series(request: ReadSeries) -> SeriesList:
        async with ctx.pool.acquire() as conn:
            found = await store.series(conn, request.run_uuids, request.names, request.points)
        return SeriesList(series=found)

    async def latest(request: ReadLatest) -> LatestMetrics:
        async with ctx.pool.acquire() as conn:
            return LatestMetrics(values=await store.latest(conn, request.run_uuids))

    async def create_alert(request: AlertRuleSpec) -> AlertRuleInfo:
        async with ctx.pool.acquire() as conn:
            return await alerts_store.create(conn, request)

    async def list_alerts(request: ListAlertRules) -> AlertRuleList:
        async with ctx.pool.acquire() as conn:
            return AlertRuleList(rules=await alerts_store.list_for(conn, request.project))

    async def delete_alert(request: DeleteAlertRule) -> AlertRuleList:
        async with ctx.pool.acquire() as conn:
            if not await alerts_store.delete(conn, request.project, request.id):
                raise Permanent(f"not found: alert rule {request.id} in {request.project}")
            return AlertRuleList(rules=await alerts_store.list_for(conn, request.project))

    ctx.serve_rpc("series", ReadSeries, series)
    ctx.serve_rpc("create_alert", AlertRuleSpec, create_alert)
    ctx.serve_rpc("list_alerts", ListAlertRules, list_alerts)
    ctx.serve_rpc("delete_alert", DeleteAlertRule, delete_alert)
    ctx.serve_rpc("latest", ReadLatest, latest)
