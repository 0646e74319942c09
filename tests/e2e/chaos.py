"""Load for the chaos tests: a steady stream of metric points, each batch posted until the
api acknowledges it, keeping account of what was acknowledged."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, datetime

import asyncpg
import httpx

__all__ = ["MetricStream", "stored_steps"]

PER_BATCH = 25
METRIC = "chaos"


class MetricStream(threading.Thread):
    """Posts a batch of ``PER_BATCH`` new points of ``chaos`` every ``pause`` seconds to a
    run, to each api in turn, until :meth:`finish`.

    A batch that is not answered 202 is posted again (to the next api) with the same
    ``Idempotency-Key``, as the SDK does, until it is: ``acked`` holds the batches the api
    acknowledged, ``retries`` counts the posts that were not, ``given_up`` the batch the
    stream was finished on before it was acknowledged (it may be stored or not).
    """

    def __init__(
        self, api_urls: list[str], token: str, path: str, run_uuid: str, pause: float = 0.02
    ) -> None:
        super().__init__(name="metric-stream", daemon=True)
        self.api_urls = api_urls
        self.headers = {"Authorization": f"Bearer {token}"}
        self.path = path
        self.run_uuid = run_uuid
        self.pause = pause
        self.acked: list[int] = []
        self.retries = 0
        self.errors: list[str] = []
        self.given_up: list[int] = []
        self._done = threading.Event()

    @property
    def points(self) -> int:
        return len(self.acked) * PER_BATCH

    def body(self, number: int) -> dict[str, object]:
        at = datetime.now(UTC).isoformat()
        steps = range(number * PER_BATCH, (number + 1) * PER_BATCH)
        points = [{"name": METRIC, "step": s, "value": float(s), "at": at} for s in steps]
        return {"run_uuid": self.run_uuid, "points": points}

    def run(self) -> None:
        clients = [
            httpx.Client(base_url=url, headers=self.headers, timeout=10) for url in self.api_urls
        ]
        try:
            number = 0
            while not self._done.is_set():
                self._post(clients, number)
                number += 1
                self._done.wait(self.pause)
        finally:
            for client in clients:
                client.close()

    def _post(self, clients: list[httpx.Client], number: int) -> None:
        """Post batch ``number`` until it is acknowledged (or the stream is finished)."""
        body, key = self.body(number), f"chaos-{self.run_uuid}-{number}"
        attempt = number
        while True:
            client = clients[attempt % len(clients)]
            attempt += 1
            try:
                reply = client.post(self.path, json=body, headers={"Idempotency-Key": key})
            except httpx.HTTPError as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
            else:
                if reply.status_code == 202:
                    self.acked.append(number)
                    return
                self.errors.append(f"HTTP {reply.status_code}: {reply.text[:200]}")
            self.retries += 1
            if self._done.wait(0.1):
                self.given_up.append(number)
                return

    def wait_acked(self, more: int, timeout: float = 60) -> None:
        """Until ``more`` batches than now are acknowledged."""
        target, deadline = len(self.acked) + more, time.monotonic() + timeout
        while len(self.acked) < target:
            if time.monotonic() > deadline or not self.is_alive():
                raise AssertionError(
                    f"{len(self.acked)} of {target} batches acknowledged; last errors: "
                    f"{self.errors[-3:]}"
                )
            time.sleep(0.05)

    def finish(self) -> None:
        """Stop after the batch under way (acknowledged, or given up while finishing)."""
        self._done.set()
        if self.is_alive():
            self.join(30)


def stored_steps(database_url: str, run_uuid: str) -> list[int]:
    """The steps of ``chaos`` stored for the run, a row each (straight from the database)."""

    async def fetch() -> list[int]:
        conn = await asyncpg.connect(database_url, timeout=5)
        try:
            rows = await conn.fetch(
                "SELECT step FROM tracking.metric_points WHERE run_uuid = $1 AND name = $2",
                run_uuid,
                METRIC,
            )
        finally:
            await conn.close()
        return [row["step"] for row in rows]

    return asyncio.run(fetch())
