"""Evaluation scores on model versions and the promotion gates that check them, over RPC on
real NATS and PostgreSQL."""

import json

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode, StreamKind
from axonal_events.model_evaluations import (
    PromotionGate,
    ReadModelScores,
    RecordModelScores,
    SetPromotionGates,
)
from axonal_events.model_registry import (
    ApprovePromotion,
    CreateModelVersion,
    ModelRef,
    PromoteModelVersion,
    PromotionStatus,
    ProtectAliases,
)
from axonal_events.rpcs import Registry
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

PROJECT = "acme/churn"
TRAIN, EVAL_1, EVAL_2 = "a" * 32, "b" * 32, "c" * 32
HOLDOUT = "holdout.csv@" + "d" * 64


@pytest.fixture
def call(registry, nats_client):
    async def call(method, request):
        return await rpc.call(nats_client, registry.subjects, method, request)

    return call


async def refused(call, method, request) -> RemoteError:
    with pytest.raises(RemoteError) as caught:
        await call(method, request)
    return caught.value


def scored(run: str, **scores: float) -> RecordModelScores:
    return RecordModelScores(
        project=PROJECT, model="churn", ref="1", run_uuid=run, dataset=HOLDOUT, scores=scores
    )


async def test_an_alias_takes_only_a_version_whose_latest_scores_meet_its_gates(call):
    await call(Registry.create_version, CreateModelVersion(
        project=PROJECT, model="churn", run_uuid=TRAIN, artifact="model", sha256="e" * 64,
        path="acme/churn/model", size=3,
    ))  # fmt: skip
    gate = PromotionGate(metric="auc", op=">=", threshold=0.9)
    gates = await call(Registry.set_gates, SetPromotionGates(
        project=PROJECT, model="churn", alias="production", gates=[gate]
    ))  # fmt: skip
    assert gates.gates == {"production": [gate]}
    promote = PromoteModelVersion(project=PROJECT, model="churn", version=1, alias="production")

    missing = await refused(call, Registry.promote, promote)
    assert missing.code is ErrorCode.INVALID
    assert "version 1 has no 'auc' score" in str(missing)

    await call(Registry.record_scores, scored(EVAL_1, auc=0.87, f1=0.7))
    low = await refused(call, Registry.promote, promote)
    assert f"requires auc >= 0.9: version 1 scored 0.87 (run {EVAL_1} on {HOLDOUT})" in str(low)

    # a later evaluation (a better dataset, a fixed metric) is the one that counts
    read = await call(Registry.record_scores, scored(EVAL_2, auc=0.93))
    newest = read.scores[0]
    assert (newest.name, newest.value, newest.run_uuid) == ("auc", 0.93, EVAL_2)
    moved = await call(Registry.promote, promote)
    assert (moved.status, moved.version.aliases) == (PromotionStatus.MOVED, ["production"])

    # gates do not hold other aliases back
    staging = promote.model_copy(update={"alias": "staging"})
    assert (await call(Registry.promote, staging)).status is PromotionStatus.MOVED
    by_alias = await call(Registry.version_scores, ReadModelScores(
        project=PROJECT, model="churn", ref="production"
    ))  # fmt: skip
    assert (by_alias.version, len(by_alias.scores)) == (1, 3)


async def test_an_approval_checks_the_gates_again(call):
    await call(Registry.create_version, CreateModelVersion(
        project=PROJECT, model="churn", run_uuid=TRAIN, artifact="model", sha256="e" * 64,
        path="acme/churn/model", size=3,
    ))  # fmt: skip
    await call(Registry.protect_aliases, ProtectAliases(
        project=PROJECT, model="churn", aliases=["production"]
    ))  # fmt: skip
    await call(Registry.record_scores, scored(EVAL_1, auc=0.95))
    gate = PromotionGate(metric="auc", op=">=", threshold=0.9)
    await call(Registry.set_gates, SetPromotionGates(
        project=PROJECT, model="churn", alias="production", gates=[gate]
    ))  # fmt: skip
    asked = await call(Registry.promote, PromoteModelVersion(
        project=PROJECT, model="churn", version=1, alias="production"
    ))  # fmt: skip
    assert asked.status is PromotionStatus.PENDING
    await call(Registry.record_scores, scored(EVAL_2, auc=0.5))  # it regressed meanwhile
    approve = ApprovePromotion(
        project=PROJECT, model="churn", request_id=asked.request.id, approved_by="lead"
    )
    regressed = await refused(call, Registry.approve, approve)
    assert "scored 0.5" in str(regressed)


async def test_bad_gates_and_scores_are_refused_naming_the_field(call, registry, nats_client):
    twice = SetPromotionGates(project=PROJECT, model="churn", alias="production", gates=[
        PromotionGate(metric="auc", op=">=", threshold=0.9),
        PromotionGate(metric="auc", op="<", threshold=1),
    ])  # fmt: skip
    no_model = twice.model_copy(update={"gates": twice.gates[:1]})
    assert (await refused(call, Registry.set_gates, no_model)).code is ErrorCode.NOT_FOUND
    await call(Registry.create_version, CreateModelVersion(
        project=PROJECT, model="churn", run_uuid=TRAIN, artifact="model", sha256="e" * 64,
        path="acme/churn/model", size=3,
    ))  # fmt: skip
    error = await refused(call, Registry.set_gates, twice)
    assert error.code is ErrorCode.INVALID
    assert "auc given twice" in str(error)
    unknown = scored(EVAL_1, auc=0.9).model_copy(update={"ref": "v7"})
    assert (await refused(call, Registry.record_scores, unknown)).code is ErrorCode.NOT_FOUND
    assert (await call(Registry.gates, ModelRef(project=PROJECT, model="churn"))).gates == {}

    await call(Registry.record_scores, scored(EVAL_1, auc=0.9))
    js = nats_client.jetstream()
    stream = registry.subjects.stream_name(StreamKind.EVENTS)

    async def evaluated():
        found = [json.loads(data) for _, data, _ in await read_stream(js, stream)]
        return [e for e in found if e["type"] == "axonal.model.version.evaluated"] or None

    [event] = await wait_for(evaluated, message="model.version.evaluated published")
    assert (event["data"]["scores"], event["data"]["dataset"]) == ({"auc": 0.9}, HOLDOUT)
