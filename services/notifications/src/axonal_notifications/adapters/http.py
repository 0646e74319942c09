"""One POST to a receiver, timed and summarised as an outcome: the signed CloudEvent (a
webhook subscription or connection), or the JSON body a chat or PagerDuty connection
renders from it."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import aiohttp

from axonal_events import CATALOG
from axonal_events.webhooks import RESPONSE_EXCERPT_CHARS
from axonal_notifications.domain.deliveries import Job, Outcome
from axonal_notifications.domain.notifiers import http_body
from axonal_notifications.domain.secrets import redact
from axonal_notifications.domain.signing import signed_headers
from axonal_notifications.domain.targets import Resolver, TargetPolicy, TargetRefused, check_target

__all__ = ["CONTENT_TYPE", "Poster"]

CONTENT_TYPE = "application/cloudevents+json"
_EXCERPT_BYTES = RESPONSE_EXCERPT_CHARS * 4  # enough UTF-8 for the excerpt's characters


class Poster:
    """Sends HTTP jobs over one pooled client; never raises for a receiver's failure.

    Args:
        client: shared by every attempt (keeps connections to receivers alive); aiohttp, whose
            client costs a tenth of the CPU per request that httpx's does.
        timeout: seconds one attempt may take in all, response excerpt included.
        resolver: resolves the target's host for the SSRF check made before each attempt.
        policy: which targets may be reached.
    """

    def __init__(
        self,
        client: aiohttp.ClientSession,
        timeout: float,
        resolver: Resolver,
        policy: TargetPolicy,
    ) -> None:
        self.client = client
        self.timeout = timeout
        self.resolver = resolver
        self.policy = policy

    async def send(self, job: Job) -> Outcome:
        at = datetime.now(UTC)
        started = time.perf_counter()

        def outcome(
            code: int | None = None, excerpt: str = "", error: str | None = None
        ) -> Outcome:
            latency = (time.perf_counter() - started) * 1000
            error = None if error is None else redact(error, [job.url])
            return Outcome(job, at, round(latency, 3), code, excerpt, error)

        try:
            await check_target(job.url, self.resolver, self.policy)
        except TargetRefused as exc:
            return outcome(error=f"refused: {exc}")
        headers = {"user-agent": "axonal-webhooks/1"}
        if job.kind == "webhook":
            body = job.payload
            headers |= {"content-type": CONTENT_TYPE}
            headers |= signed_headers(job.secret, job.event_id, at, job.payload)
        else:
            try:
                body = http_body(job.kind, CATALOG.decode(job.payload), job.settings)
            except Exception as exc:  # noqa: BLE001 - recorded, never lost in a task
                return outcome(error=f"not rendered: {type(exc).__name__}: {exc}")
            headers |= {"content-type": "application/json"}
        try:
            async with asyncio.timeout(self.timeout):
                async with self.client.post(
                    job.url, data=body, headers=headers, allow_redirects=False
                ) as response:
                    body = await _head(response)
        except TimeoutError:
            return outcome(error=f"timeout: no complete response within {self.timeout:g}s")
        except Exception as exc:  # noqa: BLE001 - any failure is this attempt's outcome
            return outcome(error=f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        return outcome(response.status, _text(body, response.charset)[:RESPONSE_EXCERPT_CHARS])


async def _head(response: aiohttp.ClientResponse) -> bytes:
    """The start of the body (a receiver's long answer is not read to its end)."""
    body = b""
    while len(body) < _EXCERPT_BYTES:
        chunk = await response.content.read(_EXCERPT_BYTES - len(body))
        if not chunk:
            break
        body += chunk
    return body


def _text(body: bytes, charset: str | None) -> str:
    try:
        return body.decode(charset or "utf-8", errors="replace")
    except LookupError:  # a charset Python does not know
        return body.decode("utf-8", errors="replace")
