"""The registry behind the api: ``log_model(register_as=...)`` makes a version from the run's
upload, the same bytes are refused, a version downloads by number or alias, and its lineage
carries the run's params (the scheduler played by a fake; tracking and registry real)."""

import asyncio

import pytest

from axonal import tracking
from axonal_testing.waiting import wait_for

from ..registry import conftest as registry_tests  # noqa: TID252 - a sibling folder's fixture
from .conftest import PROJECT

registry = registry_tests.registry


async def test_register_as_makes_a_version_that_downloads_and_has_lineage(
    http, platform, in_run, registry, tmp_path
):
    run = platform.add_run(inputs={"epochs": 3})
    in_run(run)
    data, weights = tmp_path / "train.csv", tmp_path / "model.pkl"
    data.write_text("x,y\n1,0\n")
    weights.write_bytes(b"weights v1")
    await asyncio.to_thread(tracking.log_artifact, data, "train.csv", "dataset", is_input=True)
    record = await asyncio.to_thread(tracking.log_model, weights, "model", register_as="churn")
    made = record["model_version"]
    assert (made["model"], made["version"], made["sha256"]) == ("churn", 1, record["sha256"])
    with pytest.raises(tracking.ArtifactUploadError, match="409: sha256: model 'churn' already"):
        await asyncio.to_thread(tracking.log_model, weights, "model", register_as="churn")

    models = f"/api/v1/{PROJECT}/models/churn"
    assert (await http.get(f"{models}/versions/1/download")).content == b"weights v1"
    promoted = await http.post(f"{models}/versions/1/promote", json={"alias": "production"})
    assert promoted.json()["status"] == "moved"
    assert (await http.get(f"{models}/versions/production/download")).content == b"weights v1"

    async def linked():
        graph = (await http.get(f"{models}/versions/1/lineage")).json()
        return graph if len(graph["edges"]) == 2 else None

    graph = await wait_for(linked, timeout=15, message="the version's lineage")
    [run_node] = [node for node in graph["nodes"] if node["kind"] == "run"]
    assert run_node["attributes"]["params"] == {"epochs": 3}
    assert run_node["attributes"]["status"] == "running"
    assert {edge["relation"] for edge in graph["edges"]} == {"read", "registered"}
