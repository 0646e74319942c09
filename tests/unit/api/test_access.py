"""The permission table is complete and central: an undeclared route fails ``build_app`` and is
refused at request time; roles resolve as the table expects."""

from __future__ import annotations

import pytest
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient

from axonal_api import access
from axonal_api.app import build_app
from axonal_api.callers import Caller
from axonal_api.permissions import PERMISSIONS, Permission
from axonal_api.settings import ApiSettings
from axonal_events.principals import Principal, Role


def test_every_route_of_the_api_declares_a_permission() -> None:
    app = build_app(ApiSettings(api_web_dir=""), connect=False)
    documented = {(m.upper(), p) for p, ops in app.openapi()["paths"].items() for m in ops}
    assert documented == set(PERMISSIONS)


def test_a_route_without_a_declared_permission_cannot_be_registered() -> None:
    app = build_app(ApiSettings(api_web_dir=""), connect=False)

    @app.get("/api/v1/{owner}/{project}/undeclared")
    async def undeclared() -> dict[str, str]:
        return {}

    app.openapi_schema = None
    with pytest.raises(RuntimeError, match="undeclared"):
        access.check_permissions(app)


def test_a_permission_for_a_route_that_does_not_exist_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = FastAPI()
    stale = {("GET", "/api/v1/gone"): Permission("signed_in")}
    monkeypatch.setattr(access, "PERMISSIONS", stale)
    with pytest.raises(RuntimeError, match="/api/v1/gone"):
        access.check_permissions(app)


def test_an_undeclared_route_is_refused_at_request_time() -> None:
    app = FastAPI(dependencies=[Depends(access.enforce)])

    @app.get("/api/v1/sneaky")
    async def sneaky() -> dict[str, str]:
        return {"leaked": "yes"}

    from axonal_api.errors import install_error_handlers  # noqa: PLC0415

    install_error_handlers(app)
    reply = TestClient(app).get("/api/v1/sneaky")
    assert reply.status_code == 403
    assert "declares no permission" in reply.json()["message"]


def test_a_project_role_overrides_the_organization_role() -> None:
    principal = Principal(
        id="1",
        name="ada",
        kind="user",
        org_roles={"acme": "viewer", "beta": "admin"},
        project_roles={"acme/core": "admin", "beta/secret": "none"},
    )
    caller = Caller("ada", "token", principal)
    assert caller.role_in("acme/core") is Role.ADMIN
    assert caller.role_in("acme/other") is Role.VIEWER
    assert caller.role_in("beta/secret") is Role.NONE
    assert caller.role_in("beta/open") is Role.ADMIN
    assert caller.role_in("gamma/any") is Role.NONE
    assert caller.role_in_org("beta") is Role.ADMIN


def test_a_key_or_run_token_holds_its_own_project_only() -> None:
    key = Caller("key:pk", "key", scope="acme/core", scoped_role=Role.MEMBER)
    assert key.role_in("acme/core") is Role.MEMBER
    assert key.role_in("acme/other") is Role.NONE
    assert key.role_in_org("acme") is Role.NONE
    root = Caller("root", "root", Principal(id="r", name="r", kind="service", superuser=True))
    assert root.role_in("any/thing") is Role.OWNER
