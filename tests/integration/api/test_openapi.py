"""The committed OpenAPI document is current, and the api honours it (schemathesis)."""

import asyncio
import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

import nats
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from axonal_api.app import build_app
from axonal_api.openapi import openapi_document, render
from axonal_api.permissions import PERMISSIONS
from axonal_api.settings import ApiSettings
from axonal_bus.provision import provision
from axonal_bus.settings import BusSettings
from axonal_events.principals import Role
from axonal_testing.api_fakes import (
    OPERATOR,
    OPERATOR_TOKEN,
    VIEWER,
    FakePlatform,
    api_in_thread,
)

COMMITTED = Path(__file__).parents[3] / "docs" / "openapi.json"


def test_committed_openapi_document_is_current():
    assert COMMITTED.read_text() == render(), (
        "docs/openapi.json is stale: run "
        "`.venv/bin/python -m axonal_api.openapi > docs/openapi.json` and commit the result"
    )


def test_document_covers_the_runs_and_projects_api():
    paths = openapi_document()["paths"]
    runs = "/api/v1/{owner}/{project}/runs"
    for path in (
        runs,
        f"{runs}/{{run_uuid}}",
        f"{runs}/{{run_uuid}}/statuses",
        f"{runs}/{{run_uuid}}/logs",
        f"{runs}/{{run_uuid}}/logs/stream",
        f"{runs}/{{run_uuid}}/{{verb}}",
        "/api/v1/projects",
        "/healthz",
    ):
        assert path in paths, path


async def _streams(settings: BusSettings, *, keep: bool) -> None:
    nc = await nats.connect(settings.nats_url)
    js = nc.jetstream()
    try:
        if keep:
            await provision(js, settings.subjects, replicas=1)
        else:
            for spec in settings.subjects.streams():
                with contextlib.suppress(nats.js.errors.NotFoundError):
                    await js.delete_stream(spec.name)
    finally:
        await nc.close()


@pytest.fixture(scope="module")
def module_bus(nats_server) -> Iterator[BusSettings]:
    """One namespace for the module's api: starting an api per generated test would cost
    more than the test."""
    settings = BusSettings(nats_url=nats_server.url, namespace=f"t{uuid.uuid4().hex[:10]}")
    asyncio.run(_streams(settings, keep=True))
    yield settings
    asyncio.run(_streams(settings, keep=False))


@pytest.fixture(scope="module")
def api_url(module_bus):
    platform = FakePlatform()
    platform.add_run(owner="acme", project="demo")
    bus_settings = module_bus
    settings = ApiSettings(
        nats_url=bus_settings.nats_url,
        namespace=bus_settings.namespace,
        api_rpc_timeout=1.0,
        api_token=OPERATOR_TOKEN,
    )
    with api_in_thread(lambda: build_app(settings), bus_settings, platform) as url:
        yield url


schema = schemathesis.openapi.from_path(COMMITTED)


def not_a_server_error(ctx, response, case):
    """No 5xx except 503 (a service is unavailable, and the answer says so)."""
    if response.status_code >= 500 and response.status_code != 503:
        raise AssertionError(f"{response.status_code}: {response.text[:500]}")


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case, api_url):
    # Generated uuids name no run, so a stream answers 404 at once rather than staying open.
    case.call_and_validate(
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
        base_url=api_url,
        headers=OPERATOR,
        timeout=10,
    )


def _reaches(method: str, path: str) -> bool:
    """Whether a viewer of ``acme`` may call the route on ``acme/demo``."""
    permission = PERMISSIONS.get((method.upper(), path))
    if permission is None:  # a method the route does not have: a 405 for anyone
        return False
    if permission.scope in ("public", "signed_in"):
        return True
    keyed = path.startswith(("/api/public", "/v1/traces")) and "{owner}" not in path
    return permission.scope in ("project", "org") and permission.role <= Role.VIEWER and not keyed


# the routes a viewer does not reach: those it does are the operator's run's
beyond_a_viewer = schema.include(
    func=lambda ctx: not _reaches(ctx.operation.method, ctx.operation.path)
)


@beyond_a_viewer.parametrize()
@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
def test_a_role_without_the_permission_gets_no_2xx_and_no_5xx(case, api_url):
    for name, value in (("owner", "acme"), ("project", "demo"), ("org", "acme")):
        if case.path_parameters and name in case.path_parameters:
            case.path_parameters[name] = value
    response = case.call(base_url=api_url, headers=VIEWER, timeout=10)
    # a refusal, or a body too broken to read (answered before any permission check)
    assert 400 <= response.status_code < 500, (
        f"{case.method} {case.path}: {response.status_code} {response.text[:300]}"
    )
