"""One behaviour suite for every artifact store: the local disk and S3 on a real server."""

from __future__ import annotations

import hashlib
import os
import tracemalloc
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from axonal_storage import (
    ArtifactNotFoundError,
    ArtifactStore,
    InvalidKeyError,
    LocalArtifactStore,
    ObjectInfo,
    S3ArtifactStore,
)
from axonal_testing.s3 import S3Server

MIB = 1024 * 1024
BIG_SIZE = 200 * MIB
BIG_PEAK_LIMIT = 64 * MIB


@dataclass
class Backend:
    """How to build a store for one test, and how to find debris a failed write left."""

    name: str
    make: Callable[[], ArtifactStore]
    leftovers: Callable[[], Awaitable[list[str]]]


@pytest.fixture(params=["local", "s3"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "local":
        root = tmp_path / "artifacts"

        async def temp_files() -> list[str]:
            return [p.name for p in root.rglob(".axonal-tmp-*")]

        return Backend("local", lambda: LocalArtifactStore(root), temp_files)

    server: S3Server = request.getfixturevalue("s3_server")
    bucket: str = request.getfixturevalue("s3_bucket")

    async def pending_uploads() -> list[str]:
        async with server.client() as s3:
            reply = await s3.list_multipart_uploads(Bucket=bucket)
        return [upload["Key"] for upload in reply.get("Uploads", [])]

    def make() -> S3ArtifactStore:
        return S3ArtifactStore(
            bucket,
            "suite",
            endpoint_url=server.endpoint_url,
            region=server.region,
            access_key_id=server.access_key_id,
            secret_access_key=server.secret_access_key,
        )

    return Backend("s3", make, pending_uploads)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[ArtifactStore]:
    async with backend.make() as opened:
        yield opened


async def stream(*chunks: bytes) -> AsyncIterator[bytes]:
    for chunk in chunks:
        yield chunk


async def read_chunks(store: ArtifactStore, key: str) -> list[bytes]:
    return [chunk async for chunk in store.get(key)]


async def keys(store: ArtifactStore, prefix: str = "") -> list[str]:
    return [info.key async for info in store.list(prefix)]


INVALID_KEYS = ["", "/abs", "a/../b", "..", "a//b", "a/", "./a", "bad\x00key"]


class TestArtifactStore:
    async def test_round_trip(self, store: ArtifactStore) -> None:
        info = await store.put_bytes("runs/1/model.bin", b"weights")
        assert (info.key, info.size) == ("runs/1/model.bin", 7)
        assert await store.get_bytes("runs/1/model.bin") == b"weights"
        assert await store.exists("runs/1/model.bin")

    async def test_put_streams_uneven_chunks(self, store: ArtifactStore) -> None:
        chunks = [b"", b"a", os.urandom(100_000), b"", os.urandom(3 * MIB + 7)]
        chunks += [os.urandom(MIB)] * 6  # > 8 MiB in total: S3 switches to multipart
        info = await store.put("stream.bin", stream(*chunks))
        assert info.size == sum(map(len, chunks))
        assert await store.get_bytes("stream.bin") == b"".join(chunks)

    async def test_get_streams_in_bounded_chunks(self, store: ArtifactStore) -> None:
        data = os.urandom(3 * MIB + MIB // 2)
        await store.put_bytes("blob", data)
        chunks = await read_chunks(store, "blob")
        assert len(chunks) >= 4
        assert max(map(len, chunks)) <= MIB
        assert b"".join(chunks) == data

    async def test_stopping_a_read_early_releases_it(self, store: ArtifactStore) -> None:
        await store.put_bytes("blob", os.urandom(3 * MIB))
        async with aclosing(store.get("blob")) as chunks:
            first = await anext(chunks)
        assert first
        assert await store.get_bytes("blob")  # the store still works afterwards

    async def test_list_by_prefix_sorted(self, store: ArtifactStore) -> None:
        for key in ["runs/1/b/c.txt", "runs/10/x", "other", "runs-old/y", "runs/1/a.txt"]:
            await store.put_bytes(key, key.encode())
        assert await keys(store) == [
            "other",
            "runs-old/y",
            "runs/1/a.txt",
            "runs/1/b/c.txt",
            "runs/10/x",
        ]
        assert await keys(store, "runs/1/") == ["runs/1/a.txt", "runs/1/b/c.txt"]
        assert await keys(store, "runs/1") == ["runs/1/a.txt", "runs/1/b/c.txt", "runs/10/x"]
        assert await keys(store, "runs/1/b/c") == ["runs/1/b/c.txt"]
        assert await keys(store, "nothing/") == []
        infos = [info async for info in store.list("runs/10")]
        assert infos == [await store.stat("runs/10/x")]

    async def test_stat(self, store: ArtifactStore) -> None:
        put = await store.put_bytes("a/b.txt", b"12345")
        info = await store.stat("a/b.txt")
        assert info == put
        assert (info.key, info.size) == ("a/b.txt", 5)
        assert info.etag
        assert abs(datetime.now(UTC) - info.modified) < timedelta(minutes=1)

    async def test_overwrite_replaces_content_and_etag(self, store: ArtifactStore) -> None:
        first = await store.put_bytes("k", b"old content")
        second = await store.put_bytes("k", b"new")
        assert await store.get_bytes("k") == b"new"
        assert second.size == 3
        assert second.etag != first.etag
        assert await keys(store) == ["k"]

    async def test_empty_object(self, store: ArtifactStore) -> None:
        info = await store.put("empty", stream())
        assert info.size == 0
        assert await store.get_bytes("empty") == b""
        assert await read_chunks(store, "empty") == []
        assert (await store.stat("empty")).size == 0

    async def test_unicode_and_special_keys(self, store: ArtifactStore) -> None:
        names = ["données/模型/🙂 file.txt", "a+b %20 c&d=e.txt", "ünï/cödé"]
        for name in names:
            await store.put_bytes(name, name.encode())
        for name in names:
            assert await store.get_bytes(name) == name.encode()
            assert (await store.stat(name)).key == name
        assert await keys(store) == sorted(names)
        assert await keys(store, "données/") == [names[0]]

    async def test_delete(self, store: ArtifactStore) -> None:
        await store.put_bytes("dir/x", b"x")
        await store.put_bytes("dir/y", b"y")
        await store.delete("dir/x")
        assert not await store.exists("dir/x")
        assert await keys(store) == ["dir/y"]
        await store.delete("dir/x")  # idempotent
        await store.delete("never/existed")

    async def test_copy(self, store: ArtifactStore) -> None:
        await store.put_bytes("src/a", b"payload")
        await store.put_bytes("dst/a", b"to be replaced")
        info = await store.copy("src/a", "dst/a")
        assert (info.key, info.size) == ("dst/a", 7)
        assert await store.get_bytes("dst/a") == b"payload"
        assert await store.get_bytes("src/a") == b"payload"
        await store.copy("src/a", "other/b")
        assert await keys(store) == ["dst/a", "other/b", "src/a"]

    async def test_missing_key(self, store: ArtifactStore) -> None:
        assert not await store.exists("nope")
        for attempt in (
            store.get_bytes("nope"),
            read_chunks(store, "no/such/key"),
            store.stat("nope"),
            store.copy("nope", "dst"),
        ):
            with pytest.raises(ArtifactNotFoundError) as info:
                await attempt
            assert info.value.key in {"nope", "no/such/key"}
            assert isinstance(info.value, LookupError)
        assert not await store.exists("dst")

    async def test_a_key_prefix_is_not_an_object(self, store: ArtifactStore) -> None:
        await store.put_bytes("folder/file", b"x")
        assert not await store.exists("folder")
        with pytest.raises(ArtifactNotFoundError):
            await store.get_bytes("folder")

    async def test_invalid_keys(self, store: ArtifactStore) -> None:
        for key in INVALID_KEYS:
            for attempt in (
                store.put_bytes(key, b"x"),
                store.get_bytes(key),
                store.stat(key),
                store.exists(key),
                store.delete(key),
                store.copy(key, "fine"),
                store.copy("fine", key),
            ):
                with pytest.raises(InvalidKeyError) as info:
                    await attempt
                assert info.value.key == key
        for prefix in ("/", "/abs", "a/../", "a//b", ".."):
            with pytest.raises(InvalidKeyError):
                await keys(store, prefix)

    async def test_failed_write_leaves_nothing(
        self, store: ArtifactStore, backend: Backend
    ) -> None:
        await store.put_bytes("kept", b"version 1")

        async def broken() -> AsyncIterator[bytes]:
            for _ in range(10):  # 10 MiB: S3 has uploaded a part before it fails
                yield os.urandom(MIB)
            raise RuntimeError("producer crashed")

        for key in ("kept", "new"):
            with pytest.raises(RuntimeError, match="producer crashed"):
                await store.put(key, broken())
        assert await store.get_bytes("kept") == b"version 1"
        assert not await store.exists("new")
        assert await keys(store) == ["kept"]
        assert await backend.leftovers() == []

    @pytest.mark.slow
    async def test_200_mb_round_trip_in_bounded_memory(
        self, store: ArtifactStore, backend: Backend
    ) -> None:
        sent = hashlib.sha256()

        async def generate() -> AsyncIterator[bytes]:
            for _ in range(BIG_SIZE // MIB):
                chunk = os.urandom(MIB)
                sent.update(chunk)
                yield chunk

        received, size = hashlib.sha256(), 0
        tracemalloc.start()
        try:
            baseline = tracemalloc.get_traced_memory()[0]
            info = await store.put("big/blob.bin", generate())
            async for chunk in store.get("big/blob.bin"):
                received.update(chunk)
                size += len(chunk)
            peak = tracemalloc.get_traced_memory()[1] - baseline
        finally:
            tracemalloc.stop()
        print(f"\n{backend.name}: 200 MiB round trip, peak traced memory {peak / MIB:.1f} MiB")
        assert info == ObjectInfo("big/blob.bin", BIG_SIZE, info.modified, info.etag)
        assert size == BIG_SIZE
        assert received.hexdigest() == sent.hexdigest()
        assert peak < BIG_PEAK_LIMIT
