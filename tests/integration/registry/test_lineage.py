"""Lineage over RPC: artifact versions arrive as ``artifact.version.created`` events, and a
model version's graph links it to its run, the dataset versions read and their producers."""

from axonal_bus import rpc
from axonal_bus.outbox import event_headers
from axonal_events import new_event
from axonal_events.catalog.models import ArtifactVersionCreated
from axonal_events.model_registry import CreateModelVersion, ReadModelLineage
from axonal_events.rpcs import Registry
from axonal_testing.waiting import wait_for

PROJECT = "acme/churn"
PREP, TRAIN = "1" * 32, "2" * 32
DATA, MODEL = "d" * 64, "e" * 64


def version(run_uuid, name, sha256, *, is_input, kind="dataset"):
    return ArtifactVersionCreated(
        project=PROJECT, run_uuid=run_uuid, name=name, kind=kind, sha256=sha256, size=10,
        path=f"acme/churn/{run_uuid}/{name}", is_input=is_input,
    )  # fmt: skip


async def test_a_model_version_links_back_to_the_datasets_and_runs(registry, nats_client):
    js = nats_client.jetstream()
    produced = [
        version(PREP, "clean.csv", DATA, is_input=False),
        version(TRAIN, "train.csv", DATA, is_input=True),
        version(TRAIN, "model", MODEL, is_input=False, kind="model"),
    ]
    for data in [*produced, produced[1]]:  # a redelivery is stored once
        event = new_event(data, source="/tests", project=PROJECT)
        await js.publish(
            registry.subjects.event(event.type.removeprefix("axonal.")),
            event.to_json(),
            headers=event_headers(event),
        )
    await rpc.call(nats_client, registry.subjects, Registry.create_version, CreateModelVersion(
        project=PROJECT, model="churn", run_uuid=TRAIN, artifact="model", sha256=MODEL,
        path=f"acme/churn/.sha256/{MODEL}", size=10,
    ))  # fmt: skip
    request = ReadModelLineage(project=PROJECT, model="churn", version=1)

    async def linked():
        graph = await rpc.call(nats_client, registry.subjects, Registry.lineage, request)
        return graph if len(graph.edges) == 3 else None

    graph = await wait_for(linked, message="the lineage graph has its three edges")
    dataset = f"dataset:train.csv@{DATA}"
    assert {(e.source, e.target, e.relation) for e in graph.edges} == {
        (f"run:{TRAIN}", "model:churn/1", "registered"),
        (dataset, f"run:{TRAIN}", "read"),
        (f"run:{PREP}", dataset, "wrote"),
    }
    kinds = {node.id: node.kind for node in graph.nodes}
    assert kinds == {
        "model:churn/1": "model_version",
        f"run:{TRAIN}": "run",
        dataset: "dataset",
        f"run:{PREP}": "run",
    }
