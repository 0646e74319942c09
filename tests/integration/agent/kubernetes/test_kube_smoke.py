"""Smoke test on a real cluster (``make k8s-smoke``): the agent, running the Kubernetes
executor with the cluster of ``KUBECONFIG`` (its current context), runs a job polyaxonfile to
success in ``AXONAL_K8S_NAMESPACE`` (default ``default``). Skipped without ``KUBECONFIG``; not
part of the default selection (``-m "not k8s"``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from axonal_testing.waiting import wait_for

from .kube_support import launch

pytestmark = [
    pytest.mark.k8s,
    pytest.mark.skipif(not os.environ.get("KUBECONFIG"), reason="KUBECONFIG is not set"),
]


async def test_a_job_runs_to_success_on_the_cluster(start_agent, observed, execute):
    kubeconfig = Path(os.environ["KUBECONFIG"].split(os.pathsep)[0])
    namespace = os.environ.get("AXONAL_K8S_NAMESPACE", "default")
    await start_agent(executor="kubernetes", kube_config=kubeconfig, kube_namespace=namespace)
    run_uuid, _ = await launch(execute, "jobs/hello.yaml")
    final = await observed.wait_final(run_uuid, timeout=300)  # an image to pull, a node to find

    assert (final.status, final.reason) == ("succeeded", None), final.message
    await wait_for(lambda: "hello from axonal" in observed.lines(run_uuid), message="its log")
    assert observed.statuses(run_uuid)[-2:] == ["running", "succeeded"]
