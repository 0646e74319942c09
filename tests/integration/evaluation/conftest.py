"""The evaluation service in-process on the test's NATS namespace and database (with
tracking, for the evaluators), and the LLM provider's double."""

from typing import Any

import pytest
import pytest_asyncio

from axonal_bus import rpc
from axonal_evaluation.app import build_app
from axonal_evaluation.settings import EvaluationSettings
from axonal_testing.llm_double import llm_double
from axonal_tracking.app import build_app as build_tracking
from axonal_tracking.settings import TrackingSettings


@pytest_asyncio.fixture
async def evaluation(service_settings, running_service) -> EvaluationSettings:
    settings = service_settings(EvaluationSettings)
    await running_service(build_app(settings))
    return settings


@pytest.fixture
def call(evaluation, nats_client):
    """Call an RPC of the evaluation service (10 s: a busy test machine is slow)."""

    async def calling(method: Any, payload: Any) -> Any:
        return await rpc.call(nats_client, evaluation.subjects, method, payload, timeout=10)

    return calling


@pytest_asyncio.fixture
async def services(service_settings, running_service) -> EvaluationSettings:
    """Tracking and the evaluation service."""
    await running_service(build_tracking(service_settings(TrackingSettings)))
    settings = service_settings(EvaluationSettings)
    await running_service(build_app(settings))
    return settings


@pytest.fixture
def double():
    with llm_double() as server:
        yield server
