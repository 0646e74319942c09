"""The identity service in-process on the test's NATS namespace and database."""

import pytest_asyncio

from axonal_identity.app import build_app
from axonal_identity.settings import IdentitySettings


@pytest_asyncio.fixture
async def identity(service_settings, running_service) -> IdentitySettings:
    settings = service_settings(IdentitySettings)
    await running_service(build_app(settings))
    return settings
