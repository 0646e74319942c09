"""How a job run on the Kubernetes executor fails, as the cluster says why: OOMKilled, an
image that cannot be pulled, an eviction, a lost node, no node to schedule it on; and a
stop, which deletes it."""

from __future__ import annotations

import asyncio

from axonal_testing.kube.double import KubeDouble
from axonal_testing.kube.scenarios import Step
from axonal_testing.waiting import wait_for

from .kube_support import NS, launch, publish_stopping


async def _started(observed, execute, relative: str = "jobs/hello.yaml") -> tuple[str, str]:
    run_uuid, name = await launch(execute, relative)
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    return run_uuid, name


async def _play(steps: list[Step], observed, run_uuid: str) -> None:
    """Run the steps, each once the agent reported what the one before did."""
    for step in steps:
        step.run()
        if step.name == "running":
            await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")


def _reasons(observed, run_uuid: str) -> list[tuple[str, str | None]]:
    return [(r.status.value, r.reason) for r in observed.reports if r.run_uuid == run_uuid]


async def test_oom_killed(kube_agent, kube_double: KubeDouble, observed, execute):
    await kube_agent()
    run_uuid, name = await _started(observed, execute)
    await _play(kube_double.scenarios.oom_killed(NS, name), observed, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "failed"]
    assert (final.reason, final.exit_code) == ("OOMKilled", 137)
    assert final.message == "main: out of memory"
    assert "allocating" in observed.lines(run_uuid)
    assert kube_double.get("jobs", NS, name) is None  # a failed workload is deleted


async def test_an_image_that_cannot_be_pulled_waits_then_fails(
    kube_agent, kube_double: KubeDouble, observed, execute
):
    await kube_agent(kube_stuck_after_seconds=3)
    run_uuid, name = await _started(observed, execute)
    scheduled, pull_failed, backoff = kube_double.scenarios.image_pull_fails(NS, name)
    scheduled.run()
    pull_failed.run()
    await wait_for(lambda: "warning" in observed.statuses(run_uuid), message="warning")
    backoff.run()
    final = await observed.wait_final(run_uuid)

    assert _reasons(observed, run_uuid) == [
        ("starting", None),
        ("warning", "ErrImagePull"),
        ("warning", "ImagePullBackOff"),
        ("failed", "ImagePullBackOff"),
    ]
    assert final.message == 'main: Back-off pulling image "busybox:1.36"'
    assert final.exit_code is None
    assert kube_double.get("jobs", NS, name) is None  # nothing goes on pulling
    deletion = [d for d in kube_double.deletions if d.resource == "jobs"]
    assert [(d.name, d.requested) for d in deletion] == [(name, "Background")]


async def test_an_evicted_pod_fails_the_run(kube_agent, kube_double: KubeDouble, observed, execute):
    await kube_agent()
    run_uuid, name = await _started(observed, execute)
    await _play(kube_double.scenarios.evicted(NS, name), observed, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "failed"]
    assert final.reason == "Evicted"
    assert (final.message or "").startswith("The node was low on resource: memory.")


async def test_a_lost_node_fails_the_run(kube_agent, kube_double: KubeDouble, observed, execute):
    await kube_agent()
    run_uuid, name = await _started(observed, execute)
    await _play(kube_double.scenarios.node_lost(NS, name), observed, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "failed"]
    assert (final.reason, final.message) == (
        "NodeLost",
        "Taint manager: deleting due to NoExecute taint",
    )


async def test_an_unschedulable_run_stays_pending_until_it_is_stopped(
    kube_agent, kube_double: KubeDouble, observed, execute, nats_client, bus_settings
):
    await kube_agent(kube_stuck_after_seconds=1)
    run_uuid, name = await _started(observed, execute)
    await _play(kube_double.scenarios.unschedulable(NS, name), observed, run_uuid)
    await wait_for(lambda: "unschedulable" in observed.statuses(run_uuid), message="unschedulable")
    await asyncio.sleep(2)  # longer than stuck_after: waiting for a node is not being stuck
    assert observed.final(run_uuid) is None
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert final.message == "stopped on request"
    assert _reasons(observed, run_uuid) == [
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
