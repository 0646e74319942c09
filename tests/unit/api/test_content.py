"""Content addressing of uploads: the same bytes are kept once under their digest, changed
bytes under a new one, the path holds the latest, and nothing of an upload is left behind."""

import hashlib

import pytest

from axonal_api.content import content_key, put_versioned
from axonal_storage import LocalArtifactStore


async def chunks(*parts: bytes):
    for part in parts:
        yield part


async def stored_keys(store: LocalArtifactStore) -> list[str]:
    return sorted([info.key async for info in store.list()])


async def test_versions_are_kept_by_digest_and_the_path_holds_the_latest(tmp_path):
    old, new = b"old bytes", b"new bytes"
    async with LocalArtifactStore(tmp_path) as store:
        first = await put_versioned(
            store, "acme", "demo", "acme/demo/r/m.pkl", chunks(b"old ", b"bytes")
        )
        again = await put_versioned(store, "acme", "demo", "acme/demo/r/m.pkl", chunks(old))
        second = await put_versioned(store, "acme", "demo", "acme/demo/r/m.pkl", chunks(new))
        assert (first.size, first.sha256) == (len(old), hashlib.sha256(old).hexdigest())
        assert again == first
        assert second.sha256 == hashlib.sha256(new).hexdigest()
        assert await store.get_bytes("acme/demo/r/m.pkl") == new
        assert await store.get_bytes(content_key("acme", "demo", first.sha256)) == old
        assert await stored_keys(store) == sorted([
            "acme/demo/r/m.pkl",
            content_key("acme", "demo", first.sha256),
            content_key("acme", "demo", second.sha256),
        ])  # fmt: skip


async def test_a_broken_upload_leaves_nothing(tmp_path):
    async def broken():
        yield b"part"
        raise OSError("cut short")

    async with LocalArtifactStore(tmp_path) as store:
        with pytest.raises(OSError, match="cut short"):
            await put_versioned(store, "acme", "demo", "acme/demo/r/m.pkl", broken())
        assert await stored_keys(store) == []
