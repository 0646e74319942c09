"""Services on the agent's host: free ports for them, and whether they answer yet.

A port is found by binding port 0 on the loopback interface and closing the socket; the
agent holds the ports of its live services, so two of its services never get the same one
(another program of the host could still take a port in the moment before the service binds
it: the service then fails to start, and says so in its logs).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable, Collection

from axonal_agent.domain.service import LOCAL_HOST, answered

__all__ = ["allocate_ports", "probe", "wait_ready"]

_ATTEMPTS = 100
_PROBE_SECONDS = 2.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOCAL_HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def allocate_ports(count: int, held: Collection[int]) -> list[int]:
    """``count`` distinct free ports of the host, none of them in ``held``."""
    ports: list[int] = []
    for _ in range(_ATTEMPTS):
        if len(ports) == count:
            break
        port = _free_port()
        if port not in held and port not in ports:
            ports.append(port)
    if len(ports) < count:
        raise OSError(f"could not find {count} free ports")
    return ports


async def probe(port: int, path: str | None, host: str = LOCAL_HOST) -> bool:
    """Whether the service answers: a TCP connect (``path`` ``None``), else a GET of ``path``
    answered with 2xx or 3xx."""
    try:
        async with asyncio.timeout(_PROBE_SECONDS):
            reader, writer = await asyncio.open_connection(host, port)
            try:
                if path is None:
                    return True
                request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
                writer.write(request.encode("latin-1"))
                await writer.drain()
                return answered(await reader.readline())
            finally:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
    except (OSError, TimeoutError, UnicodeEncodeError):
        return False


async def wait_ready(
    check: Callable[[], Awaitable[bool]],
    alive: Callable[[], bool],
    timeout: float,
    interval: float = 0.2,
) -> bool:
    """Check until it passes (``True``) or the process is gone (``False``);
    :class:`TimeoutError` after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while alive():
            if await check():
                return True
            await asyncio.sleep(interval)
    return False
