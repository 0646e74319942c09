"""``/healthz``: the process is up and connected to NATS (no authentication)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

__all__ = ["router"]

router = APIRouter(tags=["health"])


@router.get(
    "/healthz",
    summary="Liveness and readiness",
    responses={503: {"description": "Not connected to NATS."}},
)
async def healthz(request: Request) -> JSONResponse:
    gateway = request.app.state.gateway
    if gateway is None or not gateway.nc.is_connected:
        return JSONResponse({"status": "unavailable", "nats": "disconnected"}, status_code=503)
    return JSONResponse({"status": "ok", "nats": "connected"})
