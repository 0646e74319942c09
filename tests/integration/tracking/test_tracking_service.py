"""Metric batches stored once, queried as downsampled series; bad batches to the DLQ."""

import json
import math

import pytest

from axonal_bus import rpc
from axonal_bus.outbox import event_headers
from axonal_db import connect
from axonal_events import RunStatus, StreamKind
from axonal_events.metrics import ReadLatest, ReadSeries
from axonal_events.rpcs import Tracking
from axonal_testing.bus import read_stream
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

from .conftest import batch, create_run, send


async def stored(database_url, run_uuid):
    conn = await connect(database_url)
    try:
        return await conn.fetchval(
            "SELECT count(*) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
        )
    finally:
        await conn.close()


async def series(nats_client, subjects, request):
    return await rpc.call(nats_client, subjects, Tracking.series, request)


async def test_points_are_stored_once_and_read_back_downsampled(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    run_uuid = await create_run(js, subjects)
    await send(js, subjects, run_uuid, batch(run_uuid, "loss", range(5000)))
    await send(js, subjects, run_uuid, batch(run_uuid, "loss", range(5000, 10000)))
    await send(js, subjects, run_uuid, batch(run_uuid, "acc", range(10)))
    await send(js, subjects, run_uuid, batch(run_uuid, "sparse", [0, 10**6, 2 * 10**6]))
    # the same points again under another message id (a re-send): nothing new is stored
    await send(js, subjects, run_uuid, batch(run_uuid, "loss", range(5000), value=-1.0))
    await wait_for(lambda: _count_is(database_url, run_uuid, 10013), message="10,013 points")

    found = await series(nats_client, subjects, ReadSeries(run_uuids=[run_uuid], points=100))
    by_name = {s.name: s for s in found.series}
    loss, acc = by_name["loss"], by_name["acc"]
    assert (loss.total, len(loss.points)) == (10000, 100)
    assert loss.points[-1].step == 9999
    assert loss.points[-1].value == 9999.0  # the last point of the last bucket
    assert loss.points[0].min == 0.0  # the first value, not the re-sent -1.0
    assert all(p.min <= p.value <= p.max for p in loss.points)
    assert [p.step for p in acc.points] == list(range(10))  # small series come back whole
    sparse = by_name["sparse"]  # steps far apart: each its own bucket, nothing merged
    assert sparse.total == 3
    assert [(p.step, p.min, p.max) for p in sparse.points] == [
        (s, float(s), float(s)) for s in (0, 10**6, 2 * 10**6)
    ]
    assert [s.name for s in found.series] == ["acc", "loss", "sparse"]

    latest = await rpc.call(
        nats_client, subjects, Tracking.latest, ReadLatest(run_uuids=[run_uuid])
    )
    assert latest.values == {run_uuid: {"loss": 9999.0, "acc": 9.0, "sparse": 2e6}}


async def test_a_step_range_is_read_at_the_resolution_asked_for(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    run_uuid = await create_run(js, subjects)
    for start in range(0, 100_000, 10_000):
        await send(js, subjects, run_uuid, batch(run_uuid, "loss", range(start, start + 10_000)))
    await wait_for(lambda: _count_is(database_url, run_uuid, 100_000), message="100,000 points")

    def read(**fields):
        return series(nats_client, subjects, ReadSeries(run_uuids=[run_uuid], **fields))

    [overview] = (await read(points=1000)).series
    assert (overview.total, len(overview.points)) == (100_000, 1000)
    assert all(p.at is not None for p in overview.points)  # each bucket's last step's time
    [zoomed] = (await read(points=1000, first_step=40_000, last_step=41_999)).series
    assert (zoomed.total, len(zoomed.points)) == (2000, 1000)
    assert zoomed.points[0].min == 40_000.0
    assert zoomed.points[-1].step == 41_999
    [fine] = (await read(points=1000, first_step=40_000, last_step=40_499)).series
    assert [p.step for p in fine.points] == list(range(40_000, 40_500))  # whole: every step
    [past] = (await read(first_step=200_000)).series
    assert (past.total, past.points) == (0, [])


def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


async def test_nan_and_infinities_are_stored_and_read_back_as_such(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    run_uuid = await create_run(js, subjects)
    at = "2026-01-01T00:00:00Z"
    # steps 0-99: one NaN at 10, +inf at 20, -inf at 30; steps 100-109 all NaN
    values = {10: "NaN", 20: "Infinity", 30: "-Infinity"} | dict.fromkeys(range(100, 110), "NaN")
    points = [
        {"name": "loss", "step": s, "value": values.get(s, s / 10), "at": at} for s in range(110)
    ]
    await send(
        js, subjects, run_uuid, json.dumps({"run_uuid": run_uuid, "points": points}).encode()
    )
    await wait_for(lambda: _count_is(database_url, run_uuid, 110), message="110 points")

    whole = await series(nats_client, subjects, ReadSeries(run_uuids=[run_uuid], points=200))
    got = [(p.step, p.value) for p in whole.series[0].points]
    assert all(same(v, float(values.get(s, s / 10))) for s, v in got)
    assert [p.nans for p in whole.series[0].points] == [
        int(s in (10, *range(100, 110))) for s in range(110)
    ]

    found = await series(nats_client, subjects, ReadSeries(run_uuids=[run_uuid], points=11))
    buckets = {p.step: p for p in found.series[0].points}  # ten steps each, by their last step
    assert (buckets[19].min, buckets[19].max, buckets[19].nans) == (1.1, 1.9, 1)  # NaN left out
    assert (buckets[29].max, buckets[39].min) == (math.inf, -math.inf)
    last = buckets[109]
    assert all(math.isnan(v) for v in (last.value, last.min, last.max))
    assert last.nans == 10

    latest = await rpc.call(
        nats_client, subjects, Tracking.latest, ReadLatest(run_uuids=[run_uuid])
    )
    assert math.isnan(latest.values[run_uuid]["loss"])
    raw = await nats_client.request(
        subjects.rpc("tracking", "latest"),
        ReadLatest(run_uuids=[run_uuid]).model_dump_json().encode(),
    )
    assert json.loads(raw.data) == {"ok": True, "result": {"values": {run_uuid: {"loss": "NaN"}}}}


async def _count_is(database_url, run_uuid, expected):
    return await stored(database_url, run_uuid) == expected


async def test_points_that_arrive_before_their_run_wait_for_it(tracking, nats_client, database_url):
    js, subjects = nats_client.jetstream(), tracking.subjects
    created = run_event(RunStatus.CREATED)
    run_uuid = created.data.run_uuid
    await send(js, subjects, run_uuid, batch(run_uuid, "loss", range(3)))
    await js.publish(
        subjects.event(created.event_type), created.to_json(), headers=event_headers(created)
    )
    await wait_for(lambda: _count_is(database_url, run_uuid, 3), timeout=20, message="stored")


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"not json", "not a metric batch"),
        (b'{"run_uuid": "x", "points": []}', "run_uuid"),
        (None, "points.0.value"),
        ("huge", "name"),
        ("wrong type", "points.0.step"),
    ],
    ids=["not-json", "bad-run", "no-number", "huge-name", "wrong-type"],
)
async def test_a_malformed_batch_goes_to_the_dlq_and_the_consumer_goes_on(
    payload, reason, tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    run_uuid = await create_run(js, subjects)
    point = {"name": "loss", "step": 1, "value": 1.0, "at": "2026-01-01T00:00:00Z"}
    if payload is None:
        payload = f'{{"run_uuid": "{run_uuid}", "points": [{{"name": "loss", "step": 1, '
        payload = (payload + '"value": "lots", "at": "2026-01-01T00:00:00Z"}]}').encode()
    elif payload == "huge":
        payload = json.dumps({"run_uuid": run_uuid, "points": [{**point, "name": "x" * 100_000}]})
        payload = payload.encode()
    elif payload == "wrong type":
        payload = json.dumps({"run_uuid": run_uuid, "points": [{**point, "step": "one"}]})
        payload = payload.encode()
    await send(js, subjects, run_uuid, payload)
    await send(js, subjects, run_uuid, batch(run_uuid, "loss", range(5)))
    await wait_for(lambda: _count_is(database_url, run_uuid, 5), message="the next batch stored")

    async def dead():
        return await read_stream(js, subjects.stream_name(StreamKind.DLQ))

    [(_, data, headers)] = await wait_for(dead, message="dead-lettered")
    assert data == payload
    assert reason in headers["Axonal-Dlq-Reason"], headers
