"""The api as ``python -m axonal_api`` serves it, but without its access checks: a benchmark's
reference only, to measure what authentication and authorization cost.

Every request acts as a project API key of ``BENCH_PROJECT`` (``id owner/name``), with no
credential read or checked: ``access.enforce`` is replaced through FastAPI's
``dependency_overrides``. Settings as the api's (``AXONAL_API_PORT``, ``AXONAL_NATS_URL``...).
"""

from __future__ import annotations

import os

import uvicorn
from fastapi import Request

from axonal_api.access import enforce
from axonal_api.app import build_app
from axonal_api.callers import Caller
from axonal_api.settings import ApiSettings
from axonal_bus.loop import tune_gc
from axonal_events.api_keys import KeyProject
from axonal_events.principals import Role


def main() -> None:
    project_id, slug = os.environ["BENCH_PROJECT"].split()
    owner, _, name = slug.partition("/")
    caller = Caller(
        "bench",
        "key",
        scope=slug,
        scoped_role=Role.OWNER,
        key_project=KeyProject(id=project_id, owner=owner, name=name),
    )

    async def unchecked(request: Request) -> None:
        request.state.caller = caller

    settings = ApiSettings()
    app = build_app(settings)
    app.dependency_overrides[enforce] = unchecked
    tune_gc()  # as the api does
    uvicorn.run(
        app, host=settings.api_host, port=settings.api_port, log_level="warning", access_log=False
    )


if __name__ == "__main__":
    main()
