"""The embedded stack as a Langfuse server: a project, an API key from the CLI, HTTP helpers."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from axonal_testing.conformance import project_fixtures
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync


class LangfuseServer:
    """The stack's api seen by a Langfuse client: Basic auth with a project key."""

    def __init__(self, stack: RunningStack, keys: dict[str, Any]) -> None:
        self.stack = stack
        self.keys = keys
        self.env = keys["env"]
        auth = (self.env["LANGFUSE_PUBLIC_KEY"], self.env["LANGFUSE_SECRET_KEY"])
        self.http = httpx.Client(base_url=self.env["LANGFUSE_BASE_URL"], auth=auth, timeout=10)

    def get(self, path: str, **params: Any) -> Any:
        reply = self.http.get(path, params=params)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def trace(self, trace_id: str, observations: int = 0, scores: int = 0) -> dict[str, Any]:
        """The trace once it has at least that many observations and scores."""

        def stored() -> dict[str, Any] | None:
            reply = self.http.get(f"/api/public/traces/{trace_id}")
            if reply.status_code != 200:
                return None
            found: dict[str, Any] = reply.json()
            enough = len(found["observations"]) >= observations and len(found["scores"]) >= scores
            return found if enough else None

        return wait_for_sync(stored, timeout=30, message=f"trace {trace_id} stored")

    def run_sdk(self, code: str, *args: str) -> dict[str, Any]:
        """Run ``code`` (with ``args``) with the unmodified Langfuse SDK in a child process;
        its JSON output."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGFUSE_", "OTEL_"))}
        result = subprocess.run(
            [sys.executable, "-c", code, *args],
            env=env | self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        found: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
        return found


@pytest.fixture(scope="module")
def langfuse(stack: RunningStack) -> Iterator[LangfuseServer]:
    api = stack.http(timeout=10)
    reply = api.post("/api/v1/projects", json={"owner": "acme", "name": "llm"})
    assert reply.status_code in (201, 409), reply.text
    created = stack.cli("keys", "create", "-p", "acme/llm", "--json")
    assert created.returncode == 0, created.stderr
    server = LangfuseServer(stack, json.loads(created.stdout))
    try:
        yield server
    finally:
        server.http.close()
        api.close()


def fixture(name: str) -> dict[str, Any]:
    """One Langfuse request of ``tests/fixtures/langfuse``: body and expected response."""
    found: dict[str, Any] = json.loads((project_fixtures() / "langfuse" / name).read_text())
    return found


def with_fresh_ids(body: dict[str, Any]) -> dict[str, Any]:
    """An ingestion batch with new ids, so a test can run against a stack that saw it before."""
    body = copy.deepcopy(body)
    fresh: dict[str, str] = {}

    def renamed(value: str) -> str:
        return fresh.setdefault(value, str(uuid.uuid4()))

    for event in body["batch"]:
        event["id"] = renamed(event["id"])
        for key in ("id", "traceId", "parentObservationId", "observationId"):
            if key in event["body"]:
                event["body"][key] = renamed(event["body"][key])
    return body
