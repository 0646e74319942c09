"""Where metric batches go: JetStream (inside the platform) or the api over HTTP.

Senders are built and used only by the background writer thread, which is why ``nats`` and
``httpx`` are imported inside them: ``import axonal.tracking`` stays standard-library only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, ParamSpec, Protocol, TypeVar

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Callable
    from concurrent.futures import ThreadPoolExecutor

    import httpx
    from nats.aio.client import Client

P = ParamSpec("P")
T = TypeVar("T")

__all__ = [
    "Destination",
    "HttpSender",
    "NatsSender",
    "Refused",
    "Sender",
    "Throttled",
    "destination_from_env",
]

SEND_TIMEOUT = 10.0


class Refused(Exception):
    """The backend refused a batch for good (sending it again would not help)."""


class Throttled(Exception):
    """The backend asks to send again in ``retry_after`` seconds (HTTP 429, a project's rate)."""

    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Sender(Protocol):
    def send(self, msg_id: str, body: bytes) -> None:
        """Deliver one batch durably; :class:`Refused` to drop it, any other error to retry."""

    def close(self) -> None:
        """Release connections."""


@dataclass(frozen=True)
class Destination:
    """Where this process sends its batches, decided once from the environment."""

    run_uuid: str
    nats_url: str | None = None
    namespace: str = "axonal"
    api_url: str | None = None
    project: str = ""
    token: str | None = None

    def open(self) -> Sender:
        """A sender for this destination (called in the writer thread)."""
        if self.nats_url:
            subject = f"{self.namespace}.ingest.metrics.{self.run_uuid}"
            # the reply inbox of the bus's `run` user (axonal_events Subjects.inbox_prefix)
            return NatsSender(self.nats_url, subject, f"_INBOX_{self.namespace}_run")
        url = f"{self.api_url}/api/v1/{self.project}/runs/{self.run_uuid}/metrics"
        return HttpSender(url, self.token)


def destination_from_env(run_uuid: str) -> Destination | None:
    """JetStream when ``AXONAL_NATS_URL`` is set, else the api at ``AXONAL_API_URL``, else None.

    Raises ``ValueError`` when the api is chosen but ``AXONAL_PROJECT`` is not ``owner/name``.
    """
    env = os.environ
    if nats_url := env.get("AXONAL_NATS_URL"):
        namespace = env.get("AXONAL_NAMESPACE", "axonal")
        return Destination(run_uuid, nats_url=nats_url, namespace=namespace)
    if api_url := env.get("AXONAL_API_URL"):
        project = env.get("AXONAL_PROJECT", "")
        if project.count("/") != 1 or not all(project.split("/")):
            raise ValueError(f"AXONAL_PROJECT must be owner/name, not {project!r}")
        token = env.get("AXONAL_API_TOKEN") or None
        return Destination(run_uuid, api_url=api_url.rstrip("/"), project=project, token=token)
    return None


class NatsSender:
    """JetStream publish awaiting the stream's PubAck, on this thread's own event loop."""

    def __init__(self, url: str, subject: str, inbox_prefix: str = "_INBOX") -> None:
        import asyncio  # noqa: PLC0415 - lazy: see the module doc

        self._url, self._subject, self._inbox_prefix = url, subject, inbox_prefix
        self._loop: asyncio.AbstractEventLoop = asyncio.new_event_loop()
        self._loop.set_default_executor(_inline_executor())
        self._nc: Client | None = None

    def send(self, msg_id: str, body: bytes) -> None:
        self._loop.run_until_complete(self._publish(msg_id, body))

    async def _publish(self, msg_id: str, body: bytes) -> None:
        from nats.errors import MaxPayloadError  # noqa: PLC0415

        nc = await self._connected()
        try:
            await nc.jetstream().publish(
                self._subject, body, timeout=SEND_TIMEOUT, headers={"Nats-Msg-Id": msg_id}
            )
        except MaxPayloadError as exc:
            raise Refused(f"batch of {len(body)} bytes is over the server's limit") from exc

    async def _connected(self) -> Client:
        if self._nc is not None and self._nc.is_connected:
            return self._nc
        await self._close()
        import nats  # noqa: PLC0415

        self._nc = await nats.connect(
            [url.strip() for url in self._url.split(",") if url.strip()],  # a cluster's nodes
            name="axonal-tracking",
            inbox_prefix=self._inbox_prefix,
            connect_timeout=SEND_TIMEOUT,
            # the writer retries (and knows when the backend is away): fail fast instead
            allow_reconnect=False,
            max_reconnect_attempts=1,
            reconnect_time_wait=0,
            error_cb=_quiet,  # the writer reports failures, once
        )
        return self._nc

    async def _close(self) -> None:
        nc, self._nc = self._nc, None
        if nc is not None and not nc.is_closed:
            await nc.close()

    def close(self) -> None:
        self._loop.run_until_complete(self._close())
        self._loop.close()


def _inline_executor() -> ThreadPoolExecutor:
    """An executor running work (host name lookups) in the calling thread.

    asyncio resolves host names in its default executor, which refuses work once the
    interpreter is exiting, when the last batches are sent; this one never does.
    """
    from concurrent.futures import Future, ThreadPoolExecutor  # noqa: PLC0415

    class Inline(ThreadPoolExecutor):
        def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
            future: Future[T] = Future()
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                future.set_exception(exc)
            return future

    return Inline(max_workers=1)


async def _quiet(error: Exception) -> None:
    """nats-py prints a traceback per error unless given a callback."""


class HttpSender:
    """``POST`` to the api; 2xx delivered, 429 :class:`Throttled` (its ``Retry-After``), other
    4xx (but 408) refused, the rest retried."""

    def __init__(self, url: str, token: str | None) -> None:
        import httpx  # noqa: PLC0415

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._url = url
        self._client: httpx.Client = httpx.Client(headers=headers, timeout=SEND_TIMEOUT)

    def send(self, msg_id: str, body: bytes) -> None:
        response = self._client.post(
            self._url,
            content=body,
            headers={"Content-Type": "application/json", "Idempotency-Key": msg_id},
        )
        status = response.status_code
        if status == 429:
            raise Throttled(_retry_after(response), _message(response))
        if 400 <= status < 500 and status != 408:
            raise Refused(f"HTTP {status}: {_message(response)}")
        response.raise_for_status()

    def close(self) -> None:
        self._client.close()


def _retry_after(response: httpx.Response) -> float:
    """``Retry-After`` in seconds (an HTTP date is not sent by the api: 1 s then)."""
    try:
        return max(0.0, float(response.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


def _message(response: httpx.Response) -> str:
    """The api's ``message``, else the body's start."""
    try:
        return str(response.json()["message"])
    except (ValueError, KeyError, TypeError):
        return response.text[:200]
