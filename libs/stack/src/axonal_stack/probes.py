"""One-shot probes for ``axonal status``: NATS pings and a PostgreSQL handshake, bounded in time.

``axonal status`` must answer within a few seconds whatever is down. nats-py retries its first
connection for ever when told not to reconnect (``max_reconnect_attempts=0`` means "no limit"
there), and it and FastStream take a second or more to import on a busy laptop; these probes
speak the two plain-text protocols over one asyncio connection each instead: connect once,
ask, close. Only ``nats://`` without TLS is supported (the embedded stack's own server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import struct
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = ["NatsProbe", "ProbeError", "postgres_problem"]

_PROTOCOL_3_0 = 196608


class ProbeError(Exception):
    """A server could not be reached or refused the probe; the message says how."""


class NatsProbe:
    """A NATS connection that sends requests and collects their replies, nothing more."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._inbox = f"_INBOX.status{secrets.token_hex(8)}"
        self._replies: dict[str, asyncio.Future[bytes | None]] = {}
        self._pump: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, url: str, timeout: float) -> NatsProbe:
        """Connect and complete the handshake within ``timeout`` seconds, or raise
        :class:`ProbeError`. Credentials come from the URL or ``AXONAL_NATS_USER`` /
        ``AXONAL_NATS_PASSWORD``. Of a comma-separated list (a cluster's nodes), the first
        server that answers, each tried in turn with its share of ``timeout``."""
        urls = [one.strip() for one in url.split(",") if one.strip()]
        problems: list[str] = []
        for one in urls:
            try:
                return await cls._connect_one(one, timeout / len(urls))
            except ProbeError as exc:
                problems.append(str(exc))
        raise ProbeError("; ".join(dict.fromkeys(problems)) or "no NATS URL")

    @classmethod
    async def _connect_one(cls, url: str, timeout: float) -> NatsProbe:
        parts = urlsplit(url)
        if parts.scheme not in ("nats", ""):
            raise ProbeError(f"{parts.scheme}:// URLs are not supported by the status probe")
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    parts.hostname or "127.0.0.1", parts.port or 4222
                )
                probe = cls(reader, writer)
                try:
                    await probe._handshake(parts.username, parts.password)
                except BaseException:
                    writer.close()
                    raise
        except TimeoutError:
            raise ProbeError(f"no answer within {timeout:g}s") from None
        except OSError as exc:
            raise ProbeError(_reason(exc)) from None
        probe._pump = asyncio.create_task(probe._read_replies())
        return probe

    async def _handshake(self, user: str | None, password: str | None) -> None:
        info = await self._reader.readline()
        if not info.startswith(b"INFO "):
            raise ProbeError(f"not a NATS server (it said {info[:40]!r})")
        if json.loads(info[5:]).get("tls_required"):
            raise ProbeError("TLS is not supported by the status probe")
        options: dict[str, Any] = {
            "verbose": False, "pedantic": False, "name": "axonal-status", "lang": "python",
            "version": "0", "protocol": 1, "headers": True, "no_responders": True,
        }  # fmt: skip
        user = unquote(user) if user else os.environ.get("AXONAL_NATS_USER")
        password = unquote(password) if password else os.environ.get("AXONAL_NATS_PASSWORD")
        if user:
            options |= {"user": user, "pass": password or ""}
        self._send(f"CONNECT {json.dumps(options)}\r\nPING\r\nSUB {self._inbox}.* 1\r\n".encode())
        await self._writer.drain()
        while (line := await self._reader.readline()) != b"PONG\r\n":
            if not line or line.startswith(b"-ERR"):
                raise ProbeError(line.decode(errors="replace").strip() or "connection closed")

    def _send(self, data: bytes) -> None:
        self._writer.write(data)

    async def request(self, subject: str, payload: bytes, timeout: float) -> bytes:
        """The reply's payload; :class:`ProbeError` on no answer or no responder."""
        token = secrets.token_hex(6)
        reply: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._replies[token] = reply
        self._send(b"PUB %s %s.%s %d\r\n%s\r\n" % (
            subject.encode(), self._inbox.encode(), token.encode(), len(payload), payload
        ))  # fmt: skip
        try:
            async with asyncio.timeout(timeout):
                await self._writer.drain()
                data = await reply
        except TimeoutError:
            raise ProbeError(f"no answer within {timeout:g}s") from None
        finally:
            self._replies.pop(token, None)
        if data is None:
            raise ProbeError("nothing answers (no responder)")
        return data

    async def _read_replies(self) -> None:
        """Route ``MSG`` / ``HMSG`` replies to their requests; answer the server's PINGs."""
        with contextlib.suppress(Exception):
            while line := await self._reader.readline():
                if line.startswith(b"PING"):
                    self._send(b"PONG\r\n")
                    continue
                if not line.startswith((b"MSG ", b"HMSG ")):
                    continue
                args = line.split()
                size = int(args[-1])
                body = await self._reader.readexactly(size + 2)
                header_size = int(args[-2]) if args[0] == b"HMSG" else 0
                headers, payload = body[:header_size], body[header_size:size]
                status = headers.split(b"\r\n", 1)[0].split(b" ")[1:2]
                token = args[1].decode().rsplit(".", 1)[-1]
                reply = self._replies.get(token)
                if reply is not None and not reply.done():
                    reply.set_result(None if status == [b"503"] else payload)
        for reply in self._replies.values():
            if not reply.done():
                reply.set_exception(ProbeError("NATS closed the connection"))

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()


async def postgres_problem(url: str, timeout: float) -> str | None:
    """``None`` when PostgreSQL at ``url`` takes a connection now, else what is wrong.

    Sends a startup message and reads the first reply byte: an authentication request means
    it answers; an error (starting up, recovering, unknown database) is returned as it says.
    """
    parts = urlsplit(url)
    user = unquote(parts.username or "postgres")
    database = unquote(parts.path.lstrip("/") or user)
    params = f"user\0{user}\0database\0{database}\0\0".encode()
    startup = struct.pack("!ii", 8 + len(params), _PROTOCOL_3_0) + params
    writer: asyncio.StreamWriter | None = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(
                parts.hostname or "127.0.0.1", parts.port or 5432
            )
            writer.write(startup)
            await writer.drain()
            kind = await reader.readexactly(1)
            if kind == b"R":
                writer.write(b"X\0\0\0\4")  # Terminate, so the server logs no EOF
                await writer.drain()
                return None
            if kind != b"E":
                return f"unexpected answer {kind!r}"
            (length,) = struct.unpack("!i", await reader.readexactly(4))
            fields = (await reader.readexactly(length - 4)).split(b"\0")
            message = next((f[1:] for f in fields if f.startswith(b"M")), b"refused")
            return message.decode(errors="replace")
    except TimeoutError:
        return f"no answer within {timeout:g}s"
    except OSError as exc:
        return _reason(exc)
    except asyncio.IncompleteReadError:
        return "the connection was closed"
    finally:
        if writer is not None:
            writer.close()


def _reason(exc: OSError) -> str:
    """``Connection refused`` rather than asyncio's ``Connect call failed ('127.0.0.1', 1)``."""
    return os.strerror(exc.errno).lower() if exc.errno else str(exc) or type(exc).__name__
