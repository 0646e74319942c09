"""``Status`` objects: how the API server answers errors and some deletions.

A failed request is answered with a ``Status`` whose ``code`` is the HTTP status, ``reason``
a machine-readable cause and ``details`` the object concerned
(https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/status/). The codes
and reasons are those of the API conventions
(https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#http-status-codes):
404 NotFound, 409 AlreadyExists ("the resource ... already exists"), 422 Invalid ("the
requested create or update operation cannot be completed due to invalid data"), 400
BadRequest, 410 Gone (Expired).
"""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.resources import Resource

__all__ = ["ApiError", "already_exists", "bad_request", "expired", "invalid", "not_found"]


class ApiError(Exception):
    """An error the double answers with, as a ``Status`` object."""

    def __init__(self, status: dict[str, Any]) -> None:
        super().__init__(status["message"])
        self.status = status

    @property
    def code(self) -> int:
        """The HTTP status code."""
        return int(self.status["code"])


def failure(
    code: int, reason: str, message: str, details: dict[str, Any] | None = None
) -> ApiError:
    """A ``Status`` of ``status: Failure``."""
    body: dict[str, Any] = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }
    if details is not None:
        body["details"] = details
    return ApiError(body)


def success(res: Resource, name: str, uid: str) -> dict[str, Any]:
    """What deleting an object answers for types that do not return the deleted object."""
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": {"name": name, "group": res.group, "kind": res.plural, "uid": uid},
    }


def not_found(res: Resource, name: str) -> ApiError:
    """404 NotFound: ``jobs.batch "x" not found``."""
    details = {"name": name, "group": res.group, "kind": res.plural}
    return failure(404, "NotFound", f'{res.qualified} "{name}" not found', details)


def already_exists(res: Resource, name: str) -> ApiError:
    """409 AlreadyExists: ``jobs.batch "x" already exists``."""
    details = {"name": name, "group": res.group, "kind": res.plural}
    return failure(409, "AlreadyExists", f'{res.qualified} "{name}" already exists', details)


def invalid(res: Resource, name: str, field: str, cause: str, message: str) -> ApiError:
    """422 Invalid, with one cause: ``Job.batch "" is invalid: metadata.name: Required ...``."""
    qualified = f"{res.kind}.{res.group}" if res.group else res.kind
    details = {
        "name": name,
        "group": res.group,
        "kind": res.kind,
        "causes": [{"reason": cause, "message": message, "field": field}],
    }
    return failure(422, "Invalid", f'{qualified} "{name}" is invalid: {field}: {message}', details)


def bad_request(message: str) -> ApiError:
    """400 BadRequest with a message."""
    return failure(400, "BadRequest", message)


def expired(requested: int, oldest: int) -> ApiError:
    """410 Gone, reason Expired: the requested resourceVersion was compacted away.

    https://kubernetes.io/docs/reference/using-api/api-concepts/#410-gone-responses:
    "Servers are not required to serve all older resource versions and may return a HTTP
    410 (Gone) status code if a client requests a resourceVersion older than the server has
    retained." The message is etcd's ``too old resource version: <requested> (<oldest>)``.
    """
    return failure(410, "Expired", f"too old resource version: {requested} ({oldest})")
