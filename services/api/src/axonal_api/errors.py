"""Every failure becomes ``{"code": ..., "message": ...}`` with a fitting status, never a trace."""

from __future__ import annotations

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from axonal_api.gateway import CommandNotAcknowledged
from axonal_bus.errors import NoRespondersError, RemoteError, RpcTimeoutError
from axonal_events import ErrorCode

__all__ = [
    "HTTP_STATUS",
    "LANGFUSE_ERRORS",
    "LANGFUSE_SHAPED",
    "ApiError",
    "install_error_handlers",
    "remote_status",
]

log = structlog.get_logger(__name__)


class ApiError(Exception):
    """An error answered as is: ``status``, a stable ``code`` and a ``message`` for people."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        details: list[dict[str, str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers


#: The HTTP status of each error code a service answers with; the body keeps the code.
HTTP_STATUS: dict[ErrorCode, int] = {
    ErrorCode.INVALID: 400,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.INTERNAL: 502,  # the service failed, not the api
    ErrorCode.UNAVAILABLE: 503,
}

#: Paths whose refusals are answered as Langfuse answers them (``{"message", "error"}``),
#: with the error names its SDKs know.
LANGFUSE_SHAPED = (
    "/api/public/v2/prompts",
    "/api/public/v2/datasets",
    "/api/public/dataset",
    "/api/public/experiment",
)
LANGFUSE_ERRORS: dict[ErrorCode, str] = {
    ErrorCode.INVALID: "InvalidRequestError",
    ErrorCode.FORBIDDEN: "ForbiddenError",
    ErrorCode.NOT_FOUND: "LangfuseNotFoundError",
    ErrorCode.CONFLICT: "LangfuseConflictError",
}


def remote_status(exc: RemoteError) -> int:
    """The HTTP status of a service's error reply: by its code, never its message."""
    return HTTP_STATUS[exc.code]


def _body(
    code: str, message: str, details: list[dict[str, str]] | None = None
) -> dict[str, object]:
    body: dict[str, object] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return body


def install_error_handlers(app: FastAPI) -> None:
    """Map API, bus, validation and unexpected errors to JSON answers."""

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        body = _body(exc.code, exc.message, exc.details)
        return JSONResponse(body, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RemoteError)
    async def remote_error(request: Request, exc: RemoteError) -> JSONResponse:
        message, status = exc.remote_message, remote_status(exc)
        if request.url.path.startswith(LANGFUSE_SHAPED) and exc.code in LANGFUSE_ERRORS:
            body = {"message": message, "error": LANGFUSE_ERRORS[exc.code]}
            return JSONResponse(body, status_code=status)
        return JSONResponse(_body(exc.code, message), status_code=status)

    @app.exception_handler(RpcTimeoutError)
    @app.exception_handler(NoRespondersError)
    @app.exception_handler(CommandNotAcknowledged)
    async def unavailable(_: Request, exc: Exception) -> JSONResponse:
        message = f"{exc}; hint: check the platform with `axonal status`"
        return JSONResponse(_body("unavailable", message), status_code=503)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {
                "location": ".".join(str(p) for p in err.get("loc", ())),
                "message": str(err.get("msg", "")),
            }
            for err in exc.errors()
        ]
        return JSONResponse(_body("invalid", "the request is not valid", details), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {401: "unauthorized", 404: "not_found", 405: "method_not_allowed"}.get(
            exc.status_code, "http_error"
        )
        return JSONResponse(
            _body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("api.failed", path=request.url.path, error_type=type(exc).__name__)
        return JSONResponse(
            _body("internal", "the api could not complete the request; its log has the details"),
            status_code=500,
        )
