"""An agent running the Kubernetes executor against the Kubernetes API double."""

from __future__ import annotations

from typing import Any

import pytest

from axonal_testing.kube.double import KubeDouble

from .kube_support import NS, Created


@pytest.fixture
def kube_agent(start_agent, kube_double: KubeDouble):
    """Start an agent whose runs go to the double (``kube_agent(kube_stuck_after_seconds=1)``:
    settings by name)."""

    async def start(**overrides: Any):
        fields: dict[str, Any] = {
            "executor": "kubernetes",
            "kube_api_host": kube_double.url,
            "kube_namespace": NS,
            "kube_store_claim": "axonal-store",
            "kube_default_image": "axonal/python:3.12",
            "kube_ttl_seconds_after_finished": 600,
            "kube_watch_seconds": 30,
            "run_token_secret": "a-secret-of-at-least-32-characters!",
            "api_url": "http://api.axonal.svc:8000",
        }
        return await start_agent(**(fields | overrides))

    return start


@pytest.fixture
def created(kube_double: KubeDouble) -> Created:
    return Created(kube_double)
