"""Trace batches on real NATS and PostgreSQL: merged by id in event-time order, stored once."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import (
    GetSession,
    GetTrace,
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
    TraceDetail,
)
from axonal_events.traces import (
    ExperimentLink,
    ObservationRecord,
    ScoreRecord,
    TraceBatch,
    TraceRecord,
)
from axonal_testing.bus import drained, read_stream
from axonal_testing.waiting import wait_for
from axonal_tracking.traces import store
from axonal_tracking.traces.ingest import store_batch
from axonal_tracking.traces.wire import decode_trace_batch

PROJECT = "0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"
T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def batch(**records) -> TraceBatch:
    return TraceBatch(project_id=PROJECT, project="acme/llm", received_at=T0, **records)


async def publish(js, subjects, data: TraceBatch | bytes) -> None:
    payload = data if isinstance(data, bytes) else data.model_dump_json(exclude_none=True).encode()
    headers = {"Nats-Msg-Id": uuid.uuid4().hex}
    await js.publish(subjects.ingest(f"traces.{PROJECT}"), payload, headers=headers)


async def detail(nc, subjects, trace_id: str, observations: int = 0) -> TraceDetail:
    request = GetTrace(project_id=PROJECT, id=trace_id)

    async def stored():
        try:
            found = await rpc.call(nc, subjects, Tracking.get_trace, request)
        except RemoteError as exc:
            if exc.code is not ErrorCode.NOT_FOUND:
                raise
            return None  # not stored yet
        return found if len(found.observations) >= observations else None

    return await wait_for(stored, timeout=20, message=f"trace {trace_id} stored")


async def trace_events(js, subjects, count: int) -> list[dict]:
    """The ``trace.ingested`` events once there are ``count`` of them."""

    async def enough():
        found = await read_stream(
            js, subjects.stream_name(StreamKind.EVENTS), subjects.event("trace.ingested")
        )
        return found if len(found) >= count else None

    found = await wait_for(enough, timeout=20, message=f"{count} trace.ingested events")
    return [json.loads(data) for _, data, _ in found]


async def table_counts(database_url):
    conn = await connect(database_url)
    try:
        return {
            t: await conn.fetchval(f"SELECT count(*) FROM tracking.{t}")
            for t in ("traces", "observations", "scores", "sessions")
        } | {"updated": await conn.fetchval("SELECT max(updated_at) FROM tracking.observations")}
    finally:
        await conn.close()


async def test_records_merge_by_event_time_and_a_redelivered_batch_changes_nothing(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    trace_id = uuid.uuid4().hex
    first = batch(
        traces=[
            TraceRecord(
                id=trace_id, event_time=at(5), name="new-name", tags=["b"], metadata={"k": 2}
            ),
            TraceRecord(
                id=trace_id,
                event_time=at(1),
                timestamp=at(1),
                name="old-name",
                user_id="u",
                session_id="s-1",
                tags=["a"],
                metadata={"k": 1, "j": 1},
                input={"question": "2+2?"},
            ),
        ],
        observations=[
            ObservationRecord(
                id="o1",
                trace_id=trace_id,
                type="GENERATION",
                event_time=at(1),
                start_time=at(1),
                model="gpt-4o-mini",
                name="llm",
                usage_details={"input": 1000, "output": 100},
                input=[{"role": "user", "content": "2+2?"}],
            ),
            ObservationRecord(
                id="o2",
                trace_id=trace_id,
                type="GENERATION",
                event_time=at(1),
                start_time=at(2),
                model="gpt-4o-mini",
                name="paid",
                usage_details={"input": 10},
                cost_details={"input": 0.5},
            ),
        ],
        scores=[ScoreRecord(id="s1", event_time=at(3), name="q", value=1.0, trace_id=trace_id)],
    )
    await publish(js, subjects, first)
    found = await detail(nats_client, subjects, trace_id, observations=2)
    trace = found.trace
    assert trace.name == "new-name"  # the later event wins whatever the arrival order
    assert trace.tags == ["a", "b"]
    assert trace.metadata == {"k": 2, "j": 1}
    assert (trace.user_id, trace.session_id, trace.timestamp) == ("u", "s-1", at(1))
    llm, paid = found.observations
    assert llm.cost_source == "computed"
    assert llm.cost_details["input"] == 1000 * 0.15e-6
    assert llm.usage_details == {"input": 1000, "output": 100, "total": 1100}
    assert (paid.cost_source, paid.cost_details) == ("client", {"input": 0.5, "total": 0.5})
    assert trace.total_cost == llm.cost_details["total"] + 0.5
    assert [s.name for s in found.scores] == ["q"]

    ingested = await trace_events(js, subjects, 1)
    assert ingested[0]["data"] == {
        "project_id": PROJECT,
        "traces": [
            {
                "trace_id": trace_id,
                "trace_changed": True,
                "observations": 2,
                "scores": 1,
                "experiment_observations": 0,
            }
        ],
    }
    before = await table_counts(database_url)
    await publish(js, subjects, first)  # redelivered / re-sent: nothing changes
    # an older update arriving late sets only what was unset; a newer one overwrites
    for obs_id, at_seconds, fields in (
        ("o1", 0.5, {"output": "older"}),
        ("o2", 9, {"end_time": at(10), "level": "ERROR"}),
    ):
        update = ObservationRecord(
            id=obs_id, trace_id=trace_id, type="GENERATION", event_time=at(at_seconds), **fields
        )
        await publish(js, subjects, batch(observations=[update]))

    stream = subjects.stream_name(StreamKind.INGEST)
    await wait_for(lambda: drained(js, stream, "tracking-traces"), message="every batch merged")
    found = await detail(nats_client, subjects, trace_id, observations=2)
    later = [e["data"] for e in await trace_events(js, subjects, 3)]
    assert (
        later[1:]
        == [  # nothing for the redelivered batch; one per later change
            {
                "project_id": PROJECT,
                "traces": [
                    {
                        "trace_id": trace_id,
                        "trace_changed": False,
                        "observations": 1,
                        "scores": 0,
                        "experiment_observations": 0,
                    }
                ],
            },
        ]
        * 2
    )
    after = await table_counts(database_url)
    assert (
        {k: after[k] for k in ("traces", "observations", "scores", "sessions")}
        == {
            "traces": 1,
            "observations": 2,
            "scores": 1,
            "sessions": 1,
        }
        == {k: before[k] for k in ("traces", "observations", "scores", "sessions")}
    )
    assert found.observations[0].output == "older"
    # kept through a later merge (a row's input and output are stored once, not in its state)
    assert found.observations[0].input == [{"role": "user", "content": "2+2?"}]
    assert found.trace.input == {"question": "2+2?"}
    assert found.observations[1].end_time == at(10)

    page = await rpc.call(
        nats_client,
        subjects,
        Tracking.list_traces,
        ListTraces(project_id=PROJECT, user_id="u", tags=["a"]),
    )
    assert [t.id for t in page.data] == [trace_id]
    assert page.meta.total_items == 1
    none = await rpc.call(
        nats_client,
        subjects,
        Tracking.list_traces,
        ListTraces(project_id=PROJECT, tags=["zzz"]),
    )
    assert none.data == []
    sessions = await rpc.call(
        nats_client, subjects, Tracking.list_sessions, ListSessions(project_id=PROJECT)
    )
    assert [(s.id, s.trace_ids) for s in sessions.data] == [("s-1", [trace_id])]
    first_page = await rpc.call(
        nats_client,
        subjects,
        Tracking.list_observations,
        ListObservations(project_id=PROJECT, limit=1, session_id="s-1"),
    )
    assert [o.id for o in first_page.data] == ["o2"]
    second = await rpc.call(
        nats_client,
        subjects,
        Tracking.list_observations,
        ListObservations(project_id=PROJECT, limit=1, cursor=first_page.cursor),
    )
    assert [o.id for o in second.data] == ["o1"]
    assert second.cursor is None
    scores = await rpc.call(
        nats_client,
        subjects,
        Tracking.list_scores,
        ListScores(project_id=PROJECT, trace_id=trace_id),
    )
    assert [s.id for s in scores.data] == ["s1"]


async def test_unknown_traces_and_sessions_are_not_found_and_a_bad_cursor_is_invalid(
    tracking, nats_client
):
    subjects = tracking.subjects
    missing = [
        (Tracking.get_trace, GetTrace(project_id=PROJECT, id="nope"), "trace nope"),
        (Tracking.get_session, GetSession(project_id=PROJECT, id="nope"), "session nope"),
    ]
    for method, request, what in missing:
        with pytest.raises(RemoteError, match=f"{what} does not exist") as raised:
            await rpc.call(nats_client, subjects, method, request)
        assert raised.value.code is ErrorCode.NOT_FOUND
    bad_cursor = [
        (Tracking.list_observations, ListObservations(project_id=PROJECT, cursor="x")),
        (Tracking.list_scores, ListScores(project_id=PROJECT, cursor="x")),
    ]
    for method, request in bad_cursor:
        with pytest.raises(RemoteError, match="not a cursor") as raised:
            await rpc.call(nats_client, subjects, method, request)
        assert raised.value.code is ErrorCode.INVALID


async def test_a_malformed_batch_goes_to_the_dlq(tracking, nats_client):
    js, subjects = nats_client.jetstream(), tracking.subjects
    await publish(js, subjects, json.dumps({"project_id": PROJECT, "traces": "x"}).encode())

    async def dead():
        return await read_stream(js, subjects.stream_name(StreamKind.DLQ))

    [(_, _, headers)] = await wait_for(dead, timeout=20, message="dead-lettered")
    assert "not a trace batch" in headers["Axonal-Dlq-Reason"], headers


async def test_rows_are_sent_in_the_order_of_each_tables_row_type(tracking, database_url):
    conn = await connect(database_url)
    try:
        for table, columns in store.COLUMNS.items():
            found = await conn.fetch(
                "SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0"
                " AND NOT attisdropped ORDER BY attnum",
                f"tracking.{table}",
            )
            added = store.ADDED.get(table, ())
            assert tuple(r["attname"] for r in found) == (*columns, *store.ROW_TAIL, *added)
    finally:
        await conn.close()


async def test_one_event_lists_every_trace_a_batch_changed(tracking, nats_client):
    """Each trace with what changed; the observations an experiment ran counted apart (the
    evaluation service reads only those traces to link dataset runs)."""
    js, subjects = nats_client.jetstream(), tracking.subjects
    run = ExperimentLink(id="run-1", name="baseline", dataset_id="ds-1", item_id="item-1")
    ids = sorted(uuid.uuid4().hex for _ in range(3))
    await publish(
        js,
        subjects,
        batch(
            traces=[TraceRecord(id=ids[0], event_time=at(1), name="a")],
            observations=[
                ObservationRecord(id=f"o-{i}-{n}", trace_id=i, event_time=at(1))
                for i in ids[1:]
                for n in range(2)
            ]
            + [ObservationRecord(id="o-run", trace_id=ids[2], event_time=at(1), experiment=run)],
        ),
    )
    (event,) = await trace_events(js, subjects, 1)
    counts = {"trace_changed": False, "scores": 0}
    assert event["data"]["traces"] == [
        {"trace_id": ids[0], "trace_changed": True, "observations": 0, "scores": 0,
         "experiment_observations": 0},
        {"trace_id": ids[1], **counts, "observations": 2, "experiment_observations": 0},
        {"trace_id": ids[2], **counts, "observations": 3, "experiment_observations": 1},
    ]  # fmt: skip


async def test_concurrent_writers_of_the_same_ids_merge_in_turn(tracking, database_url):
    """A second writer of ids the first is inserting waits for its commit, then merges with
    what it stored: nothing is lost."""
    ids = sorted(uuid.uuid4().hex for _ in range(3))

    def received(names, seconds: float):
        records = [TraceRecord(id=i, event_time=at(seconds), **{k: v}) for i, (k, v) in names]
        raw = batch(traces=records).model_dump_json(exclude_none=True).encode()
        return decode_trace_batch(raw)

    first = received([(i, ("name", "first")) for i in ids], 1)
    second = received([(i, ("user_id", "u")) for i in reversed(ids)], 2)
    one = await connect(database_url, schema="tracking")
    two = await connect(database_url, schema="tracking")
    try:
        async with one.transaction():
            await store_batch(one, first)
            waiting = asyncio.create_task(_in_transaction(two, second))
            await wait_for(lambda: _waits_on_a_lock(one, two), message="second writer waits")
        [event] = await asyncio.wait_for(waiting, 10)
        assert [t.trace_id for t in event.traces] == ids
        rows = await one.fetch(
            "SELECT id, name, user_id FROM traces WHERE id = ANY($1) ORDER BY id", ids
        )
        assert [tuple(r) for r in rows] == [(i, "first", "u") for i in ids]
    finally:
        await one.close()
        await two.close()


async def _in_transaction(conn, received):
    async with conn.transaction():
        return await store_batch(conn, received)


async def _waits_on_a_lock(observer, conn) -> bool:
    return await observer.fetchval(
        "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $1",
        conn.get_server_pid(),
    )
