"""The bounded buffer of metric points and the one background thread that sends them.

Points are batched (at most ``MAX_BATCH`` per batch, formed every ``INTERVAL`` seconds or as
soon as ``BATCH_TRIGGER`` are pending) and sent in order. While the backend fails, the thread
retries with exponential backoff and appends the batches to a spool file (their bodies then
live only there), so a dying process loses nothing; a later writer of the same run sends what a
spool file holds, with the same message ids, then deletes it. A backend throttling the project
(HTTP 429) is answered by waiting its ``Retry-After`` and sending the same batch again (same
message id: stored once).
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from axonal._transport import Refused, Sender, Throttled

__all__ = ["Writer"]

MAX_PENDING = 1_000_000
MAX_BATCH = 10_000
#: A batch stays under NATS' default 1 MiB payload even with long names (estimated size).
MAX_BATCH_BYTES = 900_000
BATCH_TRIGGER = 5_000
INTERVAL = 0.5
BACKOFF_START, BACKOFF_MAX = 0.2, 10.0

Point = tuple[str, int, float, float]  # name, step, value, unix time
#: ``repr`` of NaN and the infinities in the value slot, and how the wire spells them.
_NON_FINITE = (
    ('"value":nan', '"value":"NaN"'),
    ('"value":inf', '"value":"Infinity"'),
    ('"value":-inf', '"value":"-Infinity"'),
)


@dataclass
class _Batch:
    msg_id: str
    points: int
    body: bytes | None  # None once spooled: read back from ``line`` of the spool file
    line: tuple[int, int] = (0, 0)  # offset, length

    @property
    def spooled(self) -> bool:
        return self.body is None


class Writer:
    """Buffers points of one run and sends them from a daemon thread it starts."""

    def __init__(self, run_uuid: str, open_sender: Callable[[], Sender], spool_file: Path) -> None:
        self.run_uuid = run_uuid
        self.spool_file = spool_file
        self._open_sender = open_sender
        self._sender: Sender | None = None  # opened by the thread, on its first send
        self._writer_id = secrets.token_hex(8)
        self._seq = 0
        self._cond = threading.Condition(threading.RLock())  # reentrant: SIGTERM may flush
        self._buffer: deque[Point] = deque()
        self._forming = 0  # points taken from the buffer, not yet in ``_batches``
        self._batches: deque[_Batch] = deque()
        self._steps: dict[str, int] = {}
        self._nudged = False  # the thread was told a batch is due (reset when it takes one)
        self._flushers = 0
        self._spooling = False  # new batches go to the spool file too
        self._spool_used = False
        self._warned: set[str] = set()
        self._stopping = False
        self._delay = 0.0
        self._retry_at = 0.0
        self.throttled = 0  # batches the backend asked to send again later (HTTP 429)
        self._last_batch = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="axonal-metrics", daemon=True)
        self._thread.start()

    def log(self, values: Mapping[str, float], step: int | None) -> None:
        """Queue checked ``values``; without ``step``, each name's next step (from 0).

        Blocks while the buffer holds ``MAX_PENDING`` points, until the thread makes room.
        With a ``step`` and room, no lock is taken: appending to a deque is atomic, and the
        thread is woken once per batch.
        """
        at = time.time()
        buffer = self._buffer
        if step is None or len(buffer) + len(values) > MAX_PENDING:
            self._log_locked(values, step, at)
            return
        steps = self._steps
        for name, value in values.items():
            steps[name] = step + 1
            buffer.append((name, step, value, at))
        if len(buffer) >= BATCH_TRIGGER and not self._nudged:
            with self._cond:
                self._nudged = True
                self._cond.notify_all()

    def _log_locked(self, values: Mapping[str, float], step: int | None, at: float) -> None:
        with self._cond:
            while self._buffer and len(self._buffer) + len(values) > MAX_PENDING:
                self._cond.wait()
            for name, value in values.items():
                at_step = self._steps.get(name, 0) if step is None else step
                self._steps[name] = at_step + 1
                self._buffer.append((name, at_step, value, at))
            if len(self._buffer) >= BATCH_TRIGGER:
                self._cond.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait until every point logged so far is delivered, or spooled while the backend is
        unreachable; at the timeout, spool what is left. False if some point is neither.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            self._flushers += 1
            self._cond.notify_all()
            try:
                while not self._settled():
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        self._spool_rest()
                        break
                    self._cond.wait(remaining)
                return self._settled()
            finally:
                self._flushers -= 1

    def close(self, timeout: float = 30.0) -> None:
        """Flush, say on stderr what is not delivered, and stop the thread (at exit)."""
        flushed = self.flush(timeout)
        with self._cond:
            left = len(self._buffer) + self._forming + sum(b.points for b in self._batches)
            self._stopping = True
            self._cond.notify_all()
        if left and flushed:
            _warn(
                f"{left} metric points are not delivered yet; they stay in {self.spool_file} "
                "and are sent by the next process of this run"
            )
        elif left:
            _warn(f"{left} metric points could be neither delivered nor spooled")
        self._thread.join(1.0)

    # the background thread

    def _run(self) -> None:
        with self._cond:
            self._load_spool()
        try:
            while not self._stopping:
                if points := self._next_points():
                    self._add_batch(points)
                self._send_next()
        finally:
            if self._sender is not None:
                self._sender.close()

    def _next_points(self) -> list[Point]:
        """Wait until a batch is due or a send is; take the points of the next batch."""
        with self._cond:
            while not self._stopping:
                now = time.monotonic()
                due = self._last_batch + INTERVAL
                if self._buffer and (
                    len(self._buffer) >= BATCH_TRIGGER or self._flushers or now >= due
                ):
                    points = self._take()
                    self._forming = len(points)
                    return points
                if self._batches and now >= self._retry_at:
                    return []
                wake = due if self._buffer else now + INTERVAL
                if self._batches:
                    wake = min(wake, self._retry_at)
                self._cond.wait(wake - now)
            return []

    def _take(self) -> list[Point]:
        """Pop the points of one batch (under the lock); makes room for blocked loggers."""
        points: list[Point] = []
        size = 0
        while self._buffer and len(points) < MAX_BATCH and size < MAX_BATCH_BYTES:
            point = self._buffer.popleft()
            points.append(point)
            size += len(point[0]) + 80
        self._last_batch = time.monotonic()
        self._nudged = False
        self._cond.notify_all()
        return points

    def _add_batch(self, points: list[Point]) -> None:
        body = self._encode(points)  # outside the lock: loggers are not held up
        with self._cond:
            self._append(points, body)
            self._forming = 0
            self._cond.notify_all()

    def _append(self, points: list[Point], body: bytes) -> None:
        self._seq += 1
        msg_id = f"{self.run_uuid}:{self._writer_id}:{self._seq}"
        self._batches.append(_Batch(msg_id, len(points), body))
        if self._spooling:
            self._spool_pending()

    def _encode(self, points: list[Point]) -> bytes:
        """The batch as JSON, written directly: checked names and floats need no general
        encoder, and times share one millisecond-precision string per millisecond. NaN and the
        infinities, which JSON has no literal for, are written as the strings ``"NaN"``,
        ``"Infinity"`` and ``"-Infinity"`` (replaced in the whole body at once: a quoted name
        cannot hold ``"value":nan``).
        """
        last_ms, iso = -1, ""
        names: dict[str, str] = {}
        parts = []
        for name, step, value, at in points:
            ms = int(at * 1000)
            if ms != last_ms:
                last_ms = ms
                iso = datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")
            quoted = names.get(name) or names.setdefault(name, json.dumps(name))
            parts.append(f'{{"name":{quoted},"step":{step},"value":{value!r},"at":"{iso}"}}')
        body = f'{{"run_uuid":"{self.run_uuid}","points":[{",".join(parts)}]}}'
        for bare, spelled in _NON_FINITE:
            body = body.replace(bare, spelled)
        return body.encode()

    def _send_next(self) -> None:
        """Send the oldest batch if its retry is due; on failure, spool and back off."""
        with self._cond:
            if not self._batches or time.monotonic() < self._retry_at:
                return
            batch = self._batches[0]
        try:
            body = self._body(batch)
        except (OSError, ValueError, KeyError) as exc:
            _warn(f"a spooled batch {batch.msg_id} cannot be read back ({exc}); it is dropped")
            failure = None
        else:
            failure = self._try_send(batch, body)
        with self._cond:
            if isinstance(failure, Throttled):
                self.throttled += 1
                self._tell_once("throttled", f"the backend throttles this project ({failure})")
                self._retry_at = time.monotonic() + failure.retry_after
            elif failure is None:
                self._batches.popleft()  # only this thread removes batches
                self._delay, self._spooling = 0.0, False
                if self._spool_used and not any(b.spooled for b in self._batches):
                    self.spool_file.unlink(missing_ok=True)
                    self._spool_used = False
            else:
                self._spooling = True
                self._spool_pending()
                self._tell_once(
                    "unreachable",
                    f"the backend is unreachable ({failure}); spooling metrics to "
                    f"{self.spool_file} and retrying",
                )
                self._delay = min(self._delay * 2 or BACKOFF_START, BACKOFF_MAX)
                self._retry_at = time.monotonic() + self._delay
            self._cond.notify_all()

    def _try_send(self, batch: _Batch, body: bytes) -> Exception | None:
        """None when the batch is done with (delivered, or refused and dropped); else the error."""
        try:
            if self._sender is None:
                self._sender = self._open_sender()
            self._sender.send(batch.msg_id, body)
        except Refused as exc:
            _warn(f"the backend refused {batch.points} metric points ({exc}); they are dropped")
        except Exception as exc:  # noqa: BLE001 - whatever the transport raises is retried
            return exc
        return None

    # state helpers, called under the lock

    def _settled(self) -> bool:
        """Everything is delivered, or spooled while the backend is unreachable."""
        if self._buffer or self._forming:
            return False
        return not self._batches or (self._spooling and all(b.spooled for b in self._batches))

    def _spool_rest(self) -> None:
        """Batch and spool everything not delivered (a flush ran out of time)."""
        self._spooling = True
        while self._buffer:
            points = self._take()
            self._append(points, self._encode(points))
        self._spool_pending()

    def _spool_pending(self) -> None:
        """Append the batches not in the spool file to it, and drop their bodies."""
        todo = [b for b in self._batches if not b.spooled]
        if not todo:
            return
        lines: list[tuple[_Batch, bytes]] = [
            (b, b'{"msg_id":' + json.dumps(b.msg_id).encode() + b',"batch":' + b.body + b"}\n")
            for b in todo
            if b.body is not None
        ]
        try:
            self.spool_file.parent.mkdir(parents=True, exist_ok=True)
            with self.spool_file.open("ab") as spool:
                offset = spool.seek(0, os.SEEK_END)
                for _, line in lines:
                    spool.write(line)
                spool.flush()
                os.fsync(spool.fileno())
        except OSError as exc:
            self._tell_once("spool", f"cannot write the spool file {self.spool_file} ({exc})")
            return
        self._spool_used = True
        for batch, line in lines:
            batch.body, batch.line = None, (offset, len(line))
            offset += len(line)

    def _load_spool(self) -> None:
        """Queue the batches a previous process of this run left in the spool file."""
        try:
            spool = self.spool_file.open("rb")
        except FileNotFoundError:
            return
        with spool:
            offset = 0
            for line in spool:
                try:
                    item = json.loads(line)
                    batch = _Batch(item["msg_id"], len(item["batch"]["points"]), None)
                except (ValueError, KeyError, TypeError):
                    pass  # a line cut short when a process died
                else:
                    batch.line = (offset, len(line))
                    self._batches.append(batch)
                    self._spool_used = True
                offset += len(line)

    def _body(self, batch: _Batch) -> bytes:
        if batch.body is not None:
            return batch.body
        offset, length = batch.line
        with self.spool_file.open("rb") as spool:
            spool.seek(offset)
            item = json.loads(spool.read(length))
        if item["msg_id"] != batch.msg_id:
            raise ValueError("the spool file was changed by another process")
        return json.dumps(item["batch"], separators=(",", ":")).encode()

    def _tell_once(self, kind: str, message: str) -> None:
        if kind not in self._warned:
            self._warned.add(kind)
            _warn(message)


def _warn(message: str) -> None:
    print(f"axonal.tracking: {message}", file=sys.stderr, flush=True)
