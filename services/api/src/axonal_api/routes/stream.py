"""``GET .../runs/{uuid}/logs/stream``: Server-Sent Events of a run's stored log lines.

Lines are always read from the scheduler's store, so every ``seq`` is the run's own line
number (across attempts) and a client resumes with ``Last-Event-ID``. A log batch on the bus
or the run's ``run.done`` event only wakes the reader; without news it checks every few
seconds. The stream ends with a ``done`` event once the run is done and every line its agent
counted is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Header
from fastapi.responses import StreamingResponse
from nats.aio.msg import Msg

from axonal_api.deps import GatewayDep
from axonal_api.gateway import Gateway
from axonal_api.routes.runs import ERRORS, Owner, Project, RunUuid, get_run_checked
from axonal_bus.aio import wait_event
from axonal_events.rpcs import Scheduler
from axonal_events.runs import ReadLogs

__all__ = ["router", "sse"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/runs", tags=["runs"], responses=ERRORS)

CHECK_EVERY = 2.0  # seconds without news before reading again
RETRY_SOON = 0.1  # news came but the lines were not stored yet
PAGE = 1000


def sse(event: str, data: object, event_id: int | None = None) -> bytes:
    """One Server-Sent Event."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, default=str)}\n\n".encode()


class _Reader:
    """Stored lines after ``last``, page by page; ``complete`` once the scheduler says done."""

    def __init__(self, gw: Gateway, run_uuid: str, last: int) -> None:
        self.gw, self.run_uuid, self.last = gw, run_uuid, last
        self.complete = False

    async def read(self) -> AsyncIterator[bytes]:
        while True:
            query = ReadLogs(run_uuid=self.run_uuid, after=self.last, limit=PAGE)
            page = await self.gw.call(Scheduler.logs, query)
            for line in page.lines:
                self.last = max(self.last, line.seq)
                yield sse("log", line.model_dump(mode="json"), line.seq)
            if len(page.lines) < PAGE:
                self.complete = page.done
                return


async def _events(gw: Gateway, run_uuid: str, last: int) -> AsyncIterator[bytes]:
    reader = _Reader(gw, run_uuid, last)
    news = asyncio.Event()

    async def on_log(_: Msg) -> None:
        news.set()

    async def on_done(msg: Msg) -> None:
        with contextlib.suppress(ValueError):
            if json.loads(msg.data).get("subject") == run_uuid:
                news.set()

    subs = [  # before the first read: nothing falls between the two
        await gw.nc.subscribe(gw.subjects.ingest(f"logs.{run_uuid}"), cb=on_log),
        await gw.nc.subscribe(gw.subjects.event("run.done"), cb=on_done),
    ]
    try:
        pending = False  # news came that the store did not show yet: look again soon
        while True:
            news.clear()
            before = reader.last
            async for chunk in reader.read():
                yield chunk
            if reader.complete:
                break
            pending = pending and reader.last == before
            await wait_event(news, RETRY_SOON if pending else CHECK_EVERY)
            pending = pending or news.is_set()
        yield sse("done", {"run_uuid": run_uuid})
    except Exception as exc:  # noqa: BLE001 - a stream cannot change its status any more
        yield sse("error", {"code": "unavailable", "message": str(exc)})
    finally:
        for sub in subs:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()


@router.get(
    "/{run_uuid}/logs/stream",
    summary="Follow a run's logs (Server-Sent Events)",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}}}},
)
async def stream_logs(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    last_event_id: Annotated[int, Header(ge=0, description="Resume after this line.")] = 0,
) -> StreamingResponse:
    """``event: log`` per line (``seq``, ``at``, ``stream``, ``line``), then ``event: done``."""
    await get_run_checked(gw, owner, project, run_uuid)
    return StreamingResponse(
        _events(gw, run_uuid, last_event_id),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
