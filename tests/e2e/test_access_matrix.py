"""The RBAC matrix: every route of the permission table, called by every kind of caller, answers
exactly what the table says, on the embedded stack (real identity service, real services).

The callers hold each role at the organization level, one holds a project role overriding its
organization role, one holds its roles through a team, others hold a project API key or a run
token (one project only), and one sends nothing. Each route is called on project ``a``; an
object id in the path names a real run of project ``b``, so a caller let in must still not
reach it.
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

import httpx
import pytest

from axonal_api.permissions import PERMISSIONS, Permission
from axonal_bus.run_tokens import issue_run_token
from axonal_events.principals import Role
from axonal_testing.stack import RunningStack

RUN = """\
version: 1.1
kind: component
name: matrix
run:
  kind: job
  container:
    image: python:3.11
    command: [python, -c, "print('ok')"]
"""
LANGFUSE = ("/api/public", "/v1/traces")
NO_ACCESS = "has no access to it"


@dataclass(frozen=True)
class Caller:
    """Who calls, with what, and the role the table should see in project ``a``."""

    label: str
    headers: dict[str, str]
    role_in_a: Role = Role.NONE
    org_role: Role = Role.NONE
    superuser: bool = False
    signed_in: bool = True
    name: str = ""  # a principal's own name (its tokens are its own)
    scoped: bool = False  # a project API key or a run token
    key: bool = False


@dataclass(frozen=True)
class World:
    org: str
    run_in_b: str
    callers: list[Caller]


def _grant(http: httpx.Client, org: str, name: str, role: str, project: str | None = None) -> None:
    path = (
        f"/api/v1/{org}/{project}/members/{name}"
        if project
        else f"/api/v1/orgs/{org}/members/{name}"
    )
    http.put(path, json={"role": role}).raise_for_status()


def _user(http: httpx.Client, name: str) -> dict[str, str]:
    http.post("/api/v1/principals", json={"name": name}).raise_for_status()
    made = http.post(f"/api/v1/principals/{name}/tokens", json={"name": "matrix"})
    made.raise_for_status()
    return {"Authorization": f"Bearer {made.json()['token']}"}


def _key(http: httpx.Client, org: str, role: str) -> dict[str, str]:
    """A key of project ``a`` acting as ``role``: its maker is an admin while making it (only
    admins make keys), then holds ``role``, which the key follows."""
    maker = f"{org}-{role}-keymaker"
    headers = _user(http, maker)
    _grant(http, org, maker, "admin", project="a")
    made = http.post(f"/api/v1/projects/{org}/a/api-keys", json={}, headers=headers)
    made.raise_for_status()
    _grant(http, org, maker, role, project="a")
    pair = f"{made.json()['public_key']}:{made.json()['secret_key']}"
    return {"Authorization": "Basic " + base64.b64encode(pair.encode()).decode()}


@pytest.fixture(scope="module")
def world(stack: RunningStack) -> World:
    org = f"rbac{secrets.token_hex(3)}"
    with stack.http(timeout=30) as http:
        for project in ("a", "b"):
            http.post("/api/v1/projects", json={"owner": org, "name": project}).raise_for_status()
        callers = [
            Caller(
                "admin", dict(http.headers), Role.OWNER, Role.OWNER, superuser=True, name="admin"
            )
        ]
        for role in ("owner", "admin", "member", "viewer", "none"):
            name = f"{org}-{role}"
            headers = _user(http, name)
            _grant(http, org, name, role)
            level = Role.named(role)
            callers.append(Caller(f"org {role}", headers, level, level, name=name))
        override = f"{org}-override"
        headers = _user(http, override)
        _grant(http, org, override, "viewer")
        _grant(http, org, override, "admin", project="a")
        callers.append(
            Caller("org viewer, project admin", headers, Role.ADMIN, Role.VIEWER, name=override)
        )
        teammate = f"{org}-teammate"  # its team: viewer in the org, admin in project a
        headers = _user(http, teammate)
        http.post(f"/api/v1/orgs/{org}/teams", json={"name": "core"}).raise_for_status()
        http.put(f"/api/v1/orgs/{org}/teams/core/members/{teammate}").raise_for_status()
        http.put(f"/api/v1/orgs/{org}/teams/core/role", json={"role": "viewer"}).raise_for_status()
        http.put(f"/api/v1/{org}/a/teams/core", json={"role": "admin"}).raise_for_status()
        callers.append(Caller("a team's member", headers, Role.ADMIN, Role.VIEWER, name=teammate))
        outsider = f"{org}-outsider"
        callers.append(Caller("outsider", _user(http, outsider), name=outsider))
        member_key = _key(http, org, "member")
        viewer_key = _key(http, org, "viewer")
        callers.append(Caller("member's key", member_key, Role.MEMBER, scoped=True, key=True))
        callers.append(Caller("viewer's key", viewer_key, Role.VIEWER, scoped=True, key=True))
        secret = (stack.home / "run-token.secret").read_text().strip()
        run_token = issue_run_token(secret, "0" * 32, f"{org}/a", timedelta(hours=1))
        callers.append(
            Caller("run token", {"Authorization": f"Bearer {run_token}"}, Role.MEMBER, scoped=True)
        )
        callers.append(Caller("nobody", {}, signed_in=False))
        made = http.post(
            f"/api/v1/{org}/b/runs", json={"content": RUN}, headers={"Idempotency-Key": org}
        )
        made.raise_for_status()
    return World(org, made.json()["uuid"], callers)


def _expected(permission: Permission, path: str, caller: Caller) -> int | None:
    """The refusal the table calls for (``None``: let in)."""
    if permission.scope == "public":
        return None
    if not caller.signed_in:
        return 401
    if permission.scope == "signed_in":
        return None
    if permission.scope == "self":  # the path names the caller itself (see _path)
        return None if caller.superuser or (caller.name and not caller.scoped) else 403
    if permission.scope == "superuser":
        return None if caller.superuser else 403
    if path.startswith(LANGFUSE) and "{owner}" not in path:
        if not caller.key:
            return 401
        return None if caller.role_in_a >= permission.role else 403
    held = caller.org_role if permission.scope == "org" else caller.role_in_a
    if held >= permission.role:
        return None
    if caller.scoped:
        return 403
    return 404 if held is Role.NONE else 403


def _path(template: str, world: World, caller: Caller) -> str:
    values = {
        "owner": world.org,
        "project": "a",
        "org": world.org,
        "uuid": world.run_in_b,
        "name": caller.name or "nobody",
        "team": "core",
    }
    return re.sub(r"\{(\w+)(?::path)?\}", lambda m: values.get(m.group(1), "matrix-x"), template)


#: Deleting the project goes last: it removes project ``a`` for every route after it.
ROUTES = sorted(PERMISSIONS, key=lambda r: r == ("DELETE", "/api/v1/projects/{owner}/{project}"))


def test_every_route_answers_every_caller_as_the_permission_table_says(
    stack: RunningStack, world: World
) -> None:
    wrong: list[str] = []
    with httpx.Client(base_url=stack.api_url, timeout=10) as http:
        for method, template in ROUTES:
            permission = PERMISSIONS[(method, template)]
            for caller in world.callers:
                path = _path(template, world, caller)
                body = {} if method in {"POST", "PUT", "PATCH"} else None
                try:
                    reply = http.request(method, path, json=body, headers=caller.headers)
                except httpx.ReadTimeout:  # a stream let in stays open
                    continue
                refused = _expected(permission, template, caller)
                status = reply.status_code
                if refused is None:
                    denied = status in (401, 403) or (status == 404 and NO_ACCESS in reply.text)
                    leaked = status == 200 and "{uuid}" in template and method == "GET"
                    if denied or leaked:
                        wrong.append(
                            f"{caller.label}: {method} {template} -> {status} {reply.text[:120]}"
                        )
                elif status != refused:
                    wrong.append(
                        f"{caller.label}: {method} {template} -> {status}, expected {refused}: "
                        f"{reply.text[:120]}"
                    )
    assert not wrong, "\n".join(wrong)
