"""Alert rules: ``loss > 5 for 3 points`` emits exactly one ``metric.crossed`` per crossing."""

import json

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import CATALOG, ErrorCode, MetricCrossed, StreamKind
from axonal_events.metrics import AlertRuleSpec, DeleteAlertRule, ListAlertRules
from axonal_events.rpcs import Tracking
from axonal_testing.bus import drained
from axonal_testing.waiting import wait_for

from .conftest import create_run, send


def points(run_uuid, values, start=0):
    at = "2026-01-01T00:00:00Z"
    rows = [{"name": "loss", "step": start + i, "value": v, "at": at} for i, v in enumerate(values)]
    return json.dumps({"run_uuid": run_uuid, "points": rows}).encode()


async def _stored(database_url, run_uuid, count):
    conn = await connect(database_url)
    try:
        found = await conn.fetchval(
            "SELECT count(*) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
        )
    finally:
        await conn.close()
    return found == count


async def _crossings_written(database_url, run_uuid):
    """The metric.crossed events of ``run_uuid`` in the outbox (each with its batch)."""
    conn = await connect(database_url)
    try:
        return await conn.fetchval(
            "SELECT count(*) FROM tracking.outbox WHERE subject LIKE '%.metric.crossed' "
            "AND convert_from(payload, 'UTF8')::jsonb -> 'data' ->> 'run_uuid' = $1",
            run_uuid,
        )
    finally:
        await conn.close()


async def test_loss_above_5_for_3_points_crosses_once_per_excursion(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    spec = AlertRuleSpec(
        project="acme/demo", metric="loss", comparison="gt", threshold=5, for_points=3
    )
    rule = await rpc.call(nats_client, subjects, Tracking.create_alert, spec)
    listed = await rpc.call(
        nats_client, subjects, Tracking.list_alerts, ListAlertRules(project="acme/demo")
    )
    assert [r.id for r in listed.rules] == [rule.id]

    crossed: list[MetricCrossed] = []

    async def on_event(msg):
        crossed.append(CATALOG.decode(msg.data).data)

    sub = await nats_client.subscribe(subjects.event("metric.crossed"), cb=on_event)
    run_uuid = await create_run(js, subjects)
    other = await create_run(js, subjects, project="acme/other")  # the rule is acme/demo's
    first = points(run_uuid, [6, 7])
    await send(js, subjects, run_uuid, first, msg_id="a")
    await wait_for(lambda: _stored(database_url, run_uuid, 2), message="first batch")
    await send(js, subjects, run_uuid, points(run_uuid, [8, 9, 9, 1, 6, 6, 6], start=2))
    await send(js, subjects, run_uuid, first, msg_id="a-again")  # a re-send: no new crossing
    await send(js, subjects, other, points(other, [9, 9, 9, 9]))
    await wait_for(lambda: len(crossed) >= 2, message="two crossings")
    # every batch is taken, and a crossing is written with its batch: none more is coming
    ingest = subjects.stream_name(StreamKind.INGEST)
    await wait_for(lambda: drained(js, ingest, "tracking-metrics"), message="batches taken")
    assert await _crossings_written(database_url, run_uuid) == 2
    await sub.unsubscribe()
    assert [(c.run_uuid, c.step, c.value) for c in crossed] == [
        (run_uuid, 2, 8.0),  # 6, 7, 8: the third point over 5
        (run_uuid, 8, 6.0),  # 1 cleared it; 6, 6, 6 crossed again
    ]
    assert all(c.rule_id == rule.id and c.threshold == 5 for c in crossed)


async def test_a_rule_with_tags_watches_only_runs_created_with_them(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    spec = AlertRuleSpec(
        project="acme/tagged", metric="loss", comparison="gt", threshold=5, tags=["nightly", "gpu"]
    )
    rule = await rpc.call(nats_client, subjects, Tracking.create_alert, spec)
    assert rule.tags == ["gpu", "nightly"]

    crossed: list[MetricCrossed] = []

    async def on_event(msg):
        crossed.append(CATALOG.decode(msg.data).data)

    sub = await nats_client.subscribe(subjects.event("metric.crossed"), cb=on_event)
    watched = await create_run(js, subjects, "acme/tagged", tags=["gpu", "nightly", "big"])
    partly = await create_run(js, subjects, "acme/tagged", tags=["nightly"])
    untagged = await create_run(js, subjects, "acme/tagged")
    for run_uuid in (partly, untagged, watched):  # the watched run last: crossings come in order
        await send(js, subjects, run_uuid, points(run_uuid, [9]))
        await wait_for(lambda r=run_uuid: _stored(database_url, r, 1), message="stored")
    # the outbox relays crossings in commit order and the watched run's batch was stored last:
    # a crossing of another run would have arrived before it
    await wait_for(lambda: len(crossed) >= 1, message="a crossing")
    await sub.unsubscribe()
    assert [(c.run_uuid, c.rule_id) for c in crossed] == [(watched, rule.id)]


async def test_a_deleted_rule_is_gone_and_deleting_it_again_is_not_found(tracking, nats_client):
    subjects = tracking.subjects
    spec = AlertRuleSpec(project="acme/demo", metric="acc", comparison="lt", threshold=0.5)
    rule = await rpc.call(nats_client, subjects, Tracking.create_alert, spec)
    delete = DeleteAlertRule(project="acme/demo", id=rule.id)
    left = await rpc.call(nats_client, subjects, Tracking.delete_alert, delete)
    assert left.rules == []
    with pytest.raises(RemoteError, match=f"alert rule {rule.id} does not exist") as gone:
        await rpc.call(nats_client, subjects, Tracking.delete_alert, delete)
    assert gone.value.code is ErrorCode.NOT_FOUND


async def test_a_nan_rule_fires_once_per_excursion_and_the_event_carries_the_nan(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    spec = AlertRuleSpec(project="acme/nan", metric="loss", comparison="is_nan")
    rule = await rpc.call(nats_client, subjects, Tracking.create_alert, spec)
    assert (rule.comparison, rule.threshold) == ("is_nan", None)
    raw: list[bytes] = []

    async def on_event(msg):
        raw.append(msg.data)

    sub = await nats_client.subscribe(subjects.event("metric.crossed"), cb=on_event)
    run_uuid = await create_run(js, subjects, "acme/nan")
    await send(js, subjects, run_uuid, points(run_uuid, [1.0, "NaN", "NaN", "Infinity", "NaN"]))
    await wait_for(lambda: _stored(database_url, run_uuid, 5), message="stored")
    ingest = subjects.stream_name(StreamKind.INGEST)
    await wait_for(lambda: drained(js, ingest, "tracking-metrics"), message="batches taken")
    assert await _crossings_written(database_url, run_uuid) == 2  # step 1, then again at 4
    await wait_for(lambda: len(raw) >= 2, message="two crossings")
    await sub.unsubscribe()
    assert [json.loads(r)["data"]["value"] for r in raw] == ["NaN", "NaN"]
    crossed = [CATALOG.decode(r).data for r in raw]
    assert [(c.step, c.comparison, c.threshold) for c in crossed] == [
        (1, "is_nan", None),
        (4, "is_nan", None),
    ]


async def test_a_value_check_with_a_threshold_is_invalid(tracking, nats_client):
    request = {"project": "acme/demo", "metric": "loss", "comparison": "is_inf", "threshold": 1}
    reply = await nats_client.request(
        tracking.subjects.rpc("tracking", "create_alert"), json.dumps(request).encode()
    )
    answer = json.loads(reply.data)
    assert answer["ok"] is False
    assert answer["code"] == "invalid"
    assert "takes no threshold" in answer["message"]
