"""How a service on the Kubernetes executor goes through the failures of its pod. Its
Deployment replaces an evicted pod or one of a lost node, and the kubelet restarts a crashed
container: the service says why it stopped running (a warning) and runs again once a replica
is available. A container that keeps crashing (CrashLoopBackOff) with no replica available
for the stuck time fails it, with why it crashed; an image that cannot be pulled fails it as
a job (test_kube_failures)."""

from __future__ import annotations

import pytest

from axonal_testing.kube.double import KubeDouble
from axonal_testing.waiting import wait_for

from .kube_support import NS, SERVICE, play, pods_left, publish_stopping, reasons, started

EVICTED = "The node was low on resource: memory."
NODE_LOST = "Taint manager: deleting due to NoExecute taint"


async def _told_last(observed, run_uuid: str, status: str, reason: str | None) -> None:
    await wait_for(
        lambda: reasons(observed, run_uuid)[-1:] == [(status, reason)],
        message=f"{status} {reason}",
    )


def _warnings(observed, run_uuid: str) -> list[tuple[str | None, str]]:
    return [
        (r.reason, r.message or "")
        for r in observed.reports
        if r.run_uuid == run_uuid and r.status == "warning"
    ]


@pytest.mark.parametrize(
    ("sequence", "warnings"),
    [
        ("evicted", [("Evicted", EVICTED)]),
        (
            "node_lost",
            [
                # its node stopped answering: the pod is not Ready, nothing says more yet
                ("MinimumReplicasUnavailable", "Deployment does not have minimum availability."),
                ("NodeLost", NODE_LOST),  # the taint manager evicted it
            ],
        ),
    ],
)
async def test_a_service_whose_pod_is_replaced_warns_then_runs_again(
    kube_agent,
    kube_double: KubeDouble,
    observed,
    execute,
    nats_client,
    bus_settings,
    sequence: str,
    warnings: list[tuple[str, str]],
):
    await kube_agent()
    run_uuid, name = await started(observed, execute, SERVICE)
    first = kube_double.main_pod("deployments", NS, name)
    steps = getattr(SERVICE.scenarios(kube_double), sequence)(NS, name)
    await play(steps[:3], observed, run_uuid, name, SERVICE, kube_double)  # it runs
    for step, (reason, _) in zip(steps[3:], warnings, strict=True):
        step.run()
        await _told_last(observed, run_uuid, "warning", reason)
    replacement = kube_double.main_pod("deployments", NS, name)
    kube_double.kubelet.schedule(NS, replacement)
    kube_double.kubelet.start(NS, replacement)
    await _told_last(observed, run_uuid, "running", None)
    await publish_stopping(nats_client, bus_settings, run_uuid)
    final = await observed.wait_final(run_uuid)

    assert replacement != first
    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("running", None),
        *(("warning", reason) for reason, _ in warnings),
        ("running", None),
        ("stopped", "Stopped"),
    ]
    for (reason, message), (expected, start) in zip(
        _warnings(observed, run_uuid), warnings, strict=True
    ):
        assert reason == expected
        assert message.startswith(start)
    assert final.message == "stopped on request"
    for plural, deleted in (("deployments", name), ("services", name), ("secrets", f"{name}-env")):
        assert (plural, deleted, "Background") in {
            (d.resource, d.name, d.requested) for d in kube_double.deletions
        }
    assert pods_left(kube_double, run_uuid, name) == []


async def test_a_service_that_keeps_running_out_of_memory_fails(
    kube_agent, kube_double: KubeDouble, observed, execute
):
    await kube_agent(kube_stuck_after_seconds=3)
    run_uuid, name = await started(observed, execute, SERVICE)
    steps = SERVICE.scenarios(kube_double).oom_killed(NS, name)
    await play(steps[:-1], observed, run_uuid, name, SERVICE, kube_double)  # it runs
    pod = kube_double.main_pod("deployments", NS, name)
    steps[-1].run()  # the kubelet restarts it at once; it is not ready yet
    await _told_last(observed, run_uuid, "warning", "OOMKilled")
    kube_double.kubelet.start(NS, pod)  # ready again
    await _told_last(observed, run_uuid, "running", None)
    kube_double.kubelet.terminate(NS, pod, 137, "OOMKilled")  # again: the kubelet backs off
    await _told_last(observed, run_uuid, "warning", "CrashLoopBackOff")
    final = await observed.wait_final(run_uuid)

    assert reasons(observed, run_uuid) == [
        ("starting", None),
        ("running", None),
        ("warning", "OOMKilled"),
        ("running", None),
        ("warning", "CrashLoopBackOff"),
        ("failed", "OOMKilled"),
    ]
    [(_, crashed), (_, looping)] = _warnings(observed, run_uuid)
    assert crashed == "main: out of memory"
    assert looping.startswith(
        f"main: back-off 10s restarting failed container=main pod={pod}_{NS}("
    )
    assert (final.message, final.exit_code) == (
        "main: out of memory (CrashLoopBackOff, no replica available for over 3s)",
        137,
    )
    assert [line for line in observed.lines(run_uuid) if line == "allocating"] == ["allocating"]
    assert [(d.resource, d.name, d.requested) for d in kube_double.deletions] == SERVICE.deleted(
        name
    )
    assert kube_double.get("deployments", NS, name) is None
    assert pods_left(kube_double, run_uuid, name) == []
