"""Artifact store on the local filesystem."""

from __future__ import annotations

import builtins
import contextlib
import os
import stat as stat_mode
import uuid
from collections.abc import AsyncGenerator, AsyncIterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import anyio
import anyio.to_thread

from ._base import DEFAULT_CHUNK_SIZE, ArtifactStore, ObjectInfo, rechunk
from ._errors import ArtifactNotFoundError, InvalidKeyError, StorageBackendError
from ._keys import validate_key, validate_prefix

__all__ = ("LocalArtifactStore",)

TMP_PREFIX = ".axonal-tmp-"


class LocalArtifactStore(ArtifactStore):
    """Objects as files under ``root``; a write lands in a temp file renamed into place.

    A crashed or failed write therefore never leaves a partial object visible. A key cannot
    be both an object and a "directory" of other keys here (S3 allows it): such a write
    raises `InvalidKeyError`.

    Args:
        root: directory holding the objects; created on the first write.
        chunk_size: block size of reads and writes.
        durable: fsync every object and its directory before reporting it stored.
    """

    __slots__ = ("_chunk_size", "_durable", "root")

    def __init__(
        self, root: Path | str, *, chunk_size: int = DEFAULT_CHUNK_SIZE, durable: bool = True
    ) -> None:
        self.root = Path(root)
        self._chunk_size = chunk_size
        self._durable = durable

    def __repr__(self) -> str:
        return f"LocalArtifactStore({str(self.root)!r})"

    def _path(self, key: str) -> Path:
        segments = validate_key(key).split("/")
        if any(segment.startswith(TMP_PREFIX) for segment in segments):
            raise InvalidKeyError(key, f"segments starting with {TMP_PREFIX!r} are reserved")
        return self.root.joinpath(*segments)

    async def put(self, key: str, chunks: AsyncIterable[bytes]) -> ObjectInfo:
        path = self._path(key)
        tmp = path.with_name(f"{TMP_PREFIX}{uuid.uuid4().hex}")
        try:
            with _translate(key, writing=True):
                await anyio.Path(path.parent).mkdir(parents=True, exist_ok=True)
                file = await anyio.open_file(tmp, "wb")
            async with file:
                async for block in rechunk(chunks, self._chunk_size):
                    with _translate(key, writing=True):
                        await file.write(block)
                if self._durable:
                    with _translate(key, writing=True):
                        await anyio.to_thread.run_sync(os.fsync, file.wrapped.fileno())
            with _translate(key, writing=True):
                return await anyio.to_thread.run_sync(_publish, tmp, path, key, self._durable)
        except BaseException:
            with anyio.CancelScope(shield=True), contextlib.suppress(OSError):
                await anyio.Path(tmp).unlink(missing_ok=True)
            raise

    async def get(self, key: str) -> AsyncGenerator[bytes, None]:
        path = self._path(key)
        with _translate(key):
            file = await anyio.open_file(path, "rb")
        async with file:
            while True:
                with _translate(key):
                    block = await file.read(self._chunk_size)
                if not block:
                    return
                yield block

    async def list(self, prefix: str = "") -> AsyncGenerator[ObjectInfo, None]:
        validate_prefix(prefix)
        with _translate(prefix):
            infos = await anyio.to_thread.run_sync(_scan, self.root, prefix)
        for info in infos:
            yield info

    async def stat(self, key: str) -> ObjectInfo:
        path = self._path(key)
        with _translate(key):
            return await anyio.to_thread.run_sync(_info, path, key)

    async def delete(self, key: str) -> None:
        path = self._path(key)
        with _translate(key):
            await anyio.to_thread.run_sync(_remove, path, self.root)

    async def copy(self, src: str, dst: str) -> ObjectInfo:
        self._path(dst)
        await self.stat(src)
        return await self.put(dst, self.get(src))


@contextlib.contextmanager
def _translate(key: str, *, writing: bool = False) -> Iterator[None]:
    """Map OS errors to storage errors."""
    try:
        yield
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, FileExistsError) as exc:
        if writing:
            reason = "conflicts with an existing object or directory on disk"
            raise InvalidKeyError(key, reason) from exc
        raise ArtifactNotFoundError(key) from exc
    except OSError as exc:
        raise StorageBackendError(f"filesystem error on {key!r}: {exc}") from exc


def _info(path: Path, key: str) -> ObjectInfo:
    st = path.stat()
    if not stat_mode.S_ISREG(st.st_mode):
        raise FileNotFoundError(path)
    return ObjectInfo(
        key=key,
        size=st.st_size,
        modified=datetime.fromtimestamp(st.st_mtime, UTC),
        etag=f"{st.st_ino:x}-{st.st_mtime_ns:x}-{st.st_size:x}",
    )


def _publish(tmp: Path, path: Path, key: str, durable: bool) -> ObjectInfo:
    """Rename the finished temp file into place (and persist the directory entry)."""
    tmp.replace(path)
    if durable:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return _info(path, key)


def _remove(path: Path, root: Path) -> None:
    """Unlink ``path`` if it is a file, then prune directories left empty up to ``root``."""
    try:
        path.unlink()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return
    for parent in path.parents:
        if parent == root:
            break
        try:
            parent.rmdir()
        except OSError:
            break


def _scan(root: Path, prefix: str) -> builtins.list[ObjectInfo]:
    """Stat every file under ``root`` whose key starts with ``prefix``, sorted by key."""
    directory = prefix.rpartition("/")[0]
    base = root.joinpath(*directory.split("/")) if directory else root
    infos = []
    for dirpath, _dirnames, filenames in os.walk(base):
        relative = Path(dirpath).relative_to(root).as_posix()
        for name in filenames:
            key = name if relative == "." else f"{relative}/{name}"
            if name.startswith(TMP_PREFIX) or not key.startswith(prefix):
                continue
            with contextlib.suppress(FileNotFoundError):  # deleted while scanning
                infos.append(_info(Path(dirpath, name), key))
    infos.sort(key=lambda info: info.key)
    return infos
