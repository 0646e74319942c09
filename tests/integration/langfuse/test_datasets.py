"""Datasets and experiments through the unmodified Langfuse SDK: a dataset with a JSON Schema,
items written and versioned, ``get_dataset`` (now and as of an earlier time),
``run_experiment`` with a task and two evaluators; then the dataset run, its items, the
experiments, their traces and scores read back, each answer parsed by the SDK's own models."""

from __future__ import annotations

import uuid

from axonal_testing.waiting import wait_for_sync

from .conftest import LangfuseServer

WRITE = r"""
import json, sys
from langfuse import Evaluation, Langfuse
from langfuse.api import Dataset, DatasetItem, PaginatedDatasetItems, PaginatedDatasets

tag = sys.argv[1]
lf = Langfuse()
name = f"qa/capitals-{tag}"
schema = {"type": "object", "required": ["country"],
          "properties": {"country": {"type": "string"}}}
created = lf.create_dataset(name=name, description="capitals", metadata={"team": "qa"},
                            input_schema=schema)
first = lf.create_dataset_item(dataset_name=name, input={"country": "France"},
                               expected_output="Paris", metadata={"level": 1}, id=f"fr-{tag}")
typo = lf.create_dataset_item(dataset_name=name, input={"country": "Japan"},
                              expected_output="Tokio", id=f"jp-{tag}")
before_fix = typo.updated_at  # an item's version begins then: the dataset as of then
fixed = lf.create_dataset_item(dataset_name=name, input={"country": "Japan"},
                               expected_output="Tokyo", id=f"jp-{tag}")
try:
    lf.create_dataset_item(dataset_name=name, input={"country": 7}, id=f"bad-{tag}")
    refused = None
except Exception as exc:
    refused = [getattr(exc, "status_code", None), str(getattr(exc, "body", exc))]

dataset = lf.get_dataset(name)
old = lf.get_dataset(name, version=before_fix)

def task(*, item, **kwargs):
    return {"France": "Paris", "Japan": "Tokyo"}[item.input["country"]]

def exact(*, output, expected_output, **kwargs):
    return Evaluation(name="exact", value=float(output == expected_output))

def length(*, output, **kwargs):
    return Evaluation(name="length", value=len(output), comment="characters")

def accuracy(*, item_results, **kwargs):
    values = [e.value for r in item_results for e in r.evaluations if e.name == "exact"]
    return Evaluation(name="accuracy", value=sum(values) / len(values))

result = dataset.run_experiment(name="capitals", run_name=f"run-{tag}", task=task,
                                evaluators=[exact, length], run_evaluators=[accuracy],
                                description="first try")
second = dataset.run_experiment(name="capitals", run_name=f"run-b-{tag}",
                                task=lambda *, item, **kw: "Paris", evaluators=[exact])
lf.flush()
listed = lf.api.datasets.list(page=1, limit=100)
items = lf.api.dataset_items.list(dataset_name=name, page=1, limit=50)
lf.shutdown()
print(json.dumps({
    "created": [isinstance(created, Dataset), created.name, created.input_schema],
    "first": [isinstance(first, DatasetItem), first.id, first.status, first.media_references],
    "fixed": [fixed.expected_output, fixed.version > first.version],
    "refused": refused,
    "dataset": [dataset.id, sorted((i.id, i.expected_output) for i in dataset.items)],
    "old": sorted((i.id, i.expected_output) for i in old.items),
    "listed": [isinstance(listed, PaginatedDatasets), name in [d.name for d in listed.data]],
    "items": [isinstance(items, PaginatedDatasetItems), items.meta.total_items],
    "experiment_id": result.experiment_id,
    "second_id": second.experiment_id,
    "results": sorted([r.item.id, r.output, r.trace_id, sorted(e.name for e in r.evaluations)]
                      for r in result.item_results),
}))
"""

READ = r"""
import json, sys
from datetime import datetime, timedelta, timezone
from langfuse import Langfuse
from langfuse.api import ExperimentItemsResponse, ExperimentsResponse

experiment_id, dataset_id = sys.argv[1], sys.argv[2]
lf = Langfuse()
since = datetime.now(timezone.utc) - timedelta(hours=1)
experiments = lf.api.experiments.list(from_start_time=since, id=experiment_id,
                                      fields="metadata,scores")
items = lf.api.experiments.list_items(from_start_time=since, experiment_id=experiment_id,
                                      fields="dataset,io,scores,experimentMetadata")
by_dataset = lf.api.experiments.list(from_start_time=since, dataset_id=dataset_id)
lf.shutdown()
print(json.dumps({
    "experiments": [isinstance(experiments, ExperimentsResponse),
                    [[e.id, e.name, e.item_count, e.dataset_id] for e in experiments.data]],
    "run_scores": [[s.name, s.value] for e in experiments.data for s in e.scores or []],
    "items": [isinstance(items, ExperimentItemsResponse),
              sorted([i.experiment_item_id, i.output, i.expected_output, i.environment,
                      i.experiment_dataset_id, sorted(s.name for s in i.scores or [])]
                     for i in items.data)],
    "by_dataset": [e.id for e in by_dataset.data],
}))
"""


def test_dataset_items_and_an_experiment_round_trip(langfuse: LangfuseServer) -> None:
    tag = uuid.uuid4().hex[:8]
    wrote = langfuse.run_sdk(WRITE, tag)
    name = f"qa/capitals-{tag}"
    assert wrote["created"][:2] == [True, name]
    assert wrote["created"][2]["required"] == ["country"]
    assert wrote["first"] == [True, f"fr-{tag}", "ACTIVE", []]
    assert wrote["fixed"] == ["Tokyo", True]
    status, body = wrote["refused"]
    assert status == 400
    assert "input.country" in body
    assert "is not of type 'string'" in body
    dataset_id, items = wrote["dataset"]
    assert items == [[f"fr-{tag}", "Paris"], [f"jp-{tag}", "Tokyo"]]
    assert wrote["old"] == [[f"fr-{tag}", "Paris"], [f"jp-{tag}", "Tokio"]]
    assert wrote["listed"] == [True, True]
    assert wrote["items"] == [True, 2]
    results = wrote["results"]
    assert [[r[0], r[1], r[3]] for r in results] == [
        [f"fr-{tag}", "Paris", ["exact", "length"]],
        [f"jp-{tag}", "Tokyo", ["exact", "length"]],
    ]
    experiment_id = wrote["experiment_id"]

    # the run is linked from the experiment attributes of the SDK's traces
    def linked() -> dict | None:
        reply = langfuse.http.get(f"/api/public/datasets/{name}/runs/run-{tag}")
        if reply.status_code != 200:
            return None
        found = reply.json()
        return found if len(found["datasetRunItems"]) == 2 else None

    run = wait_for_sync(linked, timeout=60, message="dataset run linked")
    assert run["id"] == experiment_id
    assert run["datasetId"] == dataset_id
    assert run["description"] == "first try"
    traces = {r[2] for r in results}
    assert {i["traceId"] for i in run["datasetRunItems"]} == traces
    assert {i["datasetItemId"] for i in run["datasetRunItems"]} == {f"fr-{tag}", f"jp-{tag}"}

    def both_runs() -> dict | None:  # the second run's traces may be stored a moment later
        found = langfuse.get(f"/api/public/datasets/{name}/runs")
        return found if len(found["data"]) == 2 else None

    runs = wait_for_sync(both_runs, timeout=60, message="both runs linked")
    assert {r["name"] for r in runs["data"]} == {f"run-{tag}", f"run-b-{tag}"}
    run_items = langfuse.get("/api/public/dataset-run-items", datasetId=dataset_id,
                             runName=f"run-{tag}")  # fmt: skip
    assert run_items["meta"]["totalItems"] == 2
    for trace_id in traces:
        trace = langfuse.trace(trace_id, observations=2, scores=2)
        assert sorted(s["name"] for s in trace["scores"]) == ["exact", "length"]

    read = langfuse.run_sdk(READ, experiment_id, dataset_id)
    ok, experiments = read["experiments"]
    assert ok
    assert experiments == [[experiment_id, f"run-{tag}", 2, dataset_id]]
    assert read["run_scores"] == [["accuracy", 1.0]]
    ok, items_read = read["items"]
    assert ok
    assert items_read == [
        [f"fr-{tag}", "Paris", "Paris", "sdk-experiment", dataset_id, ["exact", "length"]],
        [f"jp-{tag}", "Tokyo", "Tokyo", "sdk-experiment", dataset_id, ["exact", "length"]],
    ]
    assert sorted(read["by_dataset"]) == sorted([experiment_id, wrote["second_id"]])

    # the CLI: datasets, items (now and as of before the fix), runs, and the runs compared
    cli = langfuse.stack
    listed = cli.cli_json("datasets", "ls", "-p", "acme/llm")
    assert name in [d["name"] for d in listed]
    now = cli.cli_json("datasets", "items", name, "-p", "acme/llm")
    assert sorted(i["expected_output"] for i in now) == ["Paris", "Tokyo"]
    cli_runs = cli.cli_json("datasets", "runs", name, "-p", "acme/llm")
    assert {r["id"] for r in cli_runs} == {experiment_id, wrote["second_id"]}

    def compared() -> dict | None:
        found = cli.cli_json(
            "experiments", "compare", f"run-{tag}", f"run-b-{tag}", "-d", name, "-p", "acme/llm"
        )
        cells = [c for row in found["rows"] for c in row["cells"]]
        done = len(cells) == 4 and all(c and "exact" in c["scores"] for c in cells)
        return found if done else None

    comparison = wait_for_sync(compared, timeout=60, message="both runs linked and scored")
    assert [r["name"] for r in comparison["runs"]] == [f"run-{tag}", f"run-b-{tag}"]
    by_item = {row["dataset_item_id"]: row for row in comparison["rows"]}
    japan = by_item[f"jp-{tag}"]
    assert japan["input"] == {"country": "Japan"}
    assert [c["output"] for c in japan["cells"]] == ["Tokyo", "Paris"]
    assert [c["scores"]["exact"] for c in japan["cells"]] == [1.0, 0.0]
    assert all(c["latency"] is not None for c in japan["cells"])
    assert [a["exact"] for a in comparison["averages"]] == [1.0, 0.5]
    table = cli.cli("experiments", "compare", f"run-{tag}", f"run-b-{tag}", "-d", name,
                    "-p", "acme/llm")  # fmt: skip
    assert table.returncode == 0, table.stderr
    assert "mean" in table.stdout

    deleted = langfuse.http.delete(f"/api/public/datasets/{name}/runs/run-{tag}")
    assert deleted.status_code == 200, deleted.text
    gone = langfuse.http.get(f"/api/public/datasets/{name}/runs/run-{tag}")
    assert gone.status_code == 404
    assert gone.json()["error"] == "LangfuseNotFoundError"


ITEM_CALLS = r"""
import json, sys
from langfuse import Langfuse
from langfuse.api import DatasetItem, DeleteDatasetItemResponse, PaginatedDatasetItems

tag = sys.argv[1]
lf = Langfuse()
lf.create_dataset(name=f"src-{tag}")
lf.create_dataset_item(dataset_name=f"src-{tag}", input={"q": 1}, source_trace_id=f"tr-{tag}",
                       source_observation_id=f"ob-{tag}", id=f"it-{tag}")
got = lf.api.dataset_items.get(f"it-{tag}")
by_trace = lf.api.dataset_items.list(source_trace_id=f"tr-{tag}")
by_obs = lf.api.dataset_items.list(source_observation_id=f"ob-{tag}")
archived = lf.create_dataset_item(dataset_name=f"src-{tag}", id=f"it-{tag}", status="ARCHIVED")
deleted = lf.api.dataset_items.delete(f"it-{tag}")
try:
    lf.api.dataset_items.get(f"it-{tag}")
    after = None
except Exception as exc:
    after = getattr(exc, "status_code", None)
lf.shutdown()
print(json.dumps({
    "got": [isinstance(got, DatasetItem), got.source_trace_id, got.source_observation_id],
    "by_trace": [isinstance(by_trace, PaginatedDatasetItems), [i.id for i in by_trace.data]],
    "by_obs": [i.id for i in by_obs.data],
    "archived": [archived.status, archived.input],
    "deleted": [isinstance(deleted, DeleteDatasetItemResponse), after],
}))
"""


def test_items_from_traces_archived_and_deleted(langfuse: LangfuseServer) -> None:
    tag = uuid.uuid4().hex[:8]
    found = langfuse.run_sdk(ITEM_CALLS, tag)
    assert found["got"] == [True, f"tr-{tag}", f"ob-{tag}"]
    assert found["by_trace"] == [True, [f"it-{tag}"]]
    assert found["by_obs"] == [f"it-{tag}"]
    assert found["archived"] == ["ARCHIVED", {"q": 1}]
    assert found["deleted"] == [True, 404]


def test_bad_requests_are_refused_naming_the_field(langfuse: LangfuseServer) -> None:
    http = langfuse.http
    not_schema = http.post("/api/public/v2/datasets", json={"name": "x", "inputSchema": "str"})
    assert not_schema.status_code == 400
    assert not_schema.json()["message"] == "inputSchema: a JSON Schema is an object"
    bad_schema = http.post(
        "/api/public/v2/datasets", json={"name": "x", "expectedOutputSchema": {"type": 3}}
    )
    assert bad_schema.status_code == 400
    assert bad_schema.json()["error"] == "InvalidRequestError"
    assert "expectedOutputSchema is not a valid JSON Schema" in bad_schema.json()["message"]
    missing = http.get("/api/public/dataset-items", params={"datasetName": "no-such"})
    assert missing.status_code == 404
    assert missing.json()["error"] == "LangfuseNotFoundError"
    no_dataset = http.post("/api/public/dataset-items", json={"datasetName": "no-such"})
    assert no_dataset.status_code == 404
    cursor = http.get(
        "/api/public/experiments", params={"fromStartTime": "2026-01-01T00:00:00Z", "cursor": "x"}
    )
    assert cursor.status_code == 400
    assert cursor.json()["message"].startswith("cursor:")
    fields = http.get(
        "/api/public/experiment-items",
        params={"fromStartTime": "2026-01-01T00:00:00Z", "fields": "io,nope"},
    )
    assert fields.status_code == 400
    assert "fields: unknown nope" in fields.json()["message"]
    no_trace = http.post(
        "/api/public/dataset-run-items", json={"runName": "r", "datasetItemId": "nope"}
    )
    assert no_trace.status_code == 400
    assert no_trace.json()["message"].startswith("traceId:")
    for path in ("/api/public/experiments", "/api/public/experiment-items"):
        filtered = http.get(
            path, params={"fromStartTime": "2026-01-01T00:00:00Z", "filter": '[{"type": "x"}]'}
        )
        assert filtered.status_code == 400, path  # not applied: refused rather than ignored
        assert "filter" in filtered.json()["message"]
