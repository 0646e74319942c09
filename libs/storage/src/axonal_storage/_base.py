"""The artifact store interface shared by every backend."""

from __future__ import annotations

import abc
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Self

from ._errors import ArtifactNotFoundError

__all__ = ("DEFAULT_CHUNK_SIZE", "ArtifactStore", "ObjectInfo", "rechunk")

DEFAULT_CHUNK_SIZE = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ObjectInfo:
    """Metadata of one stored object.

    Args:
        key: the artifact key, relative to the store.
        size: size in bytes.
        modified: last modification time (timezone-aware, UTC).
        etag: an opaque version tag that changes when the object is rewritten, if known.
    """

    key: str
    size: int
    modified: datetime
    etag: str | None = None


class ArtifactStore(abc.ABC):
    """Keyed blob storage with streamed reads and writes.

    Keys follow `axonal_storage.validate_key`. Stores are async context managers:
    ``async with open_store(url) as store: ...`` acquires and releases their clients.
    A missing key raises `ArtifactNotFoundError`; an invalid key raises `InvalidKeyError`.
    """

    async def open(self) -> None:  # noqa: B027 - optional hook, most stores need nothing
        """Acquire resources (network clients); called by ``__aenter__``."""

    async def close(self) -> None:  # noqa: B027 - optional hook, most stores need nothing
        """Release resources; called by ``__aexit__``."""

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abc.abstractmethod
    async def put(self, key: str, chunks: AsyncIterable[bytes]) -> ObjectInfo:
        """Store the streamed ``chunks`` under ``key``, replacing any object atomically.

        If ``chunks`` raises, nothing becomes visible and the error propagates.
        """

    @abc.abstractmethod
    def get(self, key: str) -> AsyncGenerator[bytes, None]:
        """Stream the object's bytes in chunks.

        The lookup happens on the first iteration, which raises `ArtifactNotFoundError`.
        Wrap the iterator in `contextlib.aclosing` when you may stop reading early.
        """

    @abc.abstractmethod
    def list(self, prefix: str = "") -> AsyncGenerator[ObjectInfo, None]:
        """Yield every object whose key starts with ``prefix``, sorted by key."""

    @abc.abstractmethod
    async def stat(self, key: str) -> ObjectInfo:
        """Return the object's metadata."""

    @abc.abstractmethod
    async def delete(self, key: str) -> None:
        """Delete the object; deleting a missing key is a no-op (idempotent)."""

    @abc.abstractmethod
    async def copy(self, src: str, dst: str) -> ObjectInfo:
        """Copy ``src`` to ``dst`` (replacing ``dst``) and return the new object's metadata."""

    async def exists(self, key: str) -> bool:
        """Tell whether an object exists under ``key``."""
        try:
            await self.stat(key)
        except ArtifactNotFoundError:
            return False
        return True

    async def put_bytes(self, key: str, data: bytes) -> ObjectInfo:
        """Store ``data`` under ``key``."""
        return await self.put(key, _single(data))

    async def get_bytes(self, key: str) -> bytes:
        """Read the whole object into memory."""
        return b"".join([chunk async for chunk in self.get(key)])


async def _single(data: bytes) -> AsyncIterator[bytes]:
    yield data


async def rechunk(chunks: AsyncIterable[bytes], size: int) -> AsyncGenerator[bytes, None]:
    """Regroup ``chunks`` into blocks of exactly ``size`` bytes (the last may be shorter)."""
    buffer = bytearray()
    async for chunk in chunks:
        if not buffer and len(chunk) == size:
            yield bytes(chunk)  # no copy for bytes already of the right size
            continue
        view = memoryview(chunk)
        while view:
            take = size - len(buffer)
            buffer += view[:take]
            view = view[take:]
            if len(buffer) == size:
                yield _drain(buffer)
    if buffer:
        yield _drain(buffer)


def _drain(buffer: bytearray) -> bytes:
    """Move the buffered bytes out, so the consumer holds the only copy of a block."""
    block = bytes(buffer)
    buffer.clear()
    return block
