"""Prompt reads on the embedded stack: ``get_prompt`` by label over HTTP at 200 clients.

Prompt fetches sit on an application's request path (the Langfuse SDKs fetch a prompt when
their 60 s cache expires), so a read should cost little more than the api answering at all.
Starts a stack in a temporary home (``axonal up --detach`` on free ports), creates a project,
an API key and a text prompt labelled ``production``, then measures two reads with the same
200 concurrent clients (aiohttp, one keep-alive connection each), in alternating rounds so both see
the machine alike:

- the reference: ``GET /healthz``, a static JSON answer of the same api (no RPC);
- ``GET /api/public/v2/prompts/{name}?label=production`` with the project's key, as the SDK
  sends it: the api keeps a read for 10 s (dropped at once by a write of the project's
  prompts), so most reads are answered from it; the others ask the registry over NATS, which
  reads one indexed row.

Prints p50 and p99 of each and the prompt read's p99 against the target (at most twice the
reference's). Run: ``.venv/bin/python bench/registry.py``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import aiohttp
import httpx

from axonal_stack.ports import free_port
from axonal_testing.stack import start_stack, stop_stack

CLIENTS = 200
PER_CLIENT = 20
ROUNDS = 3
PROMPT = "support/answer"
TARGET_RATIO = 2.0


async def setup(api_url: str, token: str) -> tuple[str, str]:
    """A project, its key pair and the prompt (made as the stack's administrator)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=api_url, timeout=30, headers=headers) as api:
        reply = await api.post("/api/v1/projects", json={"owner": "bench", "name": "prompts"})
        reply.raise_for_status()
        key = await api.post("/api/v1/projects/bench/prompts/api-keys", json={})
        key.raise_for_status()
        auth = (key.json()["public_key"], key.json()["secret_key"])
        text = "You answer questions about {{product}} in {{language}}. Be brief and kind."
        body = {"name": PROMPT, "prompt": text, "labels": ["production"], "config": {"t": 0.2}}
        created = await api.post("/api/public/v2/prompts", json=body, auth=auth)
        created.raise_for_status()
    return auth


async def clients(api_url: str, path: str, auth: tuple[str, str] | None) -> list[float]:
    """Seconds of each request of ``CLIENTS`` clients sending ``PER_CLIENT`` each (aiohttp:
    a lighter client than httpx, so the figures are the server's more than the client's)."""
    headers = {"Authorization": aiohttp.encode_basic_auth(*auth)} if auth else {}
    connector = aiohttp.TCPConnector(limit=CLIENTS)
    async with aiohttp.ClientSession(api_url, connector=connector, headers=headers) as http:

        async def one_client() -> list[float]:
            times = []
            for _ in range(PER_CLIENT):
                start = time.perf_counter()
                async with http.get(path) as reply:
                    await reply.read()
                times.append(time.perf_counter() - start)
                reply.raise_for_status()
            return times

        done = await asyncio.gather(*(one_client() for _ in range(CLIENTS)))
    return [t for times in done for t in times]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def line(name: str, times: list[float]) -> None:
    print(f"  {name:<34} p50 {pct(times, 0.5):7.1f} ms   p99 {pct(times, 0.99):7.1f} ms"
          f"   (n={len(times)})")  # fmt: skip


async def measure(api_url: str, token: str) -> None:
    auth = await setup(api_url, token)
    prompt_path = f"/api/public/v2/prompts/{PROMPT.replace('/', '%2F')}?label=production"
    await clients(api_url, prompt_path, auth)  # warm-up: connections, the key's cache
    await clients(api_url, "/healthz", None)
    reference: list[float] = []
    prompt: list[float] = []
    for _ in range(ROUNDS):
        reference += await clients(api_url, "/healthz", None)
        prompt += await clients(api_url, prompt_path, auth)
    print(f"prompt reads on the embedded stack, {CLIENTS} concurrent clients, {ROUNDS} rounds")
    line("GET /healthz (static, reference)", reference)
    line("get_prompt by label", prompt)
    ratio = pct(prompt, 0.99) / pct(reference, 0.99)
    verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
    print(f"  p99 ratio {ratio:.2f}x the reference; target <= {TARGET_RATIO:g}x {verdict}")


def main() -> None:
    env = {f"AXONAL_{name}_PORT": str(free_port()) for name in ("NATS", "POSTGRES", "API")}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        stack = start_stack(home, env)
        try:
            asyncio.run(measure(stack.api_url, stack.admin_token))
        finally:
            stop_stack(home, env)


if __name__ == "__main__":
    main()
