"""The ``kube_double`` fixture: a Kubernetes API double serving on a free port for one test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest_asyncio

if TYPE_CHECKING:
    from kubernetes_asyncio.client import ApiClient

    from axonal_testing.kube.double import KubeDouble

__all__ = ["kube_api_client", "kube_double"]


def kube_api_client(url: str) -> ApiClient:
    """A ``kubernetes_asyncio`` ``ApiClient`` whose ``Configuration.host`` is ``url``."""
    from kubernetes_asyncio.client import ApiClient, Configuration  # noqa: PLC0415 - heavy

    return ApiClient(configuration=Configuration(host=url))


@pytest_asyncio.fixture
async def kube_double() -> AsyncIterator[KubeDouble]:
    """A started :class:`~axonal_testing.kube.double.KubeDouble`, stopped after the test.

    A write a controller stand-in could not make (``store.controller_errors``, e.g. pods from
    a template without containers) fails the test at teardown: clear the list in a test that
    provokes one on purpose.
    """
    from axonal_testing.kube.double import KubeDouble  # noqa: PLC0415 - aiohttp on demand

    double = KubeDouble()
    await double.start()
    try:
        yield double
    finally:
        await double.stop()
    errors = [e.status["message"] for e in double.store.controller_errors]
    assert not errors, f"controller stand-ins failed to write: {errors}"
