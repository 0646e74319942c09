"""A project of the embedded stack receiving LLM traces: its key, and reads of what it stored."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

PROJECT = "acme/tracing"


class TracedProject:
    """``acme/tracing`` with a fresh API key; reads through the public (Basic auth) api."""

    def __init__(self, stack: RunningStack, key: dict[str, Any]) -> None:
        self.stack = stack
        self.api_url = str(stack.status["api_url"])
        self.key = key
        self.auth = (key["public_key"], key["secret_key"])
        pair = f"{key['public_key']}:{key['secret_key']}".encode()
        self.authorization = "Basic " + base64.b64encode(pair).decode()
        self.http = httpx.Client(base_url=self.api_url, auth=self.auth, timeout=10)

    def trace(self, trace_id: str, observations: int, scores: int = 0) -> dict[str, Any]:
        """The stored trace once it has at least that many observations and scores."""

        def stored() -> dict[str, Any] | None:
            reply = self.http.get(f"/api/public/traces/{trace_id}")
            found: dict[str, Any] = reply.json() if reply.status_code == 200 else {}
            counts = (len(found.get("observations", [])), len(found.get("scores", [])))
            return found if counts >= (observations, scores) and found else None

        return wait_for_sync(stored, timeout=30, message=f"trace {trace_id} stored")

    def run_script(self, code: str, **env: str) -> dict[str, Any]:
        """Run ``code`` with the Axonal SDK configured by environment; its last JSON line."""
        base = {k: v for k, v in os.environ.items() if not k.startswith(("AXONAL_", "LANGFUSE_"))}
        keys = {
            "AXONAL_TRACING_URL": self.api_url,
            "AXONAL_PUBLIC_KEY": self.auth[0],
            "AXONAL_SECRET_KEY": self.auth[1],
        }
        result = subprocess.run(
            [sys.executable, "-c", code],
            env=base | keys | env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert "axonal.tracing:" not in result.stderr, result.stderr
        found: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
        return found


@pytest.fixture(scope="module")
def traced(stack: RunningStack) -> Iterator[TracedProject]:
    owner, name = PROJECT.split("/")
    with stack.http(timeout=10) as api:
        reply = api.post("/api/v1/projects", json={"owner": owner, "name": name})
        assert reply.status_code in (201, 409), reply.text
    created = stack.cli("keys", "create", "-p", PROJECT, "--json")
    assert created.returncode == 0, created.stderr
    project = TracedProject(stack, json.loads(created.stdout))
    try:
        yield project
    finally:
        project.http.close()


SDK_SCRIPT = r"""
import asyncio, json
from axonal import tracing

@tracing.observe(as_type="tool")
def lookup(city):
    return {"city": city, "celsius": 21}

@tracing.observe
def words(text):
    for word in text.split():
        yield word + " "

@tracing.observe
async def chunks():
    for i in range(2):
        yield {"chunk": i}

@tracing.observe
def broken():
    raise RuntimeError("tool timed out")

@tracing.observe(name="plan", as_type="agent")
async def plan(question):
    weather = lookup("Paris")
    with tracing.start_generation(
        "llm", model="gpt-4o-mini", model_parameters={"temperature": 0},
        input=[{"role": "user", "content": question}],
    ) as generation:
        generation.update(output="sunny", usage_details={"input": 1000, "output": 100})
    answer = "".join(words("it is sunny"))
    parts = [c async for c in chunks()]
    try:
        broken()
    except RuntimeError:
        pass
    tracing.update_current_trace(user_id="user-1", session_id="sess-1", tags=["sdk", "axonal"],
                                 metadata={"tenant": "acme"})
    tracing.score_current_trace("correctness", 0.9, comment="fine")
    tracing.score_current_span("helpful", 1, data_type="BOOLEAN")
    current = tracing.get_current_observation()
    return {"trace_id": current.trace_id, "plan_id": current.id, "answer": answer,
            "parts": len(parts), "celsius": weather["celsius"]}

print(json.dumps(asyncio.run(plan("weather in Paris?"))))
"""  # no explicit flush: spans and scores are sent at interpreter exit

RUN_UUID = "0" * 31 + "1"
OBSERVATIONS = 6  # plan, lookup, llm, words, chunks, broken


@pytest.fixture(scope="module")
def sdk_trace(traced: TracedProject) -> dict[str, Any]:
    """What the SDK script printed, and the stored trace once complete."""
    sent = traced.run_script(SDK_SCRIPT, AXONAL_RUN_UUID=RUN_UUID)
    return sent | {"stored": traced.trace(sent["trace_id"], observations=OBSERVATIONS, scores=2)}
