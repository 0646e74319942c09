"""The Langfuse-compatible routes' error shapes, and the project of their API key."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from axonal_api.bodies import ErrorBody
from axonal_api.callers import Caller
from axonal_events.api_keys import KeyProject

__all__ = [
    "INGEST_RESPONSES",
    "READ_RESPONSES",
    "KeyProjectDep",
    "LangfuseErrorBody",
    "PublicError",
    "install_public_errors",
    "key_project",
]


class LangfuseErrorBody(BaseModel):
    """Errors of the ``/api/public`` routes, shaped as Langfuse answers them."""

    message: str
    error: str


_LANGFUSE: dict[str, object] = {"model": LangfuseErrorBody}
_AXONAL: dict[str, object] = {"model": ErrorBody}
#: Documented answers: Langfuse-shaped for auth and body errors, Axonal's for the rest.
INGEST_RESPONSES: dict[int | str, dict[str, object]] = {
    400: _LANGFUSE,
    401: _LANGFUSE,
    413: _LANGFUSE,
    415: _LANGFUSE,
    429: {**_LANGFUSE, "description": "Over the project's ingest rate: retry after Retry-After"},
    422: _AXONAL,
    503: _AXONAL,
}
READ_RESPONSES: dict[int | str, dict[str, object]] = {
    400: _AXONAL,
    401: _LANGFUSE,
    404: _AXONAL,
    422: _AXONAL,
    503: _AXONAL,
}


class PublicError(Exception):
    """An error answered the Langfuse way: ``{"message": ..., "error": ...}``."""

    def __init__(
        self, status: int, message: str, error: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error = error
        self.headers = headers


def install_public_errors(app: FastAPI) -> None:
    @app.exception_handler(PublicError)
    async def public_error(_: Request, exc: PublicError) -> JSONResponse:
        body = {"message": exc.message, "error": exc.error}
        headers = {"WWW-Authenticate": 'Basic realm="axonal"'} if exc.status == 401 else None
        return JSONResponse(body, status_code=exc.status, headers=exc.headers or headers)


async def key_project(request: Request) -> KeyProject:
    """The project of the request's API key (checked by :func:`axonal_api.access.enforce`)."""
    found: Caller | None = getattr(request.state, "caller", None)
    if found is None or found.key_project is None:
        raise PublicError(
            401,
            "this API takes a project API key (HTTP Basic publicKey:secretKey)",
            "UnauthorizedError",
        )
    return found.key_project


KeyProjectDep = Annotated[KeyProject, Depends(key_project)]
