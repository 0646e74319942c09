"""Fixtures: a real ``nats-server`` per test session and an isolated namespace per test.

That shared server runs without authentication; :func:`secured_bus` starts one of the test's
own with the users and permissions the embedded stack gives each service
(:mod:`axonal_events.access`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import nats
import pytest
import pytest_asyncio
from nats.aio.client import Client
from nats.js.errors import NotFoundError

from axonal_bus.provision import provision
from axonal_bus.settings import BusSettings
from axonal_events import Subjects
from axonal_events.access import ADMIN_USER, all_permissions, users_config
from axonal_stack.nats_server import NatsServer

__all__ = [
    "NatsEndpoint",
    "SecuredBus",
    "bus_settings",
    "namespace",
    "nats_client",
    "nats_server",
    "secured_bus",
    "subjects",
]


@dataclass(frozen=True)
class NatsEndpoint:
    url: str
    process: NatsServer | None = None


@pytest.fixture(scope="session")
def nats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsEndpoint]:
    """A real nats-server with JetStream for the session, or ``AXONAL_NATS_URL`` if set."""
    existing = os.environ.get("AXONAL_NATS_URL")
    if existing:
        yield NatsEndpoint(existing)
        return
    server = NatsServer(Path(tmp_path_factory.mktemp("nats")))
    server.start()
    try:
        yield NatsEndpoint(server.url, server)
    finally:
        server.stop()


@pytest.fixture
def namespace() -> str:
    """A subject root no other test uses, so tests share one server without crosstalk."""
    return f"t{uuid.uuid4().hex[:10]}"


@pytest.fixture
def subjects(namespace: str) -> Subjects:
    return Subjects(namespace)


@pytest_asyncio.fixture
async def nats_client(nats_server: NatsEndpoint) -> AsyncIterator[Client]:
    nc = await nats.connect(nats_server.url, name="axonal-tests")
    try:
        yield nc
    finally:
        await nc.close()


@pytest_asyncio.fixture
async def bus_settings(
    nats_server: NatsEndpoint, nats_client: Client, namespace: str
) -> AsyncIterator[BusSettings]:
    """Settings for this test's namespace, with its streams provisioned (and removed after)."""
    settings = BusSettings(nats_url=nats_server.url, namespace=namespace)
    js = nats_client.jetstream()
    await provision(js, settings.subjects, replicas=1)
    try:
        yield settings
    finally:
        for spec in settings.subjects.streams():
            with contextlib.suppress(NotFoundError):
                await js.delete_stream(spec.name)


@dataclass(frozen=True)
class SecuredBus:
    """A nats-server enforcing the platform's users, its streams provisioned by ``admin``."""

    url: str
    subjects: Subjects
    passwords: dict[str, str]
    log: Path

    def server_log(self) -> str:
        """What the server logged so far (it logs every permissions violation)."""
        return self.log.read_text() if self.log.exists() else ""

    def settings(self, user: str) -> BusSettings:
        """Bus settings that connect as ``user`` (a service's name, ``admin`` or ``run``)."""
        return BusSettings.model_validate(
            {
                "nats_url": self.url,
                "namespace": self.subjects.namespace,
                "nats_user": user,
                "nats_password": self.passwords[user],
            }
        )


@pytest_asyncio.fixture
async def secured_bus(
    tmp_path_factory: pytest.TempPathFactory, namespace: str
) -> AsyncIterator[SecuredBus]:
    """A nats-server of this test's own with a user per service (random passwords)."""
    subjects = Subjects(namespace)
    passwords = {user: secrets.token_urlsafe(16) for user in all_permissions(subjects)}
    server = NatsServer(
        Path(tmp_path_factory.mktemp("secured-nats")),
        extra_config=users_config(subjects, passwords),
    )
    server.start()
    try:
        bus = SecuredBus(server.url, subjects, passwords, server.log_path)
        admin = await nats.connect(server.url, user=ADMIN_USER, password=passwords[ADMIN_USER])
        try:
            await provision(admin.jetstream(), subjects, replicas=1)
        finally:
            await admin.close()
        yield bus
    finally:
        server.stop()
