"""Store URL parsing and the `open_store` factory."""

from pathlib import Path

import pytest

from axonal_storage import (
    InvalidStoreURLError,
    LocalArtifactStore,
    LocalLocation,
    S3ArtifactStore,
    S3Location,
    open_store,
    parse_store_url,
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("file:///var/lib/axonal", LocalLocation(Path("/var/lib/axonal"))),
        ("file://localhost/srv/a%20b", LocalLocation(Path("/srv/a b"))),
        ("/abs/path", LocalLocation(Path("/abs/path"))),
        ("relative/dir", LocalLocation(Path("relative/dir"))),
        (Path("/p"), LocalLocation(Path("/p"))),
        ("s3://bucket", S3Location("bucket", "")),
        ("s3://bucket/", S3Location("bucket", "")),
        ("s3://bucket/runs/42/", S3Location("bucket", "runs/42")),
        ("S3://bucket/a b%20c", S3Location("bucket", "a b%20c")),
    ],
)
def test_parse_store_url(url: str | Path, expected: LocalLocation | S3Location) -> None:
    assert parse_store_url(url) == expected


def test_bare_path_expands_home() -> None:
    location = parse_store_url("~/artifacts")
    assert isinstance(location, LocalLocation)
    assert location.root == Path.home() / "artifacts"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("", "empty"),
        ("gs://bucket/x", "unsupported scheme"),
        ("s3://", "bucket name is missing"),
        ("s3:///prefix", "bucket name is missing"),
        ("s3://user@bucket/x", "not a bucket name"),
        ("s3://bucket/a/../b", "bad prefix"),
        ("s3://bucket/a//b", "bad prefix"),
        ("file://server/share", "remote host"),
        ("file:///a?b=1", "query"),
        ("file://", "path is missing"),
    ],
)
def test_invalid_urls(url: str, reason: str) -> None:
    with pytest.raises(InvalidStoreURLError) as info:
        parse_store_url(url)
    assert reason in info.value.reason


def test_open_store_local(tmp_path: Path) -> None:
    store = open_store(tmp_path.as_uri())
    assert isinstance(store, LocalArtifactStore)
    assert store.root == tmp_path


def test_open_store_s3_takes_endpoint_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AXONAL_S3_ENDPOINT_URL", "http://minio:9000")
    store = open_store("s3://artifacts/team/")
    assert isinstance(store, S3ArtifactStore)
    assert (store.bucket, store.endpoint_url) == ("artifacts", "http://minio:9000")
    assert repr(store) == "S3ArtifactStore('artifacts', 'team/')"


def test_open_store_argument_beats_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AXONAL_S3_ENDPOINT_URL", "http://minio:9000")
    store = open_store("s3://artifacts", endpoint_url="http://other:9000")
    assert isinstance(store, S3ArtifactStore)
    assert store.endpoint_url == "http://other:9000"
