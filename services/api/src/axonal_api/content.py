"""Content-addressed artifact bytes: every version an upload makes is kept under its sha256.

An upload streams into a key of its own, then is copied to its content key
``<owner>/<project>/.sha256/<digest>`` (unless those bytes are already there: the same bytes
are one version) and to the run's path (the latest version, replaced by a re-upload), so an
older version stays readable by its digest whatever a later upload wrote at the path.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass

from axonal_events.artifacts import content_key as project_content_key
from axonal_storage import ArtifactStore

__all__ = ["Stored", "content_key", "put_versioned"]


def content_key(owner: str, project: str, sha256: str) -> str:
    """Where the bytes with digest ``sha256`` of the project are kept, once."""
    return project_content_key(f"{owner}/{project}", sha256)


@dataclass(frozen=True, slots=True)
class Stored:
    """What :func:`put_versioned` stored: the bytes' size and sha256."""

    size: int
    sha256: str


async def put_versioned(
    store: ArtifactStore, owner: str, project: str, key: str, chunks: AsyncIterable[bytes]
) -> Stored:
    """Store ``chunks`` at ``key`` and under their content key; their size and digest.

    Nothing is kept when ``chunks`` raises (an oversize or broken upload).
    """
    digest, size = hashlib.sha256(), 0

    async def hashed() -> AsyncIterator[bytes]:
        nonlocal size
        async for chunk in chunks:
            size += len(chunk)
            digest.update(chunk)
            yield chunk

    incoming = f"{owner}/{project}/.uploads/{uuid.uuid4().hex}"
    try:
        await store.put(incoming, hashed())
        stored = Stored(size, digest.hexdigest())
        blob = content_key(owner, project, stored.sha256)
        if not await store.exists(blob):
            await store.copy(incoming, blob)
        await store.copy(incoming, key)
    finally:
        await store.delete(incoming)
    return stored
