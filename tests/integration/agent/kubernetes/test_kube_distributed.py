"""Distributed runs on the Kubernetes executor: a PyTorchJob (the training operator's) and a
RayJob (KubeRay's), each through its status sequence, with the logs of its pods."""

from __future__ import annotations

from axonal_testing.k8s_schemas import validate_manifest
from axonal_testing.kube.double import KubeDouble
from axonal_testing.waiting import wait_for

from .kube_support import NS, Created, launch


async def test_a_pytorch_job_runs_to_success(
    kube_agent, kube_double: KubeDouble, observed, execute, created: Created
):
    await kube_agent()
    run_uuid, name = await launch(execute, "distributed/pytorchjob.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    kube_double.operators.training("pytorchjobs", NS, name, "Running")
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    kube_double.log(NS, f"{name}-master-0", "epoch 1 loss=0.5")
    kube_double.log(NS, f"{name}-worker-1", "rank 2 ready")
    await wait_for(lambda: len(observed.lines(run_uuid)) >= 2, message="the pods' logs")
    kube_double.kubelet.terminate(NS, f"{name}-master-0", 0, message='{"loss": 0.5}')
    kube_double.operators.training("pytorchjobs", NS, name, "Succeeded")
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "succeeded"]
    assert (final.exit_code, final.outputs) == (0, {"loss": 0.5})
    lines = observed.lines(run_uuid)
    assert "[master-0] epoch 1 loss=0.5" in lines
    assert "[worker-1] rank 2 ready" in lines
    assert created.kinds() == ["Secret", "PyTorchJob"]
    for obj in created.objects:
        validate_manifest(obj)
    assert kube_double.get("pytorchjobs", NS, name) is not None  # kept for its ttl


async def test_a_failed_pytorch_job_fails_the_run_with_the_end_of_its_log(
    kube_agent, kube_double: KubeDouble, observed, execute
):
    await kube_agent()
    run_uuid, name = await launch(execute, "distributed/pytorchjob.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    kube_double.operators.training("pytorchjobs", NS, name, "Running")
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    kube_double.log(NS, f"{name}-master-0", "RuntimeError: NCCL error")
    kube_double.operators.training("pytorchjobs", NS, name, "Failed", exit_code=3)
    final = await observed.wait_final(run_uuid)

    assert (final.status, final.reason, final.exit_code) == ("failed", "ExitCode", 3)
    # the master's termination message: the end of its log (FallbackToLogsOnError)
    assert final.message == "pytorch: RuntimeError: NCCL error"
    assert kube_double.get("pytorchjobs", NS, name) is None  # a failed one is deleted


async def test_a_ray_job_runs_its_entrypoint_to_success(
    kube_agent, kube_double: KubeDouble, observed, execute, created: Created
):
    await kube_agent()
    run_uuid, name = await launch(execute, "distributed/raycluster.yaml")
    await wait_for(lambda: observed.statuses(run_uuid) == ["starting"], message="starting")
    [head] = await wait_for(lambda: kube_double.pods(NS, "ray.io/node-type=head"))
    kube_double.operators.ray_job(NS, name, "Running")
    await wait_for(lambda: "running" in observed.statuses(run_uuid), message="running")
    kube_double.log(NS, head["metadata"]["name"], "Ray runtime started.")
    [submitter] = kube_double.pods(NS, f"job-name={name}")
    kube_double.log(NS, submitter["metadata"]["name"], "trial 1 done")
    await wait_for(lambda: len(observed.lines(run_uuid)) >= 2, message="the pods' logs")
    kube_double.operators.ray_job(NS, name, "Complete")
    final = await observed.wait_final(run_uuid)

    assert observed.statuses(run_uuid) == ["starting", "running", "succeeded"]
    assert final.exit_code == 0
    lines = observed.lines(run_uuid)
    assert any(line.endswith("] Ray runtime started.") for line in lines)
    assert any(line.endswith("] trial 1 done") for line in lines)
    assert created.kinds() == ["Secret", "RayJob"]
    for obj in created.objects:
        validate_manifest(obj)
