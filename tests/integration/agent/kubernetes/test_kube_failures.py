"""How a run on the Kubernetes executor fails, as the cluster says why: OOMKilled, an image
that cannot be pulled, an eviction, a lost node (for a job, a PyTorchJob's master and a
RayJob's head: nothing replaces them; a service's, which recovers, in
test_kube_service_failures), no node to schedule it on; and a stop, which deletes it."""

from __future__ import annotations

import asyncio

import pytest

from axonal_testing.kube.double import KubeDouble
from axonal_testing.waiting import wait_for

from .kube_support import (
    JOB,
    NS,
    PYTORCH_JOB,
    RAY_JOB,
    SERVICE,
    Kind,
    play,
    pods_left,
    publish_stopping,
    reasons,
    started,
)

#: The kinds whose main pod's failure ends the run: a Job's and a PyTorchJob's pods restart
#: Never (the Job, the training operator fail them), a RayJob does not outlive its head.
ENDED_BY_THEIR_POD = [JOB, PYTORCH_JOB, RAY_JOB]


def _ids(kind: Kind) -> str:
    return kind.id


def _ended(double: KubeDouble, kind: Kind, run_uuid: str, name: str) -> None:
    """Nothing of the attempt is left: the executor deleted what it made, its pods went."""
    deleted = [(d.resource, d.name, d.requested) for d in double.deletions]
    assert deleted == kind.deleted(name)
    assert double.get(kind.plural, NS, name) is None
    assert pods_left(double, run_uuid, name) == []


def _logged(observed, run_uuid: str, line: str) -> int:
    """How many times the run logged ``line`` (a distributed one's says which pod)."""
    return sum(
        logged == line or logged.endswith(f"] {line}") for logged in observed.lines(run_uuid)
    )


@pytest.mark.parametrize("kind", ENDED_BY_THEIR_POD, ids=_ids)
async def test_oom_killed(kube_agent, kube_double: KubeDouble, observed, execute, kind: Kind):
    await kube_agent()
    run_uuid, name = await started(observed, execute, kind)
    steps = kind.scenarios(kube_double).oom_killed(NS, name)
    await play(steps, observed, run_uuid, name, kind, kube_double)
    final = await observed.wait_final(run_uuid)

    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("running", None),
        ("failed", "OOMKilled"),
    ]
    assert (final.message, final.exit_code) == (f"{kind.container}: out of memory", 137)
    assert _logged(observed, run_uuid, "allocating") == 1
    _ended(kube_double, kind, run_uuid, name)


@pytest.mark.parametrize("kind", [*ENDED_BY_THEIR_POD, SERVICE], ids=_ids)
async def test_an_image_that_cannot_be_pulled_waits_then_fails(
    kube_agent, kube_double: KubeDouble, observed, execute, kind: Kind
):
    await kube_agent(kube_stuck_after_seconds=3)
    run_uuid, name = await started(observed, execute, kind)
    scheduled, pull_failed, backoff = kind.scenarios(kube_double).image_pull_fails(NS, name)
    scheduled.run()
    pull_failed.run()
    await wait_for(lambda: "warning" in observed.statuses(run_uuid), message="warning")
    backoff.run()
    final = await observed.wait_final(run_uuid)

    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("warning", "ErrImagePull"),
        ("warning", "ImagePullBackOff"),
        ("failed", "ImagePullBackOff"),
    ]
    assert final.message == f'{kind.container}: Back-off pulling image "{kind.image}"'
    assert final.exit_code is None
    _ended(kube_double, kind, run_uuid, name)  # nothing goes on pulling


@pytest.mark.parametrize("kind", ENDED_BY_THEIR_POD, ids=_ids)
async def test_an_evicted_pod_fails_the_run(
    kube_agent, kube_double: KubeDouble, observed, execute, kind: Kind
):
    await kube_agent()
    run_uuid, name = await started(observed, execute, kind)
    steps = kind.scenarios(kube_double).evicted(NS, name)
    await play(steps, observed, run_uuid, name, kind, kube_double)
    final = await observed.wait_final(run_uuid)

    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("running", None),
        ("failed", "Evicted"),
    ]
    assert (final.message or "").startswith("The node was low on resource: memory.")
    assert final.exit_code == 137  # the kubelet killed its containers
    _ended(kube_double, kind, run_uuid, name)


@pytest.mark.parametrize("kind", ENDED_BY_THEIR_POD, ids=_ids)
async def test_a_lost_node_fails_the_run(
    kube_agent, kube_double: KubeDouble, observed, execute, kind: Kind
):
    await kube_agent()
    run_uuid, name = await started(observed, execute, kind)
    steps = kind.scenarios(kube_double).node_lost(NS, name)
    await play(steps, observed, run_uuid, name, kind, kube_double)
    final = await observed.wait_final(run_uuid)

    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("running", None),
        ("failed", "NodeLost"),
    ]
    assert final.message == "Taint manager: deleting due to NoExecute taint"
    assert final.exit_code is None  # no kubelet was there to end its containers
    _ended(kube_double, kind, run_uuid, name)


async def test_an_unschedulable_run_stays_pending_until_it_is_stopped(
    kube_agent, kube_double: KubeDouble, observed, execute, nats_client, bus_settings
):
    await kube_agent(kube_stuck_after_seconds=1)
    run_uuid, name = await started(observed, execute, JOB)
    kube_double.scenarios.unschedulable(NS, name)[0].run()
    await wait_for(lambda: "unschedulable" in observed.statuses(run_uuid), message="unschedulable")
    await asyncio.sleep(2)  # longer than stuck_after: waiting for a node is not being stuck
    assert observed.final(run_uuid) is None
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert final.message == "stopped on request"
    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("unschedulable", "Unschedulable"),
        ("stopped", "Stopped"),
    ]
    assert kube_double.get("jobs", NS, name) is None
    assert kube_double.pods(NS, f"job-name={name}") == []
    jobs = [
        (d.resource, d.name, d.requested) for d in kube_double.deletions if d.resource == "jobs"
    ]
    assert jobs == [("jobs", name, "Background")]


async def test_a_run_kubernetes_cannot_take_fails_before_anything_is_created(
    kube_agent, kube_double: KubeDouble, observed, execute, created
):
    await kube_agent(kube_default_image=None)
    run_uuid = await execute({"kind": "job", "container": {"command": ["python", "train.py"]}})
    final = await observed.wait_final(run_uuid)

    assert (final.status, final.reason) == ("failed", "InvalidSpec")
    assert final.message == "container.image: no image, and the agent has no default image"
    assert created.objects == []
