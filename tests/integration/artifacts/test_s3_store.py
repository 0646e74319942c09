"""The same api with its artifacts in S3 (a real moto server): upload (kept at its path and
under its content key), download, 413."""

import asyncio
import os

import pytest

from axonal import tracking

from .conftest import MAX_BYTES, PROJECT, listed


@pytest.fixture
def artifacts_url(s3_server, s3_bucket, monkeypatch) -> str:
    monkeypatch.setenv("AXONAL_S3_ENDPOINT_URL", s3_server.endpoint_url)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", s3_server.access_key_id)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", s3_server.secret_access_key)
    monkeypatch.setenv("AWS_DEFAULT_REGION", s3_server.region)
    return f"s3://{s3_bucket}/artifacts"


async def test_artifacts_round_trip_through_s3(
    http, platform, in_run, tmp_path, s3_server, s3_bucket
):
    run = platform.add_run()
    in_run(run)
    model = tmp_path / "model.bin"
    model.write_bytes(os.urandom(MAX_BYTES - 1))
    record = await asyncio.to_thread(tracking.log_model, model, framework="sklearn")
    assert record["path"] == f"{PROJECT}/{run.uuid}/model.bin"
    [listed_record] = await listed(http, run.uuid, 1)
    assert listed_record["sha256"] == record["sha256"]
    reply = await http.get(f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts/model.bin")
    assert reply.content == model.read_bytes()

    too_big = await http.put(
        f"/api/v1/{PROJECT}/runs/{run.uuid}/artifacts/big.bin", content=b"x" * (MAX_BYTES + 1)
    )
    assert too_big.status_code == 413
    async with s3_server.client() as s3:
        keys = [o["Key"] for o in (await s3.list_objects_v2(Bucket=s3_bucket))["Contents"]]
    assert sorted(keys) == [  # the version under its content key, nothing of the 413 upload
        f"artifacts/{PROJECT}/.sha256/{record['sha256']}",
        f"artifacts/{PROJECT}/{run.uuid}/model.bin",
    ]
