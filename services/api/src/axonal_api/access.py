"""Central enforcement of :data:`~axonal_api.permissions.PERMISSIONS` on every API route.

:func:`enforce` runs before every route's own dependencies: it finds the caller and checks the
role the route needs in its project or organization. A caller with no role at all in a project
gets a 404, so that a project's existence does not leak; a scoped credential (a project API key
or a run token) used elsewhere, or a role too low, gets a 403. :func:`check_permissions` makes
``build_app`` fail for a route without a declared permission.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.security import APIKeyCookie, HTTPBasic, HTTPBearer

from axonal_api.callers import SESSION_COOKIE, Caller, Unauthenticated, caller_of
from axonal_api.errors import ApiError
from axonal_api.permissions import PERMISSIONS, Permission
from axonal_api.public_auth import PublicError
from axonal_events.principals import Role

__all__ = ["CallerDep", "caller", "check_permissions", "enforce", "refusal"]

_LANGFUSE_PREFIXES = ("/api/public", "/v1/traces")
_LOGIN_HINT = (
    "sign in: `axonal login`, or send 'Authorization: Bearer <token>' "
    "(or HTTP Basic publicKey:secretKey with a project API key)"
)
_NAMES = {401: ("unauthorized", "UnauthorizedError"), 403: ("forbidden", "ForbiddenError")}
_NAMES[404] = ("not_found", "NotFoundError")


def refusal(request: Request, status: int, message: str) -> Exception:
    code, langfuse_name = _NAMES[status]
    if request.url.path.startswith(_LANGFUSE_PREFIXES):
        return PublicError(status, message, langfuse_name)
    return ApiError(status, code, message)


def _declared(request: Request) -> Permission | None:
    route = request.scope.get("route")
    path = getattr(route, "path_format", None)
    method = "GET" if request.method == "HEAD" else request.method
    return PERMISSIONS.get((method, path)) if path else None


# Declared for the OpenAPI document only: :func:`caller_of` reads the credentials itself.
_BEARER = HTTPBearer(auto_error=False, description="A user's, service's or run's token.")
_BASIC = HTTPBasic(auto_error=False, description="A project API key: publicKey:secretKey.")
_COOKIE = APIKeyCookie(name=SESSION_COOKIE, auto_error=False, description="The web UI's session.")


async def enforce(
    request: Request,
    _bearer: Annotated[object, Depends(_BEARER)],
    _basic: Annotated[object, Depends(_BASIC)],
    _session: Annotated[object, Depends(_COOKIE)],
) -> None:
    """Refuse the request unless its caller holds the permission its route declares."""
    permission = _declared(request)
    if permission is None:
        raise refusal(request, 403, "this route declares no permission: nobody may call it")
    if permission.scope == "public":
        return
    try:
        found = await caller_of(request)
    except Unauthenticated as exc:
        message = f"{exc}; {_LOGIN_HINT}" if exc.status == 401 else str(exc)
        raise refusal(request, exc.status, message) from None
    request.state.caller = found
    if permission.scope == "signed_in":
        return
    if permission.scope == "self":
        name = request.path_params.get("name")
        if found.superuser or (found.principal is not None and found.principal.name == name):
            return
        raise refusal(request, 403, f"{found.name} may manage its own tokens only")
    if permission.scope == "superuser":
        if not found.superuser:
            raise refusal(request, 403, f"{found.name} is not a superuser; this needs one")
        return
    if permission.scope == "org":
        org = str(request.path_params.get("org", ""))
        _check(request, found, found.role_in_org(org), permission.role, f"organization {org}")
        return
    project = _project(request, found)
    _check(request, found, found.role_in(project), permission.role, f"project {project}", project)


def _project(request: Request, found: Caller) -> str:
    params = request.path_params
    if "owner" in params and "project" in params:
        return f"{params['owner']}/{params['project']}"
    if found.key_project is None:
        raise refusal(
            request, 401, "this API takes a project API key (HTTP Basic publicKey:secretKey)"
        )
    return f"{found.key_project.owner}/{found.key_project.name}"


def _check(
    request: Request,
    found: Caller,
    role: Role,
    needed: Role,
    where: str,
    project: str | None = None,
) -> None:
    if role >= needed:
        return
    if found.scope is not None and found.scope != project:
        credential = "API key" if found.via == "key" else "run token"
        raise refusal(request, 403, f"this {credential} is valid for project {found.scope} only")
    if role is Role.NONE:
        raise refusal(request, 404, f"{where} does not exist, or {found.name} has no access to it")
    raise refusal(
        request, 403, f"{found.name} is {role.label} in {where}; this needs {needed.label}"
    )


async def caller(request: Request) -> Caller:
    """The caller :func:`enforce` found (every route but the public ones has one)."""
    found: Caller = request.state.caller
    return found


CallerDep = Annotated[Caller, Depends(caller)]


def check_permissions(app: FastAPI) -> None:
    """Fail unless every documented route of ``app`` declares a permission, and every
    declared permission names a route."""
    routes = {
        (method.upper(), path)
        for path, operations in app.openapi()["paths"].items()
        for method in operations
    }
    if missing := sorted(routes - PERMISSIONS.keys()):
        raise RuntimeError(f"routes without a declared permission: {missing}")
    if stale := sorted(PERMISSIONS.keys() - routes):
        raise RuntimeError(f"permissions declared for routes that do not exist: {stale}")
