"""The evaluation service in-process on the test's NATS namespace and database."""

import pytest_asyncio

from axonal_evaluation.app import build_app
from axonal_evaluation.settings import EvaluationSettings


@pytest_asyncio.fixture
async def evaluation(service_settings, running_service) -> EvaluationSettings:
    settings = service_settings(EvaluationSettings)
    await running_service(build_app(settings))
    return settings
