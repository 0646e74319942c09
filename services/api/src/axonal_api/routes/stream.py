"""``GET .../runs/{uuid}/logs/stream``: Server-Sent Events, stored lines then live ones.

The live subscription starts before the stored lines are read, so no line falls between
the two; lines already sent (by sequence) are skipped. The stream ends with a ``done``
event once the run is done (its ``run.done`` event, or a periodic check).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from nats.aio.msg import Msg
from pydantic import ValidationError

from axonal_api.deps import GatewayDep
from axonal_api.gateway import Gateway
from axonal_api.routes.runs import ERRORS, Owner, Project, RunUuid, get_run_checked
from axonal_events import DONE_STATUSES
from axonal_events.logs import LogBatch
from axonal_events.runs import GetRun, LogPage, ReadLogs, RunInfo

__all__ = ["router", "sse"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/runs", tags=["runs"], responses=ERRORS)

CHECK_EVERY = 2.0  # seconds without news before asking whether the run is done
PAGE = 1000


def sse(event: str, data: object) -> bytes:
    """One Server-Sent Event."""
    return f"event: {event}\ndata: {json.dumps(data, default=str)}\n\n".encode()


class _Follower:
    def __init__(self, gw: Gateway, run_uuid: str) -> None:
        self.gw = gw
        self.run_uuid = run_uuid
        self.queue: asyncio.Queue[Msg] = asyncio.Queue()
        self.last = 0
        self.attempt = 0

    async def stored(self) -> AsyncIterator[bytes | bool]:
        """Stored lines after ``last``; yields ``True`` at the end when the run is done."""
        while True:
            query = ReadLogs(run_uuid=self.run_uuid, after=self.last, limit=PAGE)
            page = await self.gw.call("scheduler", "logs", query, LogPage)
            for line in page.lines:
                self.last = max(self.last, line.seq)
                yield sse("log", line.model_dump(mode="json"))
            if len(page.lines) < PAGE:
                yield page.done
                return

    def live(self, msg: Msg) -> list[bytes]:
        try:
            batch = LogBatch.model_validate_json(msg.data)
        except ValidationError:
            return []
        self.attempt = max(self.attempt, batch.attempt)
        out = []
        for record in batch.records:
            if record.seq <= self.last:
                continue
            self.last = record.seq
            out.append(sse("log", record.model_dump(mode="json")))
        return out

    async def is_done(self) -> bool:
        run = await self.gw.call("scheduler", "get_run", GetRun(run_uuid=self.run_uuid), RunInfo)
        return run.status in DONE_STATUSES


async def _live(follower: _Follower, done: asyncio.Event) -> AsyncIterator[bytes]:
    """Live lines until the run is done, then whatever is still queued."""
    while not done.is_set():
        try:
            msg = await asyncio.wait_for(follower.queue.get(), CHECK_EVERY)
        except TimeoutError:
            if await follower.is_done():
                done.set()
            continue
        for chunk in follower.live(msg):
            yield chunk
    while not follower.queue.empty():
        for chunk in follower.live(follower.queue.get_nowait()):
            yield chunk


async def _events(gw: Gateway, run_uuid: str) -> AsyncIterator[bytes]:
    follower = _Follower(gw, run_uuid)
    done = asyncio.Event()

    async def on_log(msg: Msg) -> None:
        await follower.queue.put(msg)

    async def on_done(msg: Msg) -> None:
        with contextlib.suppress(ValueError):
            if json.loads(msg.data).get("subject") == run_uuid:
                done.set()

    subs = [
        await gw.nc.subscribe(gw.subjects.ingest(f"logs.{run_uuid}"), cb=on_log),
        await gw.nc.subscribe(gw.subjects.event("run.done"), cb=on_done),
    ]
    try:
        async for item in follower.stored():
            if isinstance(item, bytes):
                yield item
            elif item:
                done.set()
        async for chunk in _live(follower, done):
            yield chunk
        async for item in follower.stored():  # whatever the live feed missed
            if isinstance(item, bytes):
                yield item
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
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid
) -> StreamingResponse:
    """``event: log`` per line (``seq``, ``at``, ``stream``, ``line``), then ``event: done``."""
    await get_run_checked(gw, owner, project, run_uuid)
    return StreamingResponse(
        _events(gw, run_uuid),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
