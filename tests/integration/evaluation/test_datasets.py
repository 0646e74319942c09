"""Datasets over RPC on a real NATS and PostgreSQL: items versioned and read as of a time,
JSON Schemas enforced naming the path, item ids the project's; runs linked from ingested
traces (tracking answered by a stand-in), stored once however often announced; run items,
experiments and their cursors; runs compared."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from axonal_bus.errors import RemoteError
from axonal_bus.outbox import event_headers
from axonal_events import ErrorCode, new_event
from axonal_events.catalog.traces import IngestedTrace, TraceIngested
from axonal_events.datasets import (
    CompareRuns,
    CreateDataset,
    CreateRunItem,
    DeleteDatasetItem,
    DeleteDatasetRun,
    GetDataset,
    GetDatasetItem,
    GetDatasetRun,
    ListDatasetItems,
    ListDatasetRuns,
    ListDatasets,
    ListExperimentItems,
    ListExperiments,
    ListRunItems,
    UpsertDatasetItem,
)
from axonal_events.rpcs import Evaluation, Tracking
from axonal_events.trace_reads import ObservationView, ScoreView, TraceDetail, TraceView
from axonal_events.traces import ExperimentLink
from axonal_testing.waiting import wait_for
from axonal_traces.experiments import experiment_id

P = "project-1"
SCHEMA = {"type": "object", "required": ["q"], "properties": {"q": {"type": "string"}}}


async def refused(call, method: Any, payload: Any) -> RemoteError:
    with pytest.raises(RemoteError) as caught:
        await call(method, payload)
    return caught.value


def item(dataset: str = "qa", **fields: Any) -> UpsertDatasetItem:
    return UpsertDatasetItem(project_id=P, dataset_name=dataset, **fields)


async def test_items_are_versioned_and_read_as_of_a_time(call):
    created = await call(Evaluation.create_dataset, CreateDataset(
        project_id=P, name="qa", description="questions", input_schema=SCHEMA
    ))  # fmt: skip
    again = await call(Evaluation.create_dataset, CreateDataset(project_id=P, name="qa"))
    assert again.id == created.id
    assert again.description == "questions"
    first = await call(Evaluation.upsert_dataset_item, item(id="a", input={"q": "1+1"},
                                                           expected_output="2"))  # fmt: skip
    other = await call(Evaluation.upsert_dataset_item, item(input={"q": "2+2"}))
    assert other.id  # a new id when none is given
    before = other.version  # the dataset as of the last write before the fix
    fixed = await call(Evaluation.upsert_dataset_item, item(id="a", expected_output="two"))
    assert fixed.input == {"q": "1+1"}  # kept: the upsert left it out
    assert fixed.created_at == first.created_at
    assert fixed.version > first.version

    def listing(**fields: Any) -> ListDatasetItems:
        return ListDatasetItems(project_id=P, dataset_name="qa", **fields)

    now = await call(Evaluation.list_dataset_items, listing())
    assert {i.id: i.expected_output for i in now.data} == {"a": "two", other.id: None}
    then = await call(Evaluation.list_dataset_items, listing(version=before))
    assert {i.id: i.expected_output for i in then.data} == {"a": "2", other.id: None}
    early = await call(Evaluation.list_dataset_items, listing(version=before - timedelta(days=1)))
    assert early.data == []

    deleted = await call(Evaluation.delete_dataset_item, DeleteDatasetItem(project_id=P, id="a"))
    assert "deleted" in deleted.message
    gone = await refused(call, Evaluation.get_dataset_item, GetDatasetItem(project_id=P, id="a"))
    assert gone.code == ErrorCode.NOT_FOUND
    after = await call(Evaluation.list_dataset_items, listing())
    assert [i.id for i in after.data] == [other.id]
    still = await call(Evaluation.list_dataset_items, listing(version=before))
    assert {i.id for i in still.data} == {"a", other.id}
    back = await call(Evaluation.upsert_dataset_item, item(id="a", input={"q": "3"}))
    assert back.input == {"q": "3"}
    assert back.expected_output is None  # a deleted item comes back new

    archived = await call(Evaluation.upsert_dataset_item, item(id="a", status="ARCHIVED"))
    assert archived.status == "ARCHIVED"
    page = await call(Evaluation.list_datasets, ListDatasets(project_id=P, limit=1))
    assert page.meta.total_items == 1


async def test_schemas_and_ids_are_enforced_naming_the_field(call):
    await call(Evaluation.create_dataset, CreateDataset(project_id=P, name="qa",
                                                        input_schema=SCHEMA))  # fmt: skip
    await call(Evaluation.create_dataset, CreateDataset(project_id=P, name="other"))
    bad = await refused(call, Evaluation.upsert_dataset_item, item(input={"q": 7}))
    assert bad.code == ErrorCode.INVALID
    assert bad.remote_message == "input.q: 7 is not of type 'string'"
    bad_schema = await refused(call, Evaluation.create_dataset, CreateDataset(
        project_id=P, name="x", expected_output_schema={"type": "nope"}
    ))  # fmt: skip
    assert "expectedOutputSchema is not a valid JSON Schema" in bad_schema.remote_message
    await call(Evaluation.upsert_dataset_item, item("other", id="shared", input="free text"))
    taken = await refused(call, Evaluation.upsert_dataset_item, item(id="shared", input={"q": "1"}))
    assert taken.remote_message == "id: dataset item shared belongs to another dataset"
    stricter = await refused(call, Evaluation.create_dataset, CreateDataset(
        project_id=P, name="other", input_schema=SCHEMA
    ))  # fmt: skip
    assert stricter.remote_message.startswith("dataset item shared does not match")
    missing = await refused(call, Evaluation.upsert_dataset_item, item("nope", input={}))
    assert missing.code == ErrorCode.NOT_FOUND
    unknown = await refused(call, Evaluation.get_dataset, GetDataset(project_id=P, name="nope"))
    assert unknown.code == ErrorCode.NOT_FOUND


T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _detail(trace_id: str, run_name: str, dataset_id: str, item_id: str, output: str,
            score: float, run_id: str | None = None) -> TraceDetail:  # fmt: skip
    link = ExperimentLink(
        id=run_id or experiment_id(P, dataset_id, run_name), name=run_name, dataset_id=dataset_id,
        item_id=item_id, item_root_observation_id=f"{trace_id}-task",
    )  # fmt: skip
    obs = ObservationView(
        id=f"{trace_id}-root", project_id=P, trace_id=trace_id, type="SPAN", start_time=T0,
        end_time=T0 + timedelta(seconds=2), created_at=T0, updated_at=T0, experiment=link,
        environment="sdk-experiment",
    )  # fmt: skip
    trace = TraceView(id=trace_id, project_id=P, timestamp=T0, output=output, created_at=T0,
                      updated_at=T0, latency=2.0, total_cost=0.5)  # fmt: skip
    scores = [ScoreView(
        id=f"{trace_id}-s", project_id=P, name="exact", data_type="NUMERIC", value=score,
        source="API", trace_id=trace_id, timestamp=T0, created_at=T0, updated_at=T0,
    )]  # fmt: skip
    return TraceDetail(trace=trace, observations=[obs], scores=scores)


async def _tracking_stand_in(nats_client, subjects, traces: dict[str, TraceDetail]):
    async def answer(msg):
        trace_id = Tracking.get_trace.request.model_validate_json(msg.data).id
        found = traces.get(trace_id)
        if found is None:
            body = b'{"ok":false,"code":"not_found","message":"no trace"}'
        else:
            body = b'{"ok":true,"result":' + found.model_dump_json().encode() + b"}"
        await msg.respond(body)

    return await nats_client.subscribe(Tracking.get_trace.subject(subjects), cb=answer)


async def _announce(nats_client, subjects, trace_ids: list[str]) -> None:
    data = TraceIngested(project_id=P, traces=[
        IngestedTrace(
            trace_id=t, trace_changed=True, observations=1, scores=1, experiment_observations=1
        )
        for t in trace_ids
    ])  # fmt: skip
    event = new_event(data, source="/tests", project=P)
    await nats_client.jetstream().publish(
        subjects.event("trace.ingested"), event.to_json(), headers=event_headers(event)
    )


async def test_runs_are_linked_from_ingested_traces_listed_and_compared(
    call, evaluation, nats_client
):
    dataset = await call(Evaluation.create_dataset, CreateDataset(project_id=P, name="qa"))
    for item_id, question in (("a", "1+1"), ("b", "2+2")):
        await call(Evaluation.upsert_dataset_item, item(id=item_id, input={"q": question}))
    traces = {
        "t1": _detail("t1", "good", dataset.id, "a", "2", 1.0),
        "t2": _detail("t2", "good", dataset.id, "b", "4", 1.0),
        "t3": _detail("t3", "bad", dataset.id, "a", "3", 0.0),
        "t4": _detail("t4", "stray", "not-a-dataset", "a", "x", 0.0),
    }
    await _tracking_stand_in(nats_client, evaluation.subjects, traces)
    await _announce(nats_client, evaluation.subjects, ["t1", "t2", "t3", "t4", "unknown"])
    await _announce(nats_client, evaluation.subjects, ["t1"])  # announced again: stored once
    runs_of = ListDatasetRuns(project_id=P, dataset_name="qa")

    async def linked():
        found = await call(Evaluation.list_dataset_runs, runs_of)
        return found if found.meta.total_items == 2 else None

    runs = await wait_for(linked, message="both runs linked")
    assert {r.name for r in runs.data} == {"good", "bad"}
    good = await call(Evaluation.get_dataset_run, GetDatasetRun(
        project_id=P, dataset_name="qa", run_name="good"
    ))  # fmt: skip
    assert good.run.id == experiment_id(P, dataset.id, "good")
    assert sorted((i.dataset_item_id, i.trace_id) for i in good.items) == [("a", "t1"), ("b", "t2")]
    assert {i.observation_id for i in good.items} == {"t1-task", "t2-task"}
    page = await call(Evaluation.list_run_items, ListRunItems(
        project_id=P, dataset_id=dataset.id, run_name="good", limit=1
    ))  # fmt: skip
    assert (len(page.data), page.meta.total_items) == (1, 2)

    since = T0 - timedelta(days=1)
    first = await call(Evaluation.list_experiments, ListExperiments(
        project_id=P, from_start_time=since, limit=1
    ))  # fmt: skip
    assert first.cursor is not None
    second = await call(Evaluation.list_experiments, ListExperiments(
        project_id=P, from_start_time=since, limit=1, cursor=first.cursor
    ))  # fmt: skip
    assert second.cursor is None
    summaries = [*first.data, *second.data]
    assert sorted((s.run.name, s.item_count) for s in summaries) == [("bad", 1), ("good", 2)]
    items = await call(Evaluation.list_experiment_items, ListExperimentItems(
        project_id=P, from_start_time=since, experiment_name="good"
    ))  # fmt: skip
    assert {i.environment for i in items.data} == {"sdk-experiment"}
    assert [r.name for r in items.runs] == ["good"]
    bad_cursor = await refused(call, Evaluation.list_experiments, ListExperiments(
        project_id=P, from_start_time=since, cursor="nope"
    ))  # fmt: skip
    assert bad_cursor.code == ErrorCode.INVALID

    comparison = await call(Evaluation.compare_runs, CompareRuns(
        project_id=P, runs=["good", "bad"], dataset_name="qa"
    ))  # fmt: skip
    assert [r.dataset_item_id for r in comparison.rows] == ["a", "b"]
    a, b = comparison.rows
    assert a.input == {"q": "1+1"}
    assert [(c.output, c.scores["exact"]) for c in a.cells if c] == [("2", 1.0), ("3", 0.0)]
    assert b.cells[1] is None
    assert [avg["exact"] for avg in comparison.averages] == [1.0, 0.0]

    await call(Evaluation.delete_dataset_run, DeleteDatasetRun(
        project_id=P, dataset_name="qa", run_name="bad"
    ))  # fmt: skip
    after = await call(Evaluation.list_dataset_runs, runs_of)
    assert [r.name for r in after.data] == ["good"]


async def test_a_run_item_posted_by_an_older_sdk_joins_the_same_run(call):
    dataset = await call(Evaluation.create_dataset, CreateDataset(project_id=P, name="qa"))
    await call(Evaluation.upsert_dataset_item, item(id="a", input={"q": "1"}))
    request = CreateRunItem(project_id=P, run_name="v1", dataset_item_id="a", trace_id="t9",
                            run_description="legacy")  # fmt: skip
    created = await call(Evaluation.create_run_item, request)
    again = await call(Evaluation.create_run_item, request)
    assert again.id == created.id
    assert created.dataset_run_id == experiment_id(P, dataset.id, "v1")
    no_trace = await refused(call, Evaluation.create_run_item, CreateRunItem(
        project_id=P, run_name="v1", dataset_item_id="a"
    ))  # fmt: skip
    assert no_trace.remote_message.startswith("traceId:")
    missing = await refused(call, Evaluation.create_run_item, CreateRunItem(
        project_id=P, run_name="v1", dataset_item_id="zz", trace_id="t"
    ))  # fmt: skip
    assert missing.code == ErrorCode.NOT_FOUND


async def test_a_run_name_given_another_id_joins_the_run_of_that_name(
    call, evaluation, nats_client
):
    dataset = await call(Evaluation.create_dataset, CreateDataset(project_id=P, name="qa"))
    await call(Evaluation.upsert_dataset_item, item(id="a", input={"q": "1"}))
    traces = {
        "t1": _detail("t1", "nightly", dataset.id, "a", "1", 1.0),
        "t2": _detail("t2", "nightly", dataset.id, "a", "1", 1.0, run_id="custom-id"),
    }
    await _tracking_stand_in(nats_client, evaluation.subjects, traces)
    await _announce(nats_client, evaluation.subjects, ["t1"])
    await _announce(nats_client, evaluation.subjects, ["t2"])
    run_of = GetDatasetRun(project_id=P, dataset_name="qa", run_name="nightly")

    async def both():
        try:
            found = await call(Evaluation.get_dataset_run, run_of)
        except RemoteError:
            return None
        return found if len(found.items) == 2 else None

    found = await wait_for(both, message="both traces in the one run")
    assert {i.dataset_run_id for i in found.items} == {found.run.id}
    runs_of = ListDatasetRuns(project_id=P, dataset_name="qa")
    assert (await call(Evaluation.list_dataset_runs, runs_of)).meta.total_items == 1
