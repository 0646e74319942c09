"""Scores sent in the background: ``POST /api/public/scores`` with a JSON array per batch.

:meth:`ScoreSender.add` never blocks: a full queue drops the score (reported once on stderr).
One daemon thread sends a batch when it holds 100 scores or is a second old; a batch the api
refuses with 429/5xx, or that cannot reach it, is tried 3 times, then dropped (reported once).
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

from axonal._trace_provider import TracingConfig, report_once

__all__ = ["SCORES_PATH", "ScoreSender"]

SCORES_PATH = "/api/public/scores"
_BATCH = 100
_INTERVAL = 1.0
_ATTEMPTS = 3


class ScoreSender:
    """A queue of score objects (camelCase, as the api reads them) and the thread sending them."""

    def __init__(self, config: TracingConfig, *, capacity: int = 10_000) -> None:
        self.config = config
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue(capacity)
        self._thread = threading.Thread(target=self._run, name="axonal-scores", daemon=True)
        self._thread.start()

    def add(self, score: dict[str, Any]) -> None:
        try:
            self._queue.put_nowait(score)
        except queue.Full:
            report_once("scores-full", "the score queue is full: scores are dropped")

    def flush(self) -> None:
        """Wait until every score queued so far was sent (or given up on)."""
        self._queue.join()

    def shutdown(self) -> None:
        self.flush()
        self._queue.put(None)
        self._thread.join(timeout=self.config.timeout)

    def _run(self) -> None:
        import httpx  # noqa: PLC0415 - loads with the first score thread, not with the SDK

        auth = self.config.authorization
        headers = {"Authorization": auth} if auth else {}
        with httpx.Client(
            base_url=self.config.url, headers=headers, timeout=self.config.timeout
        ) as http:
            while True:
                batch, stop = self._next_batch()
                try:
                    if batch:
                        self._send(http, batch)
                except Exception as exc:  # noqa: BLE001 - the thread must live on for flush()
                    report_once("scores-bug", f"cannot send scores: {exc!r}")
                for _ in range(len(batch) + stop):
                    self._queue.task_done()
                if stop:
                    return

    def _next_batch(self) -> tuple[list[dict[str, Any]], bool]:
        """Up to ``_BATCH`` scores, waiting at most ``_INTERVAL`` after the first; end reached?"""
        first = self._queue.get()
        if first is None:
            return [], True
        batch, deadline = [first], time.monotonic() + _INTERVAL
        while len(batch) < _BATCH:
            try:
                item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if item is None:
                return batch, True
            batch.append(item)
        return batch, False

    def _send(self, http: Any, batch: list[dict[str, Any]]) -> None:
        import httpx  # noqa: PLC0415

        where = self.config.url + SCORES_PATH
        if self.config.authorization is None:
            report_once("score-keys", "no project keys: scores are not sent")
            return
        for attempt in range(_ATTEMPTS):
            try:
                reply = http.post(SCORES_PATH, json=batch)
            except httpx.HTTPError as exc:
                problem = f"cannot send scores to {where}: {exc}"
            else:
                if reply.status_code < 400:
                    if reply.status_code == 207:
                        report_once("score-refused", f"some scores were refused: {reply.text}")
                    return
                problem = f"{where} answered {reply.status_code}: {reply.text[:200]}"
                if reply.status_code != 429 and reply.status_code < 500:
                    break
            if attempt + 1 < _ATTEMPTS:
                time.sleep(0.5 * 2**attempt)
        report_once("scores", f"{problem} (scores dropped)")
