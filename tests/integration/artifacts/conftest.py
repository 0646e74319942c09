"""Real NATS and PostgreSQL, the tracking service in-process (its fixture is shared with the
tracking tests) and the api on a port (its artifact store on the local disk, run tokens on),
the scheduler's runs played by a fake."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_bus.run_tokens import issue_run_token
from axonal_testing.api_fakes import FakePlatform, api_in_thread
from axonal_testing.waiting import wait_for

from ..tracking import conftest as tracking_tests  # noqa: TID252 - a sibling folder's fixture

tracking = tracking_tests.tracking

API_TOKEN = "api-token-for-tests"
SECRET = "run-token-secret-for-the-artifact-tests"
MAX_BYTES = 200_000
PROJECT = "acme/demo"


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
def store(tmp_path) -> Path:
    return tmp_path / "store"


@pytest.fixture
def artifacts_url(store) -> str:
    """The api's artifact store (a test module may override it)."""
    return str(store)


@pytest.fixture
def api_url(bus_settings, platform, tracking, artifacts_url) -> Iterator[str]:
    settings = ApiSettings(
        nats_url=bus_settings.nats_url, namespace=bus_settings.namespace,
        api_token=API_TOKEN, run_token_secret=SECRET,
        artifacts_url=artifacts_url, artifact_max_bytes=MAX_BYTES,
    )  # fmt: skip
    with api_in_thread(lambda: build_app(settings), bus_settings, platform) as url:
        yield url


@pytest_asyncio.fixture
async def http(api_url) -> AsyncIterator[httpx.AsyncClient]:
    headers = {"Authorization": f"Bearer {API_TOKEN}"}
    async with httpx.AsyncClient(base_url=api_url, headers=headers, timeout=10) as client:
        yield client


def run_token(run_uuid: str, project: str = PROJECT) -> str:
    return issue_run_token(SECRET, run_uuid, project, timedelta(hours=1))


@pytest.fixture
def in_run(monkeypatch, tmp_path, api_url):
    """``in_run(run)``: the environment an agent gives the run's process."""

    def enter(run: Any) -> None:
        monkeypatch.delenv("AXONAL_NATS_URL", raising=False)
        monkeypatch.setenv("AXONAL_RUN_UUID", run.uuid)
        monkeypatch.setenv("AXONAL_PROJECT", PROJECT)
        monkeypatch.setenv("AXONAL_API_URL", api_url)
        monkeypatch.setenv("AXONAL_API_TOKEN", run_token(run.uuid))
        monkeypatch.setenv("AXONAL_TRACKING_SPOOL", str(tmp_path / "spool"))

    return enter


async def listed(http: httpx.AsyncClient, run_uuid: str, count: int) -> list[dict[str, Any]]:
    """The run's artifacts once the tracking service lists ``count`` of them."""

    async def ready() -> list[dict[str, Any]] | None:
        reply = await http.get(f"/api/v1/{PROJECT}/runs/{run_uuid}/artifacts")
        found: list[dict[str, Any]] = reply.json()["artifacts"]
        return found if len(found) == count else None

    return await wait_for(ready, timeout=15, message=f"{count} artifacts listed")
