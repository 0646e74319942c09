"""Streams an attempt's output lines: to ``<folder>/logs.txt`` and, in batches, to the bus.

Batches (:class:`~axonal_events.logs.LogBatch`) go to ``ingest.logs.<run_uuid>`` with
``Nats-Msg-Id`` = ``<run_uuid>:<attempt>:<first seq>``, flushed every ``interval`` seconds or
at ``max_lines`` lines, whichever comes first.
"""

from __future__ import annotations

import asyncio
from collections import deque
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import structlog
from nats.js import JetStreamContext

from axonal_agent.domain.outcome import LAST_LINES
from axonal_bus.aio import cancel_and_wait, wait_event
from axonal_events import Subjects
from axonal_events.logs import LogBatch, LogRecord

__all__ = ["LogStream", "resume_point"]

log = structlog.get_logger(__name__)
_MAX_PENDING = 50_000  # lines held while the bus is away; older ones stay in logs.txt only


def resume_point(file: Path) -> tuple[int, datetime | None]:
    """How many lines ``file`` (an attempt's ``logs.txt``) holds and when the last came: where
    a stream of an attempt adopted after a restart goes on (``(0, None)`` without one)."""
    try:
        with file.open(encoding="utf-8", errors="replace") as lines:
            count, last = 0, ""
            for line in lines:
                count, last = count + 1, line
    except OSError:
        return 0, None
    try:
        return count, datetime.fromisoformat(last.split(" ", 1)[0])
    except ValueError:
        return count, None


class LogStream:
    """Collects lines (a :data:`~axonal_agent.ports.LogSink`) and publishes them in batches
    (``first_seq``: how many the attempt had before, when it is adopted)."""

    def __init__(
        self,
        js: JetStreamContext,
        subjects: Subjects,
        run_uuid: str,
        attempt: int,
        file: Path,
        *,
        interval: float = 0.1,
        max_lines: int = 200,
        first_seq: int = 0,
    ) -> None:
        self._js = js
        self._subject = subjects.ingest(f"logs.{run_uuid}")
        self.run_uuid, self.attempt = run_uuid, attempt
        self._interval, self._max_lines = interval, max_lines
        self._pending: list[LogRecord] = []
        self._seq = first_seq  # lines an earlier stream of the attempt numbered already
        self._full = asyncio.Event()
        self.last_lines: deque[str] = deque(maxlen=LAST_LINES)
        file.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = file.open("a", encoding="utf-8")
        self._task: asyncio.Task[None] | None = None

    def __call__(self, stream: str, line: str) -> None:
        self._seq += 1
        at = datetime.now(UTC)
        self._pending.append(LogRecord(seq=self._seq, at=at, stream=stream, line=line))
        self._file.write(f"{at.isoformat()} {stream} {line}\n")
        if stream != "agent":
            self.last_lines.append(line)
        if len(self._pending) >= self._max_lines:
            self._full.set()
        if len(self._pending) > _MAX_PENDING:
            del self._pending[: self._max_lines]

    @property
    def lines(self) -> int:
        """How many lines the attempt produced so far (the last ``seq``)."""
        return self._seq

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=f"logs-{self.run_uuid}")

    async def close(self) -> None:
        """Flush what is left and close the file."""
        if self._task is not None:
            await cancel_and_wait([self._task])
        for _ in range(3):
            if await self.flush():
                break
        self._file.close()

    async def flush(self) -> bool:
        """Publish pending lines; ``False`` if the bus refused (they are kept for a retry)."""
        self._file.flush()
        while self._pending:
            batch = self._pending[: self._max_lines]
            payload = LogBatch(run_uuid=self.run_uuid, attempt=self.attempt, records=batch)
            msg_id = f"{self.run_uuid}:{self.attempt}:{batch[0].seq}"  # retries store it once
            try:
                await self._js.publish(
                    self._subject,
                    payload.model_dump_json().encode(),
                    headers={"Nats-Msg-Id": msg_id},
                )
            except Exception as exc:  # noqa: BLE001 - logs.txt keeps them; never fail the run
                log.warning("logs.publish_failed", run_uuid=self.run_uuid, error=str(exc))
                return False
            del self._pending[: len(batch)]
        return True

    async def _loop(self) -> None:
        while True:
            await wait_event(self._full, self._interval)
            self._full.clear()
            await self.flush()
