"""The registry service in-process on the test's NATS namespace and database."""

import pytest_asyncio

from axonal_registry.app import build_app
from axonal_registry.settings import RegistrySettings


@pytest_asyncio.fixture
async def registry(service_settings, running_service) -> RegistrySettings:
    settings = service_settings(RegistrySettings)
    await running_service(build_app(settings))
    return settings
