"""A kubernetes_asyncio client on the Kubernetes API double, and manifests to send it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from kubernetes_asyncio.client import ApiClient

from axonal_testing.kube.double import KubeDouble

NS = "axonal-runs"


@pytest_asyncio.fixture
async def api(kube_double: KubeDouble) -> AsyncIterator[ApiClient]:
    async with kube_double.api_client() as client:
        yield client


def job_manifest(name: str, **labels: str) -> dict[str, Any]:
    """A batch/v1 Job as the executor writes it: one container, no retries."""
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "labels": {"app": "axonal", **labels}},
        "spec": {
            "backoffLimit": 0,
            "template": {
                "metadata": {"labels": {"app": "axonal"}},
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [{"name": "step", "image": "busybox", "command": ["true"]}],
                },
            },
        },
    }
