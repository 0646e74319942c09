"""A laptop's view of the embedded stack: SDK scripts in child processes, reads over HTTP."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nats
import pytest

from axonal_events import StreamKind, Subjects
from axonal_testing.bus import drained
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

PROJECT = "acme/sdk"


class Laptop:
    """Runs SDK code as a user's script would, and reads what the api then says."""

    def __init__(self, stack: RunningStack, home: Path) -> None:
        self.stack = stack
        self.home = home
        self.api_url = str(stack.status["api_url"])
        self.http = stack.http(timeout=10)
        self.runs = f"/api/v1/{PROJECT}/runs"

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
        env |= {
            "AXONAL_HOME": str(self.home),
            "AXONAL_API_URL": self.api_url,
            "AXONAL_API_TOKEN": self.stack.admin_token,  # a user's token, as from `axonal login`
        }
        return env | extra

    def script(self, code: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code, *args],
            env=self.env(**env),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    def get(self, run_uuid: str, tail: str = "", **params: Any) -> Any:
        reply = self.http.get(f"{self.runs}/{run_uuid}{tail}", params=params)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def points(self, run_uuid: str, name: str, total: int) -> dict[str, Any]:
        """The series ``name`` once the tracking service stored ``total`` points of it."""

        def stored() -> dict[str, Any] | None:
            for series in self.get(run_uuid, "/metrics", name=name)["series"]:
                if series["total"] >= total:
                    return dict(series)
            return None

        return wait_for_sync(stored, timeout=30, message=f"{total} points of {name}")

    def metrics_settled(self) -> None:
        """Wait until the tracking service took and acknowledged every metric batch sent."""

        async def settled() -> bool:
            nc = await nats.connect(self.stack.nats_url)
            try:
                stream = Subjects().stream_name(StreamKind.INGEST)
                return await drained(nc.jetstream(), stream, "tracking-metrics")
            finally:
                await nc.close()

        wait_for_sync(lambda: asyncio.run(settled()), timeout=30, message="batches acknowledged")


@pytest.fixture
def laptop(stack: RunningStack, tmp_path: Path) -> Iterator[Laptop]:
    user = Laptop(stack, tmp_path)
    try:
        yield user
    finally:
        user.http.close()
