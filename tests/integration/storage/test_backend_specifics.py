"""Behaviour that belongs to one backend: on-disk layout, S3 prefixes and client setup."""

from __future__ import annotations

from pathlib import Path

import pytest

from axonal_storage import InvalidKeyError, LocalArtifactStore, S3ArtifactStore, StorageError
from axonal_testing.s3 import S3Server

MIB = 1024 * 1024


class TestLocalSpecifics:
    async def test_file_and_directory_conflict(self, tmp_path: Path) -> None:
        async with LocalArtifactStore(tmp_path) as store:
            await store.put_bytes("a", b"file")
            with pytest.raises(InvalidKeyError, match="conflicts"):
                await store.put_bytes("a/b", b"x")
            await store.delete("a")
            await store.put_bytes("a/b", b"x")
            with pytest.raises(InvalidKeyError, match="conflicts"):
                await store.put_bytes("a", b"x")

    async def test_delete_prunes_empty_directories(self, tmp_path: Path) -> None:
        async with LocalArtifactStore(tmp_path / "root") as store:
            await store.put_bytes("x/y/z", b"1")
            await store.delete("x/y/z")
            assert list((tmp_path / "root").iterdir()) == []
            await store.put_bytes("x", b"now a file")

    async def test_temp_names_are_reserved(self, tmp_path: Path) -> None:
        async with LocalArtifactStore(tmp_path) as store:
            with pytest.raises(InvalidKeyError, match="reserved"):
                await store.put_bytes("a/.axonal-tmp-123", b"x")


class TestS3Specifics:
    async def test_prefix_places_objects_under_it(
        self, s3_server: S3Server, s3_bucket: str
    ) -> None:
        store = S3ArtifactStore(
            s3_bucket,
            "/team/a/",
            endpoint_url=s3_server.endpoint_url,
            region=s3_server.region,
            access_key_id=s3_server.access_key_id,
            secret_access_key=s3_server.secret_access_key,
        )
        async with store:
            await store.put_bytes("k", b"v")
            assert [info.key async for info in store.list()] == ["k"]
        async with s3_server.client() as s3:
            listing = await s3.list_objects_v2(Bucket=s3_bucket)
        assert [item["Key"] for item in listing["Contents"]] == ["team/a/k"]

    async def test_unopened_store_says_so(self) -> None:
        store = S3ArtifactStore("bucket")
        with pytest.raises(StorageError, match="not open"):
            await store.stat("k")

    def test_part_size_has_a_floor(self) -> None:
        with pytest.raises(ValueError, match="part_size"):
            S3ArtifactStore("bucket", part_size=MIB)
